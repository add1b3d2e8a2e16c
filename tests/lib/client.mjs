// client.mjs: a WebSocket client of the real server for the Node tests (package `ws`), and the
// few protocol steps every test repeats (create, join, watch, play random legal actions).
//
// Every frame a Client receives goes through its server's check() (schema validation, see
// server.mjs), so a frame that fails its schema fails the test that received it. Replies are
// matched to requests by `id`; next() hands each received message out at most once.
//
// A cluster (docs/SCALING.md): a Client made with `follow` (its option, or `srv.follow`) follows a
// `moved` answer as the web client does: it reconnects to srv.wsUrl + `?node=NODE` (the same base
// URL: the proxy routes on it), says `hello` again with its name and the token of its last `welcome`,
// and sends the message again (same id); request() resolves with the answer of the node that hosts
// the room. More than MAX_MOVES moves for one message fail the request (a loop between nodes).
// reopen(node) does the same by hand (after a node's death: resume by token on whichever node). The
// messages of every socket stay in one list; `moves` records the `moved` answers followed.

import assert from 'node:assert/strict';
import { isDeepStrictEqual } from 'node:util';
import WebSocket from 'ws';
import { within, pick } from './util.mjs';

export const SUBPROTOCOL = 'quinteto.v1';

let nextAutoId = 1;
const MAX_MOVES = 3;

export class Client {
  constructor(srv, label, { follow } = {}) {
    this.srv = srv;
    this.label = label || 'client';
    this.follow = follow ?? !!srv.follow; // follow `moved` answers (see above)
    this.node = null;   // the node asked for (/ws?node=), after a move or reopen()
    this.hello = null;  // the last hello sent, for the next socket's
    this.token = null;  // from the last welcome
    this.moves = [];    // the `moved` answers followed
    this.listeners = new Set(); // onAny()
    this.messages = []; // every message received, parsed, in order
    this.raw = [];      // their text
    this.consumed = new Set(); // indexes handed out by next()/request()
    this.waiters = [];
    this.invalid = [];
    this.closeInfo = null;
  }

  // The URL of the next socket: the server's, with ?node= once a node is named.
  get url() {
    if (!this.node) return this.srv.wsUrl;
    const u = new URL(this.srv.wsUrl);
    u.searchParams.set('node', this.node);
    return u.href;
  }

  open(protocols, timeoutMs) {
    const ws = new WebSocket(this.url, protocols === undefined ? SUBPROTOCOL : protocols || undefined,
      { perMessageDeflate: false, maxPayload: 64 << 20, handshakeTimeout: timeoutMs, ...this.srv.wsOptions });
    this.ws = ws;
    this.closeInfo = null;
    this.srv.clients.add(this);
    // One `closed` for the client, whichever socket it is on: a socket replaced by a move or reopen()
    // does not close the client.
    if (!this.resolveClosed) this.closed = new Promise((resolve) => { this.resolveClosed = resolve; });
    ws.on('close', (code, reason) => {
      if (ws !== this.ws) return;
      this.closeInfo = { code, reason: reason.toString() };
      this.srv.clients.delete(this);
      for (const w of this.waiters.splice(0)) {
        clearTimeout(w.timer);
        w.reject(new Error(`${this.label}: connection closed (${code} ${reason}) while waiting for ${w.what}`));
      }
      const resolve = this.resolveClosed;
      this.resolveClosed = null;
      resolve(this.closeInfo);
    });
    ws.on('message', (data, isBinary) => {
      if (ws === this.ws) this.onMessage(data, isBinary);
    });
    return new Promise((resolve, reject) => {
      const fail = (e) => { this.srv.clients.delete(this); reject(e); };
      ws.once('open', () => { ws.off('error', fail); ws.on('error', () => {}); resolve(this); });
      ws.once('error', fail);
      ws.once('unexpected-response', (req, res) => {
        const e = new Error(`${this.label}: WebSocket refused with HTTP ${res.statusCode}`);
        e.statusCode = res.statusCode;
        req.destroy();
        fail(e);
      });
    });
  }

  onMessage(data, isBinary) {
    const text = data.toString();
    let msg;
    const where = `${this.label} received`;
    if (isBinary) {
      const bad = { where, error: 'binary frame from the server', text };
      this.invalid.push(bad);
      this.srv.invalid.push(bad);
    }
    const checked = this.srv.check(where, text);
    msg = checked.msg;
    if (checked.error) this.invalid.push({ where, error: checked.error, text });
    const i = this.messages.length;
    this.messages.push(msg);
    this.raw.push(text);
    for (const fn of this.listeners) fn(msg);
    for (let k = 0; k < this.waiters.length; k++) {
      const w = this.waiters[k];
      if (w.pred(msg)) {
        this.waiters.splice(k, 1);
        clearTimeout(w.timer);
        this.consumed.add(i);
        w.resolve(msg);
        return;
      }
    }
  }

