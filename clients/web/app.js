// app.js: entry point of the web client. The connection (net.js), the routes (#/, #/room/<id>,
// #/rules/<game> and #/learn/<game> (the guided first match, learn.js, loaded when first opened), and the
// archive's #/matches and #/replay/<id>?ply=N; rules, learn and the archive need no name), the header with the language switch, the name form, and the test hooks
// (document.body.dataset.*, window.quinteto). The shared state lives in core.js, which the views
// import; the views never import this file.
//
// Identity (name + token, and the seat held in each room) lives in localStorage under a key that
// includes the ?profile= URL parameter, so two tabs of one browser can be two players. ?name=
// prefills and submits the name; ?lang= picks the language.
// Accounts (issue 26): the header's "Create account" and "Sign in", or the handle; the rest is account.js
// (loaded for an account's messages or the dialogs) and players.js (#/players/<h>, #/leaderboard).
// A cluster: net.js follows `moved`; here each room's node is remembered (identity.nodes) and asked for
// first when its page opens (a link's #/room/ID?node=NAME is a hint); room.js retries `unavailable`.
// A node's `welcome.elsewhere` names the seats held on other nodes: kept in app.elsewhere (the lobby lists
// them among the player's rooms) and their nodes remembered, so opening one moves there.

import { Net } from './net.js';
import { h, clear } from './dom.js';
import { app, saveIdentity, mySeat, setSeat, toast, errorToast, announce, roomLog, navigate } from './core.js';
import { t, i18n, LANGS, currentLang, setLang } from './i18n.js';
import { LobbyView } from './lobby.js';

// The room, the rules pages and the archive (with its replays, analysis board, eye and the rules
// module they run) are imported the first time their route is shown: a first visit loads the lobby's
// files only. The lobby's first touch or key starts the room's (warmLobby), so a room opened from it
// does not wait for them.
let RoomView = class {}; // `instanceof` is false until the module is here
let RulesView;
let MatchesView;
let ReplayView = class {};
let AccountView;
let PlayerView;
let LeaderboardView;
const LAZY_VIEWS = {
  account: () => withAccount((m) => { AccountView = m.AccountView; }),
  players: () => import('./players.js').then((m) => { ({ PlayerView, LeaderboardView } = m); }),
  room: () => import('./room.js').then((m) => { RoomView = m.RoomView; }),
  rules: () => import('./rules.js').then((m) => { RulesView = m.RulesView; }),
  archive: () => import('./archive.js').then((m) => { ({ MatchesView, ReplayView } = m); }),
};
const LAZY_ROUTES = { room: 'room', rules: 'rules', matches: 'archive', replay: 'archive', account: 'account',
  players: 'players', leaderboard: 'players' };
const lazyLoaded = new Map(); // LAZY_VIEWS name -> true, or the promise while it loads

// Loads view `name` (once); shows the route again when it is here, if the route is still its.
function loadView(name) {
  if (lazyLoaded.has(name)) return;
  lazyLoaded.set(name, LAZY_VIEWS[name]().then(() => {
    lazyLoaded.set(name, true);
    if (LAZY_ROUTES[parseRoute().name] === name) onRoute();
  }, (e) => {
    lazyLoaded.delete(name);
    console.error(`the ${name} view did not load: ${e.message}`);
  }));
}

// Whether the route's view is here; if not, loads it (onRoute() runs again then).
function viewReady(route) {
  const name = LAZY_ROUTES[route.name];
  if (!name || lazyLoaded.get(name) === true) return true;
  loadView(name);
  return false;
}

function warmLobby() {
  if (app.route.name === 'lobby') loadView('room');
}

// --- routing -----------------------------------------------------------------------------------

