// levels.js: the computer's levels as people choose them, and bots' names as people read them (seatName).
// Easy, Medium and Strong are the server's bot levels random, greedy and strong (add_bot's `level`, the room
// option `stand_in_level`, protocol.md). Which of them a game has is the server's word (GET /api/games
// `levels`, games/registry.js botLevels()); a game lacking a level never offers it. Should the server not
// say, every level is offered: the server refuses one a game lacks, and the refusal's toast names the levels
// it has.
//
// The last level chosen is remembered in localStorage (one choice for the lobby and the rooms).

import { h, clear } from './dom.js';
import { t } from './i18n.js';
import { botLevels } from './games/registry.js';

export const LEVELS = ['random', 'greedy', 'strong']; // Easy, Medium, Strong
const KEY = 'quinteto.botLevel';
const DEFAULT = 'greedy';

export function levelLabel(level) { return LEVELS.includes(level) ? t(`level.${level}`) : level; }

// The level a bot's name says ("Strong bot 2": the server names a bot by its level), or null.
export function levelOfBot(name) {
  const m = /^([A-Za-z_]+) bot \d+$/.exec(name || '');
  const level = m && m[1].toLowerCase();
  return LEVELS.includes(level) ? level : null;
}

// A bot's name for people, in the page's language: the server names bots in English by level and seat
// ("Strong bot 2", room_play.c), which t('botName.<level>') says as "Bot fuerte 2" or "Bot forte 2".
// A name the pattern does not fit (an older server's "bot") is shown as it is.
export function botName(name) {
  const m = /^([A-Za-z_]+) bot (\d+)$/.exec(name || '');
  const level = levelOfBot(name);
  return level ? t(`botName.${level}`, { seat: Number(m[2]) }) : name;
}

// The name to draw for a seat ({name, bot}, as in a state's, a room summary's or a match's seats): a
// bot's translated (botName), a person's as they wrote it. Every view that names a seat uses this, so
// a bot reads the same in the seats, the log, the result and the archive. null for a free seat.
export function seatName(seat) {
  if (!seat || seat.name === null || seat.name === undefined) return null;
  return seat.bot ? botName(seat.name) : seat.name;
}

// The levels game `game` offers, in LEVELS' order (every level when the server did not say).
export function gameLevels(game) {
  const has = botLevels(game);
  if (!has) return LEVELS;
  const list = LEVELS.filter((l) => has.includes(l));
  return list.length ? list : ['random'];
}

// The level a room's stand-ins play at: its option stand_in_level, or the server's default for it (null):
// greedy where the game has it, else random (protocol.md, create).
export function standInLevel(state) {
  const chosen = state?.options?.stand_in_level;
  if (chosen) return chosen;
  return gameLevels(state?.game).includes('greedy') ? 'greedy' : 'random';
}

function stored() {
  try { return localStorage.getItem(KEY); } catch { return null; }
}

export function rememberLevel(level) {
  try { localStorage.setItem(KEY, level); } catch { /* private mode: not remembered */ }
}

// The level to preselect among `levels`: the one chosen last, else Medium, else the strongest there is.
export function preferredLevel(levels, wanted = stored()) {
  if (levels.includes(wanted)) return wanted;
  if (levels.includes(DEFAULT)) return DEFAULT;
  return levels[levels.length - 1];
}

// A <select> of a game's levels (id `id`), preselecting `value` (or the preferred level). `extra`: options
// before the levels ([{value, label}], e.g. the server's default). refill(game) swaps in that game's levels,
// keeping the choice where the game has it.
export function levelSelect(id, { extra = [], value = null, remember = true } = {}) {
  const el = h(`select#${id}.level-select`, { name: id });
  const fill = (levels, keep) => {
    clear(el);
    for (const x of extra) el.append(h('option', { value: x.value }, x.label));
    for (const l of levels) el.append(h('option', { value: l, 'data-level': l }, levelLabel(l)));
    const want = keep ?? value ?? (extra.length ? extra[0].value : preferredLevel(levels));
    el.value = [...el.options].some((o) => o.value === want) ? want : extra.length ? extra[0].value : preferredLevel(levels);
  };
  if (remember) el.addEventListener('change', () => { if (LEVELS.includes(el.value)) rememberLevel(el.value); });
  // a remembered choice follows the person from game to game (preferredLevel); another keeps what it shows
  const refill = (g) => fill(gameLevels(g), remember || !el.options.length ? null : el.value);
  return { el, refill, get value() { return el.value; } };
}

// A bot's badge: "bot", and its level in words ("bot · Strong"). `bot` is the seat's `bot`: (r3) in a state
// the level itself ("strong"); true in a room summary or a revision-2 server's state, where the name says it
// ("Strong bot 2").
export function botBadge(name, bot = true) {
  const level = typeof bot === 'string' && bot ? bot : levelOfBot(name);
  return h('span.badge.bot', { 'data-level': level || undefined },
    level ? `${t('badge.bot')} · ${levelLabel(level)}` : t('badge.bot'));
}

// A rating (r: {rating, provisional}): "1532", "1500?" while provisional, in words for a screen reader.
export function ratingNodes(r) {
  if (typeof r?.rating !== 'number') return null;
  const n = Math.round(r.rating);
  return h('span.rating', { 'data-rating': n, 'data-provisional': r.provisional ? 'true' : null,
    title: r.provisional ? t('rating.provisionalNote') : null },
  h('span', { 'aria-hidden': 'true' }, `${n}${r.provisional ? '?' : ''}`),
  h('span.sr-only', t(r.provisional ? 'rating.saidProvisional' : 'rating.said', { rating: String(n) }))); // (no "1,500")
}

// A taken seat's player: its name, an account's linked to its page (with the handle when the name is another)
// and its rating in the room's game.
export function seatPlayer(s) {
  const name = seatName(s);
  if (!s.handle) return h('span.name', name);
  return h('span.name', { 'data-handle': s.handle },
    h('a', { href: `#/players/${encodeURIComponent(s.handle)}`, title: t('player.pageOf', { handle: s.handle }) }, name),
    name.toLowerCase() === s.handle.toLowerCase() ? null : h('span.handle', ` @${s.handle}`), ' ', ratingNodes(s));
}
