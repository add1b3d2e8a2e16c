// app.js: entry point of the web client. Identity, routing (#/ and #/room/<id>), the shared client
// state fed by net.js, toasts, and the test hooks (document.body.dataset.*, window.quinteto).
//
// Identity (name + token, and the seat held in each room) lives in localStorage under a key that
// includes the ?profile= URL parameter, so two tabs of one browser can be two players. ?name=
// prefills and submits the name. The views (lobby.js, room.js) render from `app` and talk to the
// server only through app.net.
//
// The seat this player holds in a room comes only from the server's word about this player:
// `joined` {room, seat}, and `welcome.seats` [{room, seat, role}] on every (re)connect; `left`
// forgets it. Never from names (not unique) or from `to_act`.

import { Net } from './net.js';
import { h, clear } from './dom.js';
import { LobbyView } from './lobby.js';
import { RoomView } from './room.js';

const params = new URLSearchParams(location.search);
const profile = (params.get('profile') || 'default').slice(0, 40);
const ID_KEY = `quinteto.identity.${profile}`;

function loadIdentity() {
  try {
    const x = JSON.parse(localStorage.getItem(ID_KEY));
    return x && typeof x === 'object' ? x : {};
  } catch { return {}; }
}

export const app = {
  profile,
  identity: { seats: {}, ...loadIdentity() }, // {name, token, player, seats: {room: seat}}
  net: null,
  connection: 'connecting',
  seated: new Set(),       // rooms this player holds a seat in (welcome + joined - left)
  states: new Map(),       // room id -> latest state
  chats: new Map(),        // room id -> [chat]
  rooms: [],               // lobby summaries
  route: { name: 'lobby' },
  view: null,              // the current LobbyView | RoomView
  watching: new Set(),     // rooms watched on the current connection
  stateCount: 0,
  welcomes: 0,             // welcomes received (a reconnect adds one)
  plies: [],               // plies of the states seen for the current room, in order
  sent: [],                // actions sent by the room views, in order (a test hook)
};
if (!app.identity.seats || typeof app.identity.seats !== 'object') app.identity.seats = {};

export function saveIdentity() {
  try { localStorage.setItem(ID_KEY, JSON.stringify(app.identity)); } catch { /* private mode */ }
}

// --- seats -------------------------------------------------------------------------------------

// The seat this player holds in `roomId`, or null (a watcher, or not in the room).
export function mySeat(roomId) {
  const seat = app.identity.seats[roomId];
  return Number.isInteger(seat) && app.seated.has(roomId) ? seat : null;
}

function setSeat(roomId, seat) {
  if (seat === null) { delete app.identity.seats[roomId]; app.seated.delete(roomId); }
  else { app.identity.seats[roomId] = seat; app.seated.add(roomId); }
  saveIdentity();
}

// --- toasts ------------------------------------------------------------------------------------

export function toast(text, code) {
  const box = document.getElementById('toasts');
  if (!box) return;
  const t = h('div.toast', { role: 'status', 'data-code': code || '' },
    code ? h('strong', code) : null, code ? ' ' : null, text || '');
  box.append(t);
  setTimeout(() => t.classList.add('fade'), 3600);
  setTimeout(() => t.remove(), 4200);
  while (box.children.length > 4) box.firstChild.remove();
}

// --- routing -----------------------------------------------------------------------------------

function parseRoute() {
  const m = /^#\/room\/([^/?#]+)/.exec(location.hash);
  if (m) return { name: 'room', id: decodeURIComponent(m[1]) };
  return { name: 'lobby' };
}

export function navigate(hash) {
  if (location.hash === hash) onRoute();
  else location.hash = hash;
}

function onRoute() {
  if (!app.identity.name) return;
  const route = parseRoute();
  if (app.view && app.view.destroy) app.view.destroy();
  app.route = route;
  app.plies = [];
  const main = clear(document.getElementById('main'));
  if (route.name === 'room') {
    app.view = new RoomView(app, route.id);
    main.append(app.view.el);
    ensureWatching(route.id);
    const st = app.states.get(route.id);
    if (st) showState(st);
    else setBodyRoom(route.id, null);
  } else {
    app.view = new LobbyView(app);
    main.append(app.view.el);
    app.view.update(app.rooms);
    setBodyRoom(null, null);
  }
  document.body.dataset.view = route.name;
}

// Watches the room unless this player is seated in it (the server then sends its state anyway).
function ensureWatching(roomId) {
  if (app.connection !== 'online') return; // done again after welcome
  if (app.seated.has(roomId) || app.watching.has(roomId)) return;
  app.watching.add(roomId);
  app.net.request({ type: 'watch', room: roomId }).catch((e) => {
    app.watching.delete(roomId);
    if (e.code === 'unknown_room' && app.route.id === roomId) app.view?.unknownRoom?.();
  });
}

// --- server messages ---------------------------------------------------------------------------

function setBodyRoom(roomId, st) {
  const b = document.body.dataset;
  if (roomId) b.room = roomId; else delete b.room;
  if (st) {
    b.status = st.status;
    b.ply = String(st.ply);
    const seat = mySeat(roomId);
    b.mySeat = seat === null ? '' : String(seat);
    b.toAct = (st.to_act || []).join(',');
    b.legal = String((st.legal || []).length);
  } else {
    for (const k of ['status', 'ply', 'mySeat', 'toAct', 'legal']) delete b[k];
  }
}

function showState(st) {
  setBodyRoom(st.room, st);
  if (app.view instanceof RoomView && app.view.roomId === st.room) app.view.update(st);
}