function parseRoute() {
  let m = /^#\/room\/([^/?#]+)(?:\?(.*))?/.exec(location.hash);
  if (m) return { name: 'room', id: decodeURIComponent(m[1]), node: new URLSearchParams(m[2] || '').get('node') };
  m = /^#\/rules\/([^/?#]+)/.exec(location.hash);
  if (m) return { name: 'rules', game: decodeURIComponent(m[1]) };
  m = /^#\/learn\/([^/?#]+)/.exec(location.hash);
  if (m) return { name: 'learn', game: decodeURIComponent(m[1]) };
  m = /^#\/replay\/([^/?#]+)/.exec(location.hash);
  if (m) return { name: 'replay', id: decodeURIComponent(m[1]) };
  if (/^#\/matches(\?|$)/.test(location.hash)) return { name: 'matches' };
  m = /^#\/(players\/([^/?#]+)|leaderboard|account)(\?|$)/.exec(location.hash);
  if (m) return { name: m[2] ? 'players' : m[1], handle: m[2] && decodeURIComponent(m[2]) };
  return { name: 'lobby' };
}

function onRoute() {
  const route = parseRoute();
  // The archive is read over HTTP, the rules and the guided match are drawn on the page: no name, no
  // connection needed to look at them.
  if (!app.identity.name && !['matches', 'replay', 'rules', 'learn', 'players', 'leaderboard'].includes(route.name)) { askName(); return; }
  if (!viewReady(route)) return; // onRoute() again once it is here
  if (app.view && app.view.destroy) app.view.destroy();
  const sameRoom = route.name === 'room' && app.route.name === 'room' && app.route.id === route.id;
  app.route = route;
  if (!sameRoom) { app.plies = []; window.scrollTo(0, 0); } // a new page starts at its top
  const main = clear(document.getElementById('main'));
  if (route.name === 'room') {
    app.view = new RoomView(app, route.id);
    main.append(app.view.el);
    ensureWatching(route.id);
    const st = app.states.get(route.id);
    if (st) showState(st, []);
    else setBodyRoom(route.id, null);
  } else if (route.name === 'matches' || route.name === 'replay') {
    app.view = route.name === 'matches' ? new MatchesView(app) : new ReplayView(app, route.id);
    main.append(app.view.el);
    setBodyRoom(null, null);
  } else if (route.name === 'players' || route.name === 'leaderboard' || route.name === 'account') {
    app.view = route.name === 'players' ? new PlayerView(app, route.handle)
      : route.name === 'leaderboard' ? new LeaderboardView(app) : new AccountView(app);
    main.append(app.view.el);
    setBodyRoom(null, null);
  } else if (route.name === 'learn') {
    const holder = { destroy() { this.gone = true; } }; // until learn.js is loaded
    app.view = holder;
    setBodyRoom(null, null);
    import('./learn.js').then(({ LearnView }) => {
      if (app.view !== holder) return; // the page moved on meanwhile
      app.view = new LearnView(app, route.game);
      main.append(app.view.el);
    }).catch((e) => { if (app.view === holder) main.append(h('p.notice', t('learn.failed', { error: e.message }))); });
  } else if (route.name === 'rules') {
    app.view = new RulesView(app, route.game);
    main.append(app.view.el);
    setBodyRoom(null, null);
  } else {
    app.view = new LobbyView(app);
    main.append(app.view.el);
    app.view.update(app.rooms);
    setBodyRoom(null, null);
  }
  document.body.dataset.view = route.name;
  showPickName();
}

// Watches the room unless this player is seated in it (the server then sends its state anyway; `force`:
// all the same, to find its node). First moves to the room's known node (welcome comes back here).
function ensureWatching(roomId, force = false) {
  if (app.connection !== 'online') return; // done again after welcome
  const node = roomNode(roomId);
  if (node && node !== app.net.node && app.net.moveTo(node)) return;
  if ((!force && app.seated.has(roomId) && !app.away.has(roomId)) || app.watching.has(roomId) || asking.has(roomId)) return;
  app.away.delete(roomId);
  app.watching.add(roomId);
  // Back after a drop (or to a room seen before): the server sends only what was missed (PROTOCOL.md, Reconnecting).
  const known = app.states.get(roomId);
  const msg = { type: 'watch', room: roomId };
  if (known) msg.since = known.ply;
  const req = app.net.request(msg);
  quiet.add(req.id); // the room says `unavailable` itself, no toast
  asking.add(roomId); // (a `moved` one is still in flight on the next socket)
  req.finally(() => { asking.delete(roomId); quiet.delete(req.id); }).catch((e) => {
    app.watching.delete(roomId);
    if (!inRoomView(roomId)) return;
    if (e.code === 'unknown_room') app.view.unknownRoom();
    else app.view.unreachable(e.code, () => ensureWatching(roomId));
  });
}

const quiet = new Set(); // ids of the `watch` requests in flight
const asking = new Set(); // rooms whose `watch` waits for its answer
const held = new Set();   // rooms of seats a welcome did not name (a cluster: see welcome)
let stateWait = null;    // after a reconnect in a seated room: asks for it if its state does not come

function roomNode(roomId) {
  const known = (app.identity.nodes || {})[roomId]; // what a `moved` said wins over a link's hint
  return known || (app.route.id === roomId && app.route.node) || null;
}

function rememberNode(roomId, node) {
  const nodes = app.identity.nodes || (app.identity.nodes = {});
  if (nodes[roomId] === node) return;
  delete nodes[roomId]; // re-inserted last: the oldest 50 are forgotten first
  nodes[roomId] = node;
  for (const k of Object.keys(nodes).slice(0, -50)) delete nodes[k];
  saveIdentity();
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

function inRoomView(roomId) {
  return app.view instanceof RoomView && app.view.roomId === roomId;
}

function showState(st, added) {
  setBodyRoom(st.room, st);
  if (inRoomView(st.room)) app.view.update(st, added);
}

const handlers = {
  welcome(msg) {
    app.welcomes++;
    app.identity.token = msg.token;
    app.identity.player = msg.player;
    app.seated = new Set(msg.rooms || []);
    // A cluster's node names only the seats in the rooms it hosts: those of rooms elsewhere are kept aside
    // until the room's node says them (a state of one without its seat: hello again, below).
    for (const r of Object.keys(app.identity.seats)) if (roomNode(r) && !app.seated.has(r)) held.add(r);
    for (const r of app.seated) held.delete(r);
    // And (after revision 3) the seats it holds in the rooms other nodes host: listed with this node's,
    // each opened on its node (remembered, as after `moved`). A new device learns them here.
    app.elsewhere = new Map();
    for (const x of Array.isArray(msg.elsewhere) ? msg.elsewhere : []) {
      if (!x || typeof x.room !== 'string' || app.seated.has(x.room) || !/^[a-z0-9-]{1,32}$/.test(x.node)) continue;
      app.elsewhere.set(x.room, x);
      rememberNode(x.room, x.node);
    }
    // (r3) The mutes of this node's rooms (a room of `rooms` not in `mutes` mutes nobody): after a reload the
    // mute toggles show them. A server before revision 3 sends none: keep what `muted` told this page.
    if (Array.isArray(msg.mutes)) {
      for (const r of app.seated) app.mutes.delete(r);
      for (const m of msg.mutes) {
        if (m && typeof m.room === 'string' && Array.isArray(m.seats)) {
          app.mutes.set(m.room, { seats: m.seats, spectators: m.spectators === true });
        }
      }
    }
    if (Array.isArray(msg.seats)) {
      app.identity.seats = {};
      for (const x of msg.seats) app.identity.seats[x.room] = x.seat;
      for (const x of app.elsewhere.values()) app.identity.seats[x.room] = x.seat;
    } else {
      // A revision-1 server names only the rooms: keep the seats `joined` told us in those.
      for (const r of Object.keys(app.identity.seats)) if (!app.seated.has(r)) delete app.identity.seats[r];
    }
    // The identity's name is the server's (after a sign-in, the account's).
    if (typeof msg.name === 'string' && msg.name) app.identity.name = msg.name;
    saveIdentity();
    app.watching = new Set();
    app.away = new Set();
    if (msg.account || app.account) withAccount((m) => m.onWelcome(msg));
    renderHeader();
    app.net.send({ type: 'rooms' });
    if (app.view instanceof RoomView) app.view.actionDone(); // an act in flight may have been lost
    if (app.route.name === 'room') {
      app.connection = 'online';
      ensureWatching(app.route.id);
      // Back after a drop, seated: the state follows welcome, unless this node does not host the room
      // (a cluster whose node died): then watching it finds where it is (`moved`, `unavailable`).
      const room = app.route.id;
      const count = app.stateCount;
      clearTimeout(stateWait);
      if (app.seated.has(room) && app.welcomes > 1) {
        stateWait = setTimeout(() => {
          if (app.route.id === room && app.stateCount === count && app.connection === 'online') ensureWatching(room, true);
        }, 2500);
      }
    }
  },
  moved(msg) {
    rememberNode(msg.room, msg.node);
    // Without an id (net.js follows those with one): the server says where a room of ours went.
    const ours = app.route.id === msg.room || app.seated.has(msg.room);
    if (msg.id == null && ours && !app.net.moveTo(msg.node) && inRoomView(msg.room)) {
      app.view.unreachable('room_unreachable', () => ensureWatching(msg.room, true));
    }
  },
  rooms(msg) {
    app.rooms = Array.isArray(msg.rooms) ? msg.rooms : [];
    if (app.view instanceof LobbyView) app.view.update(app.rooms);
  },
  joined(msg) {
    setSeat(msg.room, msg.seat);
    const st = app.states.get(msg.room);
    if (st) showState(st, []);
  },
  left(msg) {
    // During a match the seat stays ours (the server keeps it for our return); only the room's
    // states stop until we open it again.
    if (app.states.get(msg.room)?.status === 'playing' && mySeat(msg.room) !== null) app.away.add(msg.room);
    else setSeat(msg.room, null);
    app.watching.delete(msg.room);
  },
  resigned(msg) {
    // The seat stays ours (the match goes on or ends by the state that follows); only say so.
    if (app.route.name === 'room' && app.route.id === msg.room) toast(t('room.resigned'), 'resigned');
  },
  state(msg) {
    if (app.route.id === msg.room) app.net.settled();
    if (held.delete(msg.room) && !app.seated.has(msg.room) && app.net.node) app.net.moveTo(app.net.node);
    const added = roomLog(msg);
    app.states.set(msg.room, msg);
    if (app.route.name === 'room' && app.route.id === msg.room) {
      app.stateCount++;
      if (app.plies[app.plies.length - 1] !== msg.ply) app.plies.push(msg.ply);
      showState(msg, added);
    }
  },
  muted(msg) {
    app.mutes.set(msg.room, { seats: msg.seats, spectators: msg.spectators });
    if (inRoomView(msg.room)) app.view.renderMutes();
  },
  rematch(msg) {
    // Every human seat accepted: we hold the same seat in the new room, whose state follows.
    setSeat(msg.new_room, msg.seat);
    if (app.route.name === 'room' && app.route.id === msg.room) {
      navigate(`#/room/${encodeURIComponent(msg.new_room)}`);
      toast(t('rematch.moved'), 'rematch');
    }
  },
  chat(msg) {
    if (!app.chats.has(msg.room)) app.chats.set(msg.room, []);
    const list = app.chats.get(msg.room);
    list.push(msg);
    if (list.length > 200) list.shift();
    if (inRoomView(msg.room)) {
      app.view.addChat(msg);
      if (msg.name !== app.identity.name) announce(t('chat.says', { name: msg.name, text: msg.text }));
    }
  },
  account(msg) { withAccount((m) => m.onAccount(msg)); },
  signed_out(msg) { withAccount((m) => m.onSignedOut(msg)); },
  error(msg) {
    if (app.ownErrors.has(msg.id)) return; // a form shows it (account.js)
    if (quiet.has(msg.id) && ['unavailable', 'room_unreachable'].includes(msg.code)) return;
    errorToast(msg.code || 'error', msg.message);
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

// --- the account ---------------------------------------------------------------------------------

// fn(account.js), once it is here (it draws the header again through the hook it is given).
function withAccount(fn) {
  return import('./account.js').then((m) => fn(m.hook(renderHeader)));
}

// The header's account part (after <main>: the start panel keeps the first Tabs): a connected guest's
// "Create account" and "Sign in", an account's handle (a link to #/account).
function renderAccountNav() {
  const nav = document.getElementById('account-nav');
  if (!nav) return;
  clear(nav);
  nav.setAttribute('aria-label', t('account.nav'));
  if (!app.net) return;
  if (app.account) {
    nav.append(h('a#account-link.account-link', { href: '#/account', 'aria-label': t('account.linkLabel', { handle: app.account.handle }) },
      app.account.handle));
    return;
  }
  const open = (kind) => (ev) => { const b = ev.currentTarget; withAccount((m) => m.openAccountDialog(kind, b)); };
  nav.append(h('button#header-claim', { type: 'button', onclick: open('claim') }, t('account.create')),
    h('button#header-signin', { type: 'button', onclick: open('signin') }, t('account.signIn')));
}

// --- header, language switch and the name form ---------------------------------------------------

// Without a name there is no connection (the archive, rules and learn pages need none): the header says
// so ("not connected", data-state="idle") instead of "connecting…", and offers the name.
function renderHeader() {
  const conn = document.getElementById('conn');
  if (conn) {
    conn.textContent = t(`conn.${app.connection}`);
    conn.dataset.state = app.connection;
  }
  const who = document.getElementById('who');
  if (who) who.textContent = app.identity.name ? app.identity.name : '';
  renderAccountNav();
  showPickName();
  const brand = document.getElementById('brand');
  if (brand) brand.title = t('header.lobby');
  const sel = document.getElementById('lang');
  if (sel) {
    clear(sel).append(...LANGS.map((l) => h('option', { value: l, lang: l, selected: l === currentLang() }, t(`lang.${l}`))));
    sel.value = currentLang();
    sel.setAttribute('aria-label', t('lang.label'));
  }
  document.title = app.view && app.view.pageTitle ? app.view.pageTitle() : t('app.title'); // a room: its own (room.js)
}

// The header's "Choose a name to play", while there is no name and the name form is not shown.
function showPickName() {
  const who = document.getElementById('who');
  let pick = document.getElementById('pick-name');
  if (!app.net && !pick && who) {
    pick = h('button#pick-name.pick-name', { type: 'button', onclick: () => askName() });
    who.after(pick);
  }
  if (!pick) return;
  pick.textContent = t('header.pickName');
  pick.hidden = !!app.net || document.body.dataset.view === 'name';
}

function askName() {
  if (app.view && app.view.destroy) app.view.destroy();
  app.view = null;
  document.body.dataset.view = 'name';
  showPickName();
  const main = clear(document.getElementById('main'));
  const input = h('input#name-input', {
    name: 'name', required: true, minLength: 1, maxLength: 24, autocomplete: 'nickname',
    placeholder: t('name.placeholder'), value: app.identity.name || '',
  });
  const form = h('form#name-form.card.narrow', {
    onsubmit: (ev) => {
      ev.preventDefault();
      const name = input.value.trim();
      if (!validName(name)) { errorToast('bad_name'); return; }
      start(name);
    },
  },
  h('h1', t('name.title')),
  h('p', t('name.intro')),
  h('label', { for: 'name-input' }, t('name.label')),
  input,
  h('button.primary', { type: 'submit' }, t('name.submit')));
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
  if (!app.net) {
    app.connection = 'connecting';
    document.body.dataset.connection = 'connecting';
    app.net = new Net({
      hello: () => {
        const x = { name: app.identity.name };
        if (app.identity.token) x.token = app.identity.token;
        // The last ply seen in each room where we hold a seat: the server sends only what we missed.
        const since = {};
        for (const room of Object.keys(app.identity.seats || {})) {
          const st = app.states.get(room);
          if (st) since[room] = st.ply;
        }
        if (app.identity.token && Object.keys(since).length) x.since = since;
        return x;
      },
    });
    app.net.addEventListener('message', onMessage);
    app.net.addEventListener('status', onStatus);
    app.net.connect();
  }
  renderHeader();
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
  get announced() { return app.announced.slice(); },
  // The browser-test contract (games/base.js): the selectors to click, in order, to make
  // `action` in the current room's view; null when the view offers no way to make it.
  clicksFor(action) {
    const v = app.view;
    if (v && app.route.name === 'learn' && typeof v.clicksFor === 'function') return v.clicksFor(action);
    if (!(v instanceof RoomView) || !v.module || !v.state) return null;
    return v.module.clicksFor(action, v.state);
  },
  debugDropSocket() { app.net && app.net.drop(); },
  // The replay shown (archive.js's ReplayView: its derived pages of steps, matchAt), or null.
  get replay() { return app.view instanceof ReplayView ? app.view : null; },
  get account() { return app.account; },
  get ratingChanges() { return app.ratingChanges.slice(); }, // {game, from, to}, as said
  // The guided match shown (learn.js's LearnView: its lesson, state), or null.
  get learn() { return app.route.name === 'learn' && app.view?.lesson ? app.view : null; },
};

// --- boot --------------------------------------------------------------------------------------

window.addEventListener('hashchange', onRoute);
for (const ev of ['pointerdown', 'keydown']) document.addEventListener(ev, warmLobby, { passive: true });
i18n.addEventListener('langchange', () => {
  renderHeader();
  onRoute();
});
document.getElementById('lang')?.addEventListener('change', (ev) => setLang(ev.target.value));
app.connection = 'idle'; // no name, no connection (yet): start() connects
document.body.dataset.connection = 'idle';
renderHeader();
const urlName = (app.params.get('name') || '').trim();
if (urlName && validName(urlName)) start(urlName);
else if (app.identity.name) start(app.identity.name);
else onRoute();
