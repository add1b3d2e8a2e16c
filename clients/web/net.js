// net.js: the WebSocket client for protocol quinteto.v1.
//
// Owns one socket to ws(s)://<this host>/ws. On every (re)connect it sends `hello` first and holds
// back every other message until `welcome` arrives; after a drop it reconnects with backoff
// (0.5 s, 1 s, 2 s, 4 s, then 5 s, each less up to half at random: the clients of a server that died
// do not all come back at once). Messages get incrementing ids; request() resolves with the direct
// reply (the first inbound message with the same id) and rejects on an `error` with it. Every inbound
// message is also dispatched as a "message" event; connection changes as "status". It knows nothing
// about games or the DOM.
//
// A cluster (PROTOCOL.md's `moved`): a message answered `moved {room, node, id}` is sent again, after
// `hello` (the token is never in the URL), on a socket to /ws?node=NODE, which later reconnects ask
// for too. At most MAX_MOVES moves in a row: nodes that send it to each other end in an `error`
// `room_unreachable`. A single server never says `moved`.

const BACKOFF_MS = [500, 1000, 2000, 4000, 5000];
const REQUEST_TIMEOUT_MS = 15000;
const MAX_MOVES = 3;

export class NetError extends Error {
  constructor(code, message, id) {
    super(message || code);
    this.code = code;
    this.id = id;
  }
}

export class Net extends EventTarget {
  // hello(): returns {name, token?} for the hello message, asked on every connect.
  constructor({ url, hello }) {
    super();
    this.base = url || defaultUrl();
    this.node = null;         // asked for in the URL: the last `moved` followed
    this.moves = 0;           // moves in a row (until the moved message's answer, or settled())
    this.movedId = null;      // the message sent again after the last move
    this.recent = new Map();  // id -> message sent, not yet answered (the last 64)
    this.helloFields = hello;
    this.ws = null;
    this.nextId = 1;
    this.pending = new Map(); // id -> {resolve, reject, timer}
    this.queue = [];          // messages waiting for `welcome`
    this.ready = false;       // welcome received on the current socket
    this.attempt = 0;
    this.status = 'connecting';
    this.stopped = false;
    this.reconnectTimer = null;
    this.welcome = null;
  }

  get url() {
    if (!this.node) return this.base;
    const u = new URL(this.base);
    u.searchParams.set('node', this.node);
    return u.href;
  }

  connect() {
    this.stopped = false;
    this.open();
  }

  open() {
    clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
    this.setStatus(this.attempt === 0 && !this.welcome ? 'connecting' : 'reconnecting');
    let ws;
    try {
      ws = new WebSocket(this.url, 'quinteto.v1');
    } catch (e) {
      this.scheduleReconnect();
      return;
    }
    this.ws = ws;
    this.ready = false;
    ws.onopen = () => {
      if (ws !== this.ws) return;
      const id = this.nextId++;
      ws.send(JSON.stringify({ type: 'hello', id, ...this.helloFields() }));
    };
    ws.onmessage = (ev) => {
      if (ws !== this.ws) return;
      let msg;
      try { msg = JSON.parse(ev.data); } catch { return; }
      if (!msg || typeof msg.type !== 'string') return;
      this.onMessage(msg);
    };
    ws.onclose = () => {
      if (ws !== this.ws) return;
      this.ws = null;
      this.ready = false;
      this.failPending('disconnected');
      if (!this.stopped) this.scheduleReconnect();
      else this.setStatus('closed');
    };
    ws.onerror = () => { /* onclose follows */ };
  }

  onMessage(msg) {
    if (msg.type === 'moved' && this.onMoved(msg)) return;
    if (msg.id != null) this.recent.delete(msg.id);
    if (msg.id != null && msg.id === this.movedId) this.moves = 0;
    if (msg.type === 'welcome') {
      this.welcome = msg;
      this.ready = true;
      this.attempt = 0;
      this.setStatus('online');
    }
    if (msg.id !== undefined && msg.id !== null && this.pending.has(msg.id)) {
      const p = this.pending.get(msg.id);
      this.pending.delete(msg.id);
      clearTimeout(p.timer);
      if (msg.type === 'error') p.reject(new NetError(msg.code, msg.message, msg.id));
      else p.resolve(msg);
    }
    this.dispatchEvent(new CustomEvent('message', { detail: msg }));
    if (msg.type === 'welcome') {
      // Let listeners re-subscribe first (they see `welcome` above), then flush what waited.
      const q = this.queue;
      this.queue = [];
      for (const m of q) this.rawSend(m);
    }
  }

