// games.js: the games the server knows and which of them this client can show.

export const GAMES = [
  { id: 'ur', label: 'Royal Game of Ur', ready: true },
  { id: 'quinteto', label: 'Quinteto', ready: false },
  { id: 'laquet', label: 'Laquet', ready: false },
  { id: 'super15', label: 'Super 1 al 5', ready: false },
];

export const GAME_LABEL = Object.fromEntries(GAMES.map((g) => [g.id, g.label]));
