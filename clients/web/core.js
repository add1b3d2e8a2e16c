// core.js: the state every view of the web client shares, and the few things they all do with it:
// the identity, the seats held, toasts, the one live region, navigation, preferences and the
// room log. app.js (the entry point) owns the connection and the routes and feeds this; lobby.js,
// room.js and rules.js read it. It imports no view, so there is no import cycle.
//
// The seat this player holds in a room comes only from the server's word about this player:
// `joined` {room, seat}, and `welcome.seats` [{room, seat, role}] on every (re)connect; `left`
// forgets it. Never from names (not unique) or from `to_act`. A node of a cluster also names, in
// `welcome.elsewhere`, the seats held in the rooms other nodes host (app.elsewhere).

import { h } from './dom.js';
import { errorText } from './i18n.js';

const params = new URLSearchParams(location.search);
const profile = (params.get('profile') || 'default').slice(0, 40);
const ID_KEY = `quinteto.identity.${profile}`;
const PREFS_KEY = `quinteto.prefs.${profile}`;

function loadJson(key) {
  try {
    const x = JSON.parse(localStorage.getItem(key));
    return x && typeof x === 'object' ? x : {};
  } catch { return {}; }
}

export const app = {
  profile,
  params,
  identity: { seats: {}, ...loadJson(ID_KEY) }, // {name, token, player, seats: {room: seat}}
  prefs: { forced: true, ...loadJson(PREFS_KEY) }, // forced: play a seat's only possible action for it
  net: null,
  connection: 'connecting',
  seated: new Set(),       // rooms this player holds a seat in (welcome + joined - left)
  elsewhere: new Map(),    // a cluster: room id -> {room, seat, role, node}, seats held on other nodes (welcome)
  states: new Map(),       // room id -> latest state
  chats: new Map(),        // room id -> [chat]
  mutes: new Map(),        // room id -> {seats, spectators}: whose chat this player hides there (`muted`, welcome.mutes)
  logs: new Map(),         // room id -> [log entry] (see roomLog)
  rooms: [],               // lobby summaries
  route: { name: 'lobby' },
  view: null,              // the current view (LobbyView | RoomView | RulesView)
  watching: new Set(),     // rooms watched on the current connection
  away: new Set(),         // rooms left during a match: the seat is kept, the states stopped
  stateCount: 0,
  welcomes: 0,             // welcomes received (a reconnect adds one)
  plies: [],               // plies of the states seen for the current room, in order
  sent: [],                // actions sent by the room views, in order (a test hook)
  announced: [],           // texts given to the live region, in order (a test hook)
  account: null,           // the `account` message ({handle} until it comes); null: a guest
  ownErrors: new Set(),    // ids of requests whose refusal a form shows (not toasted)
  ratingChanges: [],       // said after rated matches (a test hook)
  cues: [],                // your-turn cues given in a background tab: 'title', 'sound', 'notification' (a test hook)
};
if (!app.identity.seats || typeof app.identity.seats !== 'object') app.identity.seats = {};

export function saveIdentity() {
  try { localStorage.setItem(ID_KEY, JSON.stringify(app.identity)); } catch { /* private mode */ }
}

export function savePrefs() {
  try { localStorage.setItem(PREFS_KEY, JSON.stringify(app.prefs)); } catch { /* private mode */ }
}

// The seat this player holds in `roomId`, or null (a watcher, or not in the room).
export function mySeat(roomId) {
  const seat = app.identity.seats[roomId];
  return Number.isInteger(seat) && app.seated.has(roomId) ? seat : null;
}

export function setSeat(roomId, seat) {
  if (seat === null) { delete app.identity.seats[roomId]; app.seated.delete(roomId); }
  else { app.identity.seats[roomId] = seat; app.seated.add(roomId); }
  saveIdentity();
}

// A short visual note; `code` is a server error code (its sentence is shown) or a tag for tests.
// Errors are also spoken through the live region.
export function toast(text, code) {
  const box = document.getElementById('toasts');
  if (!box) return;
  const t = h('div.toast', { 'data-code': code || '' }, text || '');
  box.append(t);
  setTimeout(() => t.classList.add('fade'), 4200);
  setTimeout(() => t.remove(), 4800);
  while (box.children.length > 4) box.firstChild.remove();
  announce(text);
}

export function errorToast(code, message) {
  toast(errorText(code, message), code);
}

// Says `text` in the page's one live region (#announcer in index.html, never rebuilt).
let announceTimer = null;
export function announce(text) {
  const el = document.getElementById('announcer');
  if (!el || !text) return;
  app.announced.push(text);
  if (app.announced.length > 200) app.announced.shift();
  // Texts that arrive together are read together; a repeated text is still read again.
  clearTimeout(announceTimer);
  const pending = el.dataset.pending ? `${el.dataset.pending} ${text}` : text;
  el.dataset.pending = pending;
  announceTimer = setTimeout(() => {
    el.textContent = pending;
    delete el.dataset.pending;
  }, 60);
}

export function navigate(hash) {
  if (location.hash === hash) window.dispatchEvent(new HashChangeEvent('hashchange'));
  else location.hash = hash;
}

export function reducedMotion() {
  return window.matchMedia && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

// --- the room log ------------------------------------------------------------------------------
// Every action and event of a room, built from the states the room sends (one per change, so one
// per step of a bot's turn), as data; the views turn entries into words at drawing time, so a
// language switch redraws them. Entries:
//   {kind: 'action', ply, seat, action, outcome, view, prev}   prev: the view before, when seen
//   {kind: 'seat', what: 'sat'|'freed'|'disconnected'|'back', seat, name, bot}
//   {kind: 'status', what: 'started'|'finished', state}
//   {kind: 'gap', from, to}                                    plies not seen (joined late)
const MAX_LOG = 2000;

function seatEntries(prev, st, out) {
  for (const s of st.seats || []) {
    const p = (prev.seats || [])[s.seat] || {};
    const base = { kind: 'seat', seat: s.seat, name: s.name, bot: !!s.bot };
    if (s.name != null && p.name == null) out.push({ ...base, what: 'sat' });
    else if (s.name == null && p.name != null) out.push({ ...base, name: p.name, what: 'freed' });
    else if (s.name != null && !s.bot && p.connected && !s.connected) out.push({ ...base, what: 'disconnected' });
    else if (s.name != null && !s.bot && p.connected === false && s.connected) out.push({ ...base, what: 'back' });
  }
}

// Appends the entries that `st` adds to the room's log and returns them.
export function roomLog(st) {
  if (!app.logs.has(st.room)) app.logs.set(st.room, []);
  const log = app.logs.get(st.room);
  const prev = app.states.get(st.room);
  const out = [];
  if (prev) seatEntries(prev, st, out);
  if ((!prev || prev.status === 'waiting') && st.status !== 'waiting') out.push({ kind: 'status', what: 'started' });
  const from = prev ? prev.ply : 0;
  if (st.ply > from && st.last) {
    if (st.ply > from + 1) out.push({ kind: 'gap', from: from + 1, to: st.ply - 1 });
    out.push({ kind: 'action', ply: st.ply, seat: st.last.seat, action: st.last.action, outcome: st.last.outcome,
      view: st.view, prev: prev && prev.ply === st.ply - 1 ? prev.view : null });
  }
  if (st.status === 'finished' && (!prev || prev.status !== 'finished')) out.push({ kind: 'status', what: 'finished', state: st });
  log.push(...out);
  if (log.length > MAX_LOG) log.splice(0, log.length - MAX_LOG);
  return out;
}
