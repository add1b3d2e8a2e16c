// registry.js: the games this client can show, one line per game module. Adding a game is adding
// its folder under games/ and one import plus one entry here; room.js and lobby.js never name a game.
//
// The contract of a game module (games/ur/ur.js is the worked example):
//   id                  the server's game id ("ur")
//   label               its name for people ("Royal Game of Ur")
//   roles               the role of each seat, in seat order (["light", "dark"])
//   roleLabel(role)     the role for people ("Light")
//   optionsForm()       -> {el, value()}: the inputs of the "New room" form for this game; value() is the
//                       `options` object to send with `create`
//   describeOptions(o)  -> [short text]: a room's options (`state.options`, a summary's `options`)
//   createView(ctx)     -> {update(state), destroy()}: the game's part of the room view. ctx gives it
//                       three empty elements it owns, ctx.board (the board), ctx.side (beside the seats)
//                       and ctx.panel (under the board: dice, buttons, a hand or an arranger), plus
//                       ctx.mySeat() (this player's seat or null) and ctx.act(action) (sends it). update()
//                       is called with every `state` of the room: the view keeps what it built and what
//                       the player has half-done (a selected piece) while that is still legal.
//   describeLast(state) -> text: the latest action and its outcome, for people
//   describeResult(state) -> {text, winners: [seat]}: the result of a finished match
//   clicksFor(action, state) -> [selector] | null: the browser-test contract. The elements to click, in
//                       order, for this player to make `action` (one of state.legal) in the current view;
//                       null if the view offers no way to make it. Elements that take part carry
//                       data-click (common.js clickable()), so games with hundreds of legal actions
//                       need no element per action.

import ur from './ur/ur.js';

export const GAMES = [
  ur,
];

const BY_ID = new Map(GAMES.map((g) => [g.id, g]));

// The module of game `id`, or null if this client cannot show it.
export function gameModule(id) {
  return BY_ID.get(id) || null;
}

// A game's name for people; the id itself for a game this client does not know.
export function gameLabel(id) {
  return BY_ID.get(id)?.label || id;
}