  // A `moved` answer to a message of ours: sent again on the node named (true). Another (no id): the
  // app's to follow or not.
  onMoved(msg) {
    const m = msg.id != null && this.recent.get(msg.id);
    if (!m) return false;
    this.recent.delete(msg.id);
    this.dispatchEvent(new CustomEvent('message', { detail: msg }));
    if (!this.moveTo(msg.node, [m])) {
      this.onMessage({ type: 'error', code: 'room_unreachable', message: `room ${msg.room} could not be reached`, id: m.id });
    }
    return true;
  }

  // Reconnects to /ws?node=NODE and sends `resend` (messages sent before: their requests stay pending)
  // after `welcome`; other requests in flight fail as on a drop. False, doing nothing, for a name that is
  // not a node's (docs/SCALING.md) or past MAX_MOVES moves in a row.
  moveTo(node, resend = []) {
    if (typeof node !== 'string' || !/^[a-z0-9-]{1,32}$/.test(node) || this.stopped) return false;
    if (++this.moves > MAX_MOVES) {
      this.moves = 0;
      return false;
    }
    // Sent back to the node asked for: the proxy found it down (dead, its rooms not yet adopted, while
    // the directory still names it): again after the back-off, not at once (no storm of reconnects).
    const again = node === this.node;
    this.node = node;
    const old = this.ws;
    this.ws = null; // its close event is ignored (open()'s handlers check this.ws)
    this.ready = false;
    if (old) old.close();
    const keep = new Set(resend.map((m) => m.id));
    this.failPending('disconnected', keep);
    this.queue = [...resend, ...this.queue.filter((m) => !keep.has(m.id))];
    for (const m of resend) { this.remember(m); this.movedId = m.id; }
    if (again) this.scheduleReconnect();
    else this.open();
    return true;
  }

  // The room followed answered (its state came): moves in a row count from zero again.
  settled() {
    this.moves = 0;
  }

  remember(m) {
    this.recent.set(m.id, m);
    if (this.recent.size > 64) this.recent.delete(this.recent.keys().next().value);
  }

  scheduleReconnect() {
    const delay = BACKOFF_MS[Math.min(this.attempt, BACKOFF_MS.length - 1)] * (1 - Math.random() / 2);
    this.attempt++;
    this.setStatus('reconnecting');
    clearTimeout(this.reconnectTimer);
    this.reconnectTimer = setTimeout(() => this.open(), delay);
  }

  setStatus(s) {
    if (this.status === s) return;
    this.status = s;
    this.dispatchEvent(new CustomEvent('status', { detail: s }));
  }

  // Rejects every pending request but those in `keep` (ids).
  failPending(code, keep = new Set()) {
    for (const [id, p] of this.pending) {
      if (keep.has(id)) continue;
      clearTimeout(p.timer);
      p.reject(new NetError(code, 'connection lost', id));
      this.pending.delete(id);
      // A rejected request must not be sent later; plain sends stay queued for the next connection.
      this.queue = this.queue.filter((m) => m.id !== id);
    }
  }

  rawSend(msg) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(msg));
      return true;
    }
    return false;
  }

  // Sends `msg` (an id is added) without waiting for a reply; returns the id.
  // Before `welcome` (or while disconnected) the message waits in a queue.
  send(msg) {
    const m = { ...msg, id: this.nextId++ };
    this.remember(m);
    if (!this.ready || !this.rawSend(m)) this.queue.push(m);
    return m.id;
  }

  // Sends `msg` and resolves with the direct reply; rejects with a NetError on `error`. The promise's
  // `id` is the message's.
  request(msg, timeoutMs = REQUEST_TIMEOUT_MS) {
    const id = this.nextId++;
    const p = new Promise((resolve, reject) => {
      const m = { ...msg, id };
      const timer = setTimeout(() => {
        if (this.pending.delete(id)) reject(new NetError('timeout', 'no reply', id));
      }, timeoutMs);
      this.pending.set(id, { resolve, reject, timer });
      this.remember(m);
      if (!this.ready || !this.rawSend(m)) this.queue.push(m);
    });
    p.id = id;
    return p;
  }

  // `hello` again on this socket (after `signed_out`); what is sent meanwhile waits for `welcome`.
  rehello() {
    this.ready = false;
    this.rawSend({ type: 'hello', id: this.nextId++, ...this.helloFields() });
  }

  // Test hook: closes the socket as if the network dropped it; the client reconnects by itself.
  drop() {
    if (this.ws) this.ws.close();
  }

  close() {
    this.stopped = true;
    clearTimeout(this.reconnectTimer);
    if (this.ws) this.ws.close();
  }
}

function defaultUrl() {
  const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
  // Relative to the page, so the client also works behind a path prefix.
  const base = new URL('ws', location.href);
  return `${proto}//${base.host}${base.pathname}`;
}
