// net.js: the WebSocket client for protocol quinteto.v1.
//
// Owns one socket to ws(s)://<this host>/ws. On every (re)connect it sends `hello` first and holds
// back every other message until `welcome` arrives; after a drop it reconnects with backoff
// (0.5 s, 1 s, 2 s, 4 s, then 5 s). Messages get incrementing ids; request() resolves with the
// direct reply (the first inbound message with the same id) and rejects on an `error` with it.
// Every inbound message is also dispatched as a "message" event; connection changes as "status".
// It knows nothing about games or the DOM.

const BACKOFF_MS = [500, 1000, 2000, 4000, 5000];
const REQUEST_TIMEOUT_MS = 15000;

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
    this.url = url || defaultUrl();
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

  scheduleReconnect() {
    const delay = BACKOFF_MS[Math.min(this.attempt, BACKOFF_MS.length - 1)];
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

  failPending(code) {
    for (const [id, p] of this.pending) {
      clearTimeout(p.timer);
      p.reject(new NetError(code, 'connection lost', id));
    }
    // A rejected request must not be sent later; plain sends stay queued for the next connection.
    this.queue = this.queue.filter((m) => !this.pending.has(m.id));
    this.pending.clear();
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
    if (!this.ready || !this.rawSend(m)) this.queue.push(m);
    return m.id;
  }

  // Sends `msg` and resolves with the direct reply; rejects with a NetError on `error`.
  request(msg, timeoutMs = REQUEST_TIMEOUT_MS) {
    return new Promise((resolve, reject) => {
      const id = this.nextId++;
      const m = { ...msg, id };
      const timer = setTimeout(() => {
        if (this.pending.delete(id)) reject(new NetError('timeout', 'no reply', id));
      }, timeoutMs);
      this.pending.set(id, { resolve, reject, timer });
      if (!this.ready || !this.rawSend(m)) this.queue.push(m);
    });
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