  get isOpen() { return this.ws.readyState === WebSocket.OPEN; }

  // Sends an object (as JSON) or a string/Buffer as is; opts go to ws.send ({binary, fin}).
  send(msg, opts = {}) {
    const data = typeof msg === 'string' || Buffer.isBuffer(msg) ? msg : JSON.stringify(msg);
    return new Promise((resolve, reject) => this.ws.send(data, { binary: false, ...opts },
      (e) => (e ? reject(e) : resolve())));
  }

  // Sends msg with an auto id (unless it has one) and resolves with the direct reply carrying that
  // id (an `error` too). The reply is marked consumed.
  // With `follow`, a `moved` reply is followed (see above) and the answer of the node moved to is
  // returned.
  async request(msg, timeoutMs = 5000) {
    if (!('id' in msg)) msg = { ...msg, id: nextAutoId++ };
    if (msg.type === 'hello') this.hello = msg;
    for (let moves = 0; ; moves++) {
      const reply = await this.requestOnce(msg, timeoutMs);
      if (reply.type === 'welcome' && reply.token) this.token = reply.token;
      if (reply.type !== 'moved' || !this.follow) return reply;
      assert.ok(moves < MAX_MOVES, `${this.label}: moved ${moves + 1} times in a row for ${JSON.stringify(msg).slice(0, 200)}: ` +
        JSON.stringify(this.moves.slice(-MAX_MOVES)));
      this.moves.push(reply);
      await this.reopen(reply.node, { timeoutMs });
    }
  }

  // Replaces the socket by one to node `node` (/ws?node=; null: /ws) and says hello there with the name
  // of the last hello and the token of the last welcome, plus `extra` (e.g. {since}); resolves with the
  // welcome (also in this.welcome).
  async reopen(node, { timeoutMs = 5000, extra = {} } = {}) {
    assert.ok(this.hello, `${this.label}: reopen before any hello`);
    const old = this.ws;
    this.node = node ?? null;
    await this.open(undefined, timeoutMs); // this.ws is the new socket from here: the old one's close is ignored
    if (old.readyState === WebSocket.OPEN || old.readyState === WebSocket.CONNECTING) old.terminate();
    const hello = { type: 'hello', name: this.hello.name, id: nextAutoId++, ...extra };
    if (this.token) hello.token = this.token;
    const w = await this.requestOnce(hello, timeoutMs);
    assert.equal(w.type, 'welcome', `${this.label}: hello on node ${node} answered ${JSON.stringify(w)}`);
    this.token = w.token;
    this.welcome = w;
    return w;
  }