const handlers = {
  welcome(msg) {
    app.welcomes++;
    app.identity.token = msg.token;
    app.identity.player = msg.player;
    app.seated = new Set(msg.rooms || []);
    if (Array.isArray(msg.seats)) {
      app.identity.seats = {};
      for (const x of msg.seats) app.identity.seats[x.room] = x.seat;
    } else {
      // A revision-1 server names only the rooms: keep the seats `joined` told us in those.
      for (const r of Object.keys(app.identity.seats)) if (!app.seated.has(r)) delete app.identity.seats[r];
    }
    saveIdentity();
    app.watching = new Set();
    renderHeader();
    app.net.send({ type: 'rooms' });
    if (app.view instanceof RoomView) app.view.actionDone(); // an act in flight may have been lost
    if (app.route.name === 'room') {
      app.connection = 'online';
      ensureWatching(app.route.id);
    }
  },
  rooms(msg) {
    app.rooms = Array.isArray(msg.rooms) ? msg.rooms : [];
    if (app.view instanceof LobbyView) app.view.update(app.rooms);
  },
  joined(msg) {
    setSeat(msg.room, msg.seat);
    const st = app.states.get(msg.room);
    if (st) showState(st);
  },
  left(msg) {
    setSeat(msg.room, null);
    app.watching.delete(msg.room);
  },
  resigned(msg) {
    // The seat stays ours (the match goes on or ends by the state that follows); only say so.
    if (app.route.name === 'room' && app.route.id === msg.room) toast('You resigned.', 'resigned');
  },
  state(msg) {
    app.states.set(msg.room, msg);
    if (app.route.name === 'room' && app.route.id === msg.room) {
      app.stateCount++;
      if (app.plies[app.plies.length - 1] !== msg.ply) app.plies.push(msg.ply);
      showState(msg);
    }
  },
  chat(msg) {
    if (!app.chats.has(msg.room)) app.chats.set(msg.room, []);
    const list = app.chats.get(msg.room);
    list.push(msg);
    if (list.length > 200) list.shift();
    if (app.view instanceof RoomView && app.view.roomId === msg.room) app.view.addChat(msg);
  },
  error(msg) {
    toast(msg.message || '', msg.code || 'error');
    // An action that did not go through: the game view takes clicks again.
    if (['stale_ply', 'illegal_action', 'not_your_turn', 'game_over', 'internal', 'rate_limited'].includes(msg.code) &&
        app.view instanceof RoomView) app.view.actionDone();
  },
};

function onMessage(ev) {
  const msg = ev.detail;
  const fn = handlers[msg.type];
  if (fn) fn(msg);
}

function onStatus(ev) {
  app.connection = ev.detail;
  document.body.dataset.connection = ev.detail;
  renderHeader();
}

// --- header and the name form ------------------------------------------------------------------

function renderHeader() {
  const conn = document.getElementById('conn');
  if (conn) {
    const labels = { online: 'online', connecting: 'connecting…', reconnecting: 'reconnecting…', closed: 'offline' };
    conn.textContent = labels[app.connection] || app.connection;
    conn.dataset.state = app.connection;
  }
  const who = document.getElementById('who');
  if (who) who.textContent = app.identity.name ? app.identity.name : '';
}

function askName() {
  document.body.dataset.view = 'name';
  const main = clear(document.getElementById('main'));
  const input = h('input#name-input', {
    name: 'name', required: true, minLength: 1, maxLength: 24, autocomplete: 'nickname',
    placeholder: 'e.g. Enheduanna', value: app.identity.name || '', 'aria-label': 'Display name',
  });
  const form = h('form#name-form.card.narrow', {
    onsubmit: (ev) => {
      ev.preventDefault();
      const name = input.value.trim();
      if (!validName(name)) { toast('1 to 24 characters, please', 'bad_name'); return; }
      start(name);
    },
  },
  h('h2', 'Welcome to Quinteto'),
  h('p', 'Pick a display name. Other players see it; it is not a login.'),
  h('label', { for: 'name-input' }, 'Display name'),
  input,
  h('button.primary', { type: 'submit' }, 'Enter'));
  main.append(form);
  input.focus();
}

function validName(name) {
  const n = [...name].length;
  // eslint-disable-next-line no-control-regex
  return n >= 1 && n <= 24 && !/[\u0000-\u001f\u007f]/.test(name);
}

function start(name) {
  app.identity.name = name;
  saveIdentity();
  renderHeader();
  if (!app.net) {
    app.net = new Net({
      hello: () => {
        const x = { name: app.identity.name };
        if (app.identity.token) x.token = app.identity.token;
        return x;
      },
    });
    app.net.addEventListener('message', onMessage);
    app.net.addEventListener('status', onStatus);
    app.net.connect();
  }
  onRoute();
}

// --- test hooks --------------------------------------------------------------------------------

window.quinteto = {
  app,
  get state() {
    return app.route.name === 'room' ? app.states.get(app.route.id) || null : null;
  },
  get mySeat() { return app.route.name === 'room' ? mySeat(app.route.id) : null; },
  get plies() { return app.plies.slice(); },
  get stateCount() { return app.stateCount; },
  get connection() { return app.connection; },
  get welcomes() { return app.welcomes; },
  get sent() { return app.sent.slice(); },
  // The browser-test contract (games/registry.js): the selectors to click, in order, to make
  // `action` in the current room's view; null when the view offers no way to make it.
  clicksFor(action) {
    const v = app.view;
    if (!(v instanceof RoomView) || !v.module || !v.state) return null;
    return v.module.clicksFor(action, v.state);
  },
  debugDropSocket() { app.net && app.net.drop(); },
};

// --- boot --------------------------------------------------------------------------------------

window.addEventListener('hashchange', onRoute);
document.body.dataset.connection = 'connecting';
const urlName = (params.get('name') || '').trim();
if (urlName && validName(urlName)) start(urlName);
else if (app.identity.name) start(app.identity.name);
else askName();
