// registry.js: the games this client can show. The list is the server's (GET /api/games: the games it
// hosts, from its one registry, in that order, and each game's bot levels); each is drawn by its module games/<id>/<id>.js, loaded
// here by id, so adding a game to the web client is adding its folder games/<id>/ and nothing else.
// No file of the client names a game outside its folder: room.js, lobby.js, archive.js and rules.js
// ask this file. A game the server lists but this client has no module for is left out, with a
// warning on the console. The contract of a module is in base.js.

export { CONTRACT } from './base.js';

const ID = /^[a-z][a-z0-9_]*$/; // a game id as the server writes it: a folder name, never a path

let LEVELS = {}; // game id -> its bot levels, as the server listed them

// The ids the server hosts; [] (and a warning) when it cannot say.
async function hostedIds() {
  try {
    const r = await fetch('/api/games', { headers: { accept: 'application/json' } });
    if (!r.ok) throw new Error(`HTTP ${r.status}`);
    const body = await r.json();
    if (!Array.isArray(body?.games)) throw new Error('no list of games');
    if (body.levels && typeof body.levels === 'object') LEVELS = body.levels;
    return body.games;
  } catch (e) {
    console.warn(`GET /api/games: ${e.message}; no game can be shown`);
    return [];
  }
}

// The module of game `id` (games/<id>/<id>.js), or null (and a warning) when there is none.
async function load(id) {
  if (typeof id !== 'string' || !ID.test(id)) {
    console.warn(`GET /api/games: ${JSON.stringify(id)} is not a game id; left out`);
    return null;
  }
  try {
    const m = (await import(`./${id}/${id}.js`)).default;
    if (m?.id === id) return m;
    console.warn(`games/${id}/${id}.js is not the module of ${id}; left out`);
  } catch (e) {
    console.warn(`no module for the game ${id} (games/${id}/${id}.js: ${e.message}); left out`);
  }
  return null;
}

export const GAMES = (await Promise.all((await hostedIds()).map(load))).filter(Boolean);

const BY_ID = new Map(GAMES.map((g) => [g.id, g]));

// The module of game `id`, or null if this client cannot show it.
export function gameModule(id) {
  return BY_ID.get(id) || null;
}

// The bot levels of game `id` the server listed (add_bot's `level`), or null when it did not say.
export function botLevels(id) {
  return Array.isArray(LEVELS[id]) ? LEVELS[id] : null;
}

// A game's name for people, in the current language; the id itself for a game this client does not know.
export function gameLabel(id) {
  const m = BY_ID.get(id);
  return m ? m.t('label') : id;
}