  // fn(msg) for every message received from now on, whichever socket it came on; returns the remover.
  onAny(fn) {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  async requestOnce(msg, timeoutMs) {
    const id = msg.id;
    const p = this.next((m) => m.id !== undefined && isDeepStrictEqual(m.id, id),
      timeoutMs, `the reply to ${JSON.stringify(msg).slice(0, 200)}`);
    // A send that fails (the socket closing) leaves p unawaited: its own rejection, when the close comes,
    // must not be an unhandled one (it failed a clean run's cluster test in its teardown, hiding the cause).
    p.catch(() => {});
    await this.send(msg);
    return p;
  }

  // Resolves with the first message not yet handed out that satisfies pred (already received or
  // still to come); rejects after timeoutMs or when the connection closes.
  next(pred = () => true, timeoutMs = 5000, what = 'a message') {
    for (let i = 0; i < this.messages.length; i++) {
      if (!this.consumed.has(i) && pred(this.messages[i])) {
        this.consumed.add(i);
        return Promise.resolve(this.messages[i]);
      }
    }
    if (this.closeInfo)
      return Promise.reject(new Error(`${this.label}: connection closed (${this.closeInfo.code}) while waiting for ${what}`));
    return new Promise((resolve, reject) => {
      const w = { pred, resolve, reject, what };
      w.timer = setTimeout(() => {
        const k = this.waiters.indexOf(w);
        if (k >= 0) this.waiters.splice(k, 1);
        const tail = this.raw.slice(-5).map((t) => t.slice(0, 300)).join('\n  ');
        reject(new Error(`${this.label}: timed out after ${timeoutMs} ms waiting for ${what}; last received:\n  ${tail}`));
      }, timeoutMs);
      this.waiters.push(w);
    });
  }

  // Shorthands for next().
  nextType(type, timeoutMs, pred = () => true) {
    return this.next((m) => m.type === type && pred(m), timeoutMs, `a "${type}" message`);
  }
  nextState(room, pred = () => true, timeoutMs = 5000) {
    return this.next((m) => m.type === 'state' && m.room === room && pred(m), timeoutMs,
      `a state of room ${room}`);
  }

  // The index to pass to since() later.
  mark() { return this.messages.length; }
  since(mark, pred = () => true) { return this.messages.slice(mark).filter(pred); }
  statesSince(mark, room) { return this.since(mark, (m) => m.type === 'state' && (!room || m.room === room)); }
  // Marks everything received so far as handed out (so next() only sees what comes later).
  drain() { for (let i = 0; i < this.messages.length; i++) this.consumed.add(i); }

  close(code = 1000, reason = '') {
    if (this.ws.readyState === WebSocket.OPEN || this.ws.readyState === WebSocket.CONNECTING) this.ws.close(code, reason);
    return this.closed;
  }
  terminate() {
    if (this.ws.readyState !== WebSocket.CLOSED) this.ws.terminate();
  }
  // Waits for the server to close the connection; resolves with {code, reason}.
  async waitClosed(timeoutMs = 5000) {
    const r = await within(this.closed, timeoutMs);
    assert.ok(r, `${this.label}: the server did not close the connection within ${timeoutMs} ms`);
    return r;
  }
}

// Creates a room; returns its summary.
export async function createRoom(c, game = 'ur', options) {
  const msg = { type: 'create', game };
  if (options !== undefined) msg.options = options;
  const r = await c.request(msg);
  assert.equal(r.type, 'created', `create answered ${JSON.stringify(r)}`);
  return r.room;
}

// Joins a room; returns {joined, state} (the state that follows the joined reply).
export async function joinRoom(c, room, extra = {}) {
  const j = await c.request({ type: 'join', room, ...extra });
  assert.equal(j.type, 'joined', `join answered ${JSON.stringify(j)}`);
  const state = await c.nextState(room);
  return { joined: j, state };
}

// Two players, Ana and Bruno, seated in a new room of `game` on server `srv`; resolves with their clients
// and the first state of the match.
export async function seatedPair(srv, game, options) {
  const a = await srv.player('Ana');
  const b = await srv.player('Bruno');
  const room = (await createRoom(a, game, options)).id;
  await joinRoom(a, room, { seat: 0 });
  await joinRoom(b, room, { seat: 1 });
  const st = await a.nextState(room, (s) => s.status === 'playing', 10000);
  return { a, b, room, st };
}

// Starts watching a room; returns the state that follows the watching reply.
export async function watchRoom(c, room) {
  const w = await c.request({ type: 'watch', room });
  assert.equal(w.type, 'watching', `watch answered ${JSON.stringify(w)}`);
  return c.nextState(room);
}

// Plays seat actions for client c in room: whenever the latest state for the room offers `legal`,
// sends a random one (or choose(state); null sends nothing) with the state's ply. Looks at messages
// from index `since` (default: those still to come). Stops when the match is finished (`done`
// resolves with the final state) or when stop() is called. Records every act sent in `sent` and
// every error received in reply to one of them (or without an id) in `errors`.
export function autoplay(c, room, { choose = (st) => pick(st.legal), onState, since } = {}) {
  let stopped = false;
  const sent = [];
  const sentIds = new Set();
  const errors = [];
  let resolveDone, rejectDone;
  const done = new Promise((res, rej) => { resolveDone = res; rejectDone = rej; });
  done.catch(() => {}); // handled by whoever awaits it
  let seen = since ?? c.mark();
  const pump = () => {
    if (stopped) return;
    for (; seen < c.messages.length; seen++) {
      const m = c.messages[seen];
      if (m.type === 'error' && (m.id === undefined || sentIds.has(m.id))) errors.push(m);
      if (m.type !== 'state' || m.room !== room) continue;
      if (onState) onState(m);
      if (m.status === 'finished') { stopped = true; unlisten(); resolveDone(m); return; }
      if (m.legal.length && seen === lastStateIndex()) {
        const action = choose(m);
        if (action == null) continue; // the chooser passes: nothing sent
        const act = { type: 'act', room, ply: m.ply, action, id: nextAutoId++ };
        sent.push(act);
        sentIds.add(act.id);
        c.send(act).catch(() => {});
      }
    }
  };
  const lastStateIndex = () => {
    for (let i = c.messages.length - 1; i >= 0; i--)
      if (c.messages[i].type === 'state' && c.messages[i].room === room) return i;
    return -1;
  };
  const listener = () => setImmediate(pump);
  const unlisten = c.onAny(listener);
  c.closed.then(() => { if (!stopped) { stopped = true; rejectDone(new Error(`${c.label}: closed during autoplay`)); } });
  setImmediate(pump);
  return {
    done, sent, errors,
    stop() { stopped = true; unlisten(); },
  };
}

export { WebSocket };
