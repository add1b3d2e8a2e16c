// lib.mjs: helpers for the integration tests. Starts the real server binary ($QUINTETO_SERVER) on a
// free loopback port with a fresh temporary database, talks to it over real WebSockets (package `ws`)
// and HTTP (global fetch), and validates EVERY message the server sends against the JSON Schemas of
// protocol/schema (one Ajv 2020 instance with every schema file loaded, looked up by index.json).
//
// Usage, in a test:
//   await withServer({ args: ['--rate', '5'] }, async (srv) => {
//     const a = await srv.player('Ana');            // connected + hello'd client
//     const created = await a.request({ type: 'create', game: 'ur' });
//     ...
//   });
// withServer() stops the server with SIGTERM at the end (it must exit 0; its stderr is reported if
// not) and then asserts that nothing the server sent failed its schema, so a validation failure fails
// the test that received it. Nothing here knows a game's rules.

import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { access, mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import assert from 'node:assert/strict';
import { isDeepStrictEqual } from 'node:util';
import WebSocket from 'ws';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// Resolves with what `promise` gives, or with null after ms; the timer never keeps the process alive.
export function within(promise, ms) {
  let timer;
  return Promise.race([promise, new Promise((r) => { timer = setTimeout(() => r(null), ms); timer.unref(); })])
    .finally(() => clearTimeout(timer));
}
export const SUBPROTOCOL = 'quinteto.v1';

// ---------------------------------------------------------------------------------------------
// Schemas

const SOURCE = process.env.QUINTETO_SOURCE;
const SCHEMA_DIR = SOURCE ? path.join(SOURCE, 'protocol', 'schema') : null;
const SCHEMA_BASE = 'https://schema.quinteto.example/';

let schemaPromise = null;

async function listJson(dir) {
  const out = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...(await listJson(p)));
    else if (e.name.endsWith('.json')) out.push(p);
  }
  return out;
}

// Loads every protocol/schema/**/*.json into one Ajv. Resolves with {ajv, index, validator(file)}.
export function schemas() {
  if (!schemaPromise) {
    schemaPromise = (async () => {
      assert.ok(SCHEMA_DIR, 'QUINTETO_SOURCE must name the source tree');
      const index = JSON.parse(await readFile(path.join(SCHEMA_DIR, 'index.json'), 'utf8'));
      const ajv = new Ajv2020({ strict: false, allErrors: true });
      addFormats(ajv);
      for (const file of await listJson(SCHEMA_DIR)) {
        const rel = path.relative(SCHEMA_DIR, file).split(path.sep).join('/');
        if (rel === 'index.json') continue;
        const schema = JSON.parse(await readFile(file, 'utf8'));
        ajv.addSchema(schema, schema.$id ? undefined : SCHEMA_BASE + rel);
      }
      const cache = new Map();
      const validator = (rel) => {
        if (!cache.has(rel)) {
          const v = ajv.getSchema(SCHEMA_BASE + rel);
          assert.ok(v, `no schema ${rel}`);
          cache.set(rel, v);
        }
        return cache.get(rel);
      };
      for (const rel of index.files) validator(rel); // compile all now: a broken schema fails early
      return { ajv, index, validator };
    })();
  }
  return schemaPromise;
}
const S = await schemas();

// Validates `value` against schema file `rel` (e.g. "state.json"); returns null or an error text.
export function schemaCheck(rel, value) {
  const v = S.validator(rel);
  if (v(value)) return null;
  return `${rel}: ${S.ajv.errorsText(v.errors, { separator: '; ' })}`;
}

// Which schema checks a server WebSocket message; null for a type the protocol does not have.
export function serverSchemaFor(msg) {
  if (!msg || typeof msg !== 'object' || Array.isArray(msg) || typeof msg.type !== 'string') return null;
  return S.index.server[msg.type] ?? null;
}

function validateServerMessage(msg) {
  const rel = serverSchemaFor(msg);
  if (!rel) return `no schema for a server message of type ${JSON.stringify(msg?.type)}`;
  return schemaCheck(rel, msg);
}

// Which schema checks an HTTP JSON answer of the API (by path and status).
function httpSchemaFor(pathname, status) {
  if (status !== 200) return 'http-error.json';
  if (pathname === '/api/rooms') return 'api-rooms.json';
  if (pathname === '/api/matches' || pathname === '/api/matches/') return 'match-list.json';
  if (pathname.startsWith('/api/matches/')) return 'archive.json';
  if (pathname === '/healthz') return 'healthz.json';
  return null;
}

// ---------------------------------------------------------------------------------------------
// The server process

export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

let nextAutoId = 1;

export class Server {
  constructor() {
    this.clients = new Set();
    this.invalid = []; // {where, error, message}: schema failures of anything the server sent
    this.stdout = '';
    this.stderr = '';
    this.stopped = false;
  }

  // Starts the binary; resolves once it prints "listening on http://".
  // `dir`: reuse this directory (and its q.db) and keep it at the end (a restart test).
  // Retries a few times when the binary cannot be run (it may be being rebuilt).
  static async start(opts = {}) {
    for (let attempt = 1; ; attempt++) {
      try {
        return await Server.startOnce(opts);
      } catch (e) {
        if (attempt >= 10 || !/ENOENT|ETXTBSY|EACCES|ENOEXEC/.test(`${e.code} ${e.message}`)) throw e;
        await sleep(500);
      }
    }
  }

  static async startOnce({ args = [], botDelayMs = 5, timeoutMs = 20000, dir } = {}) {
    const bin = process.env.QUINTETO_SERVER;
    assert.ok(bin, 'QUINTETO_SERVER must name the server binary');
    assert.ok(SOURCE, 'QUINTETO_SOURCE must name the source tree');
    const srv = new Server();
    srv.keepDir = !!dir;
    srv.dir = dir || await mkdtemp(path.join(tmpdir(), 'quinteto-it-'));
    srv.port = await freePort();
    srv.url = `http://127.0.0.1:${srv.port}`;
    srv.wsUrl = `ws://127.0.0.1:${srv.port}/ws`;
    srv.args = ['--listen', `127.0.0.1:${srv.port}`, '--db', path.join(srv.dir, 'q.db'),
      '--web', path.join(SOURCE, 'clients', 'web'), '--migrations', path.join(SOURCE, 'migrations'),
      '--bot-delay-ms', String(botDelayMs), ...args];
    // The binary may be rebuilt while the tests run: wait a little for it to reappear.
    for (let i = 0; i < 50; i++) {
      try { await access(bin); break; } catch { await sleep(200); }
    }
    srv.proc = spawn(bin, srv.args, { stdio: ['ignore', 'pipe', 'pipe'] });
    srv.exited = new Promise((resolve) => srv.proc.on('exit', (code, signal) => resolve({ code, signal })));
    srv.proc.stderr.on('data', (b) => { srv.stderr += b.toString(); });
    try {
      await srv.waitListening(timeoutMs);
    } catch (e) {
      if (srv.alive) { srv.proc.kill('SIGKILL'); await within(srv.exited, 2000); }
      if (!srv.keepDir) await rm(srv.dir, { recursive: true, force: true });
      throw e;
    }
    return srv;
  }

  waitListening(timeoutMs) {
    const srv = this;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`server did not start in ${timeoutMs} ms\n${srv.stderr}`)), timeoutMs);
      srv.proc.stdout.on('data', (b) => {
        srv.stdout += b.toString();
        if (srv.stdout.includes('listening on http://')) { clearTimeout(timer); resolve(); }
      });
      srv.proc.on('error', (e) => { clearTimeout(timer); reject(e); });
      srv.exited.then(({ code, signal }) => {
        clearTimeout(timer);
        reject(new Error(`server exited before listening (code ${code}, signal ${signal})\n${srv.stderr}`));
      });
    });
  }

  get alive() { return this.proc.exitCode === null && this.proc.signalCode === null; }

  // SIGTERM, then the exit status must be 0 (under AddressSanitizer a leak makes it non-zero).
  // keepClients: leave the WebSockets open (the server must close them itself).
  async stop({ timeoutMs = 15000, keepClients = false } = {}) {
    if (this.stopped) return;
    this.stopped = true;
    if (!keepClients) for (const c of this.clients) c.terminate();
    let status;
    if (this.alive) {
      this.proc.kill('SIGTERM');
      status = await within(this.exited, timeoutMs);
      if (!status) {
        this.proc.kill('SIGKILL');
        await this.exited;
        if (!this.keepDir) await rm(this.dir, { recursive: true, force: true });
        assert.fail(`server did not exit within ${timeoutMs} ms of SIGTERM\nstderr:\n${this.stderr}`);
      }
    } else {
      status = await this.exited;
    }
    if (!this.keepDir) await rm(this.dir, { recursive: true, force: true });
    assert.ok(status.code === 0 && status.signal === null,
      `server exit: code ${status.code}, signal ${status.signal} (expected 0)\nstderr:\n${this.stderr}`);
  }

  // Asserts that every message received so far validated; clears the record (for shared servers).
  assertValid() {
    const bad = this.invalid.splice(0);
    assert.deepEqual(bad.map((b) => `${b.where}: ${b.error}\n  in ${b.text.slice(0, 600)}`), [],
      'messages from the server that failed their JSON Schema');
  }

  // --- WebSocket ---

  // Opens a WebSocket client (subprotocol quinteto.v1 unless `protocols` says otherwise).
  async connect({ protocols = SUBPROTOCOL, timeoutMs = 5000, label } = {}) {
    const c = new Client(this, label);
    await c.open(protocols, timeoutMs);
    return c;
  }

  // A connected client that said hello; c.welcome holds the reply.
  async player(name = 'Player', extra = {}) {
    const c = await this.connect({ label: name });
    const w = await c.request({ type: 'hello', name, ...extra });
    assert.equal(w.type, 'welcome', `hello answered ${JSON.stringify(w)}`);
    c.welcome = w;
    return c;
  }

  // --- HTTP ---

  // GET (or another method) a path; validates JSON answers of the API against their schema.
  async http(pathname, { method = 'GET', headers = {}, body, validate = true, timeoutMs = 10000 } = {}) {
    let res;
    try {
      res = await fetch(this.url + pathname, { method, headers, body, redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
    } catch (e) {
      throw new Error(`${method} ${pathname}: no answer (${e.cause?.code || e.name}: ${e.cause?.message || e.message})`);
    }
    const text = await res.text();
    let json;
    const ctype = res.headers.get('content-type') || '';
    if (ctype.includes('application/json')) {
      try { json = JSON.parse(text); } catch (e) {
        this.invalid.push({ where: `${method} ${pathname}`, error: `not JSON: ${e.message}`, text });
      }
      const pn = new URL(this.url + pathname).pathname;
      const rel = validate && json !== undefined && (pn.startsWith('/api/') || pn === '/healthz')
        ? httpSchemaFor(pn, res.status) : null;
      if (rel) {
        const err = schemaCheck(rel, json);
        if (err) this.invalid.push({ where: `${method} ${pathname} (${res.status})`, error: err, text });
      }
    }
    return { status: res.status, headers: res.headers, ctype, text, json };
  }

  async getJson(pathname, expectStatus = 200) {
    const r = await this.http(pathname);
    assert.equal(r.status, expectStatus, `GET ${pathname}: ${r.status} ${r.text.slice(0, 300)}`);
    assert.ok(r.json !== undefined, `GET ${pathname}: not JSON (${r.ctype})`);
    return r.json;
  }

  // GET /api/matches/{id}, retrying briefly: the archive is written asynchronously.
  async archive(id, { timeoutMs = 5000 } = {}) {
    const end = Date.now() + timeoutMs;
    for (;;) {
      const r = await this.http(`/api/matches/${encodeURIComponent(id)}`);
      if (r.status === 200) return r.json;
      if (Date.now() > end) assert.fail(`GET /api/matches/${id}: still ${r.status} after ${timeoutMs} ms: ${r.text}`);
      await sleep(50);
    }
  }

  // Parses GET /metrics into {name or name{labels}: number}.
  async metrics() {
    const r = await this.http('/metrics');
    assert.equal(r.status, 200);
    return parseMetrics(r.text);
  }
}

export function parseMetrics(text) {
  const out = {};
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*(?:\{[^}]*\})?)\s+(\S+)$/.exec(line);
    if (m) out[m[1]] = Number(m[2]);
  }
  return out;
}

// Runs fn(srv) against a fresh server; stops it (exit 0 required) and asserts that every message
// it sent validated. The first failure wins; later ones are attached to its message.
export async function withServer(opts, fn) {
  if (typeof opts === 'function') { fn = opts; opts = {}; }
  const srv = await Server.start(opts);
  let failure = null;
  try {
    await fn(srv);
  } catch (e) {
    failure = e;
  }
  try {
    await srv.stop();
  } catch (e) {
    if (!failure) failure = e;
    else failure.message += `\n(also: ${e.message})`;
  }
  try {
    srv.assertValid();
  } catch (e) {
    if (!failure) failure = e;
    else failure.message += `\n(also: ${e.message})`;
  }
  if (failure) {
    if (srv.stderr && !failure.message.includes('stderr:'))
      failure.message += `\nserver stderr (tail):\n${srv.stderr.slice(-3000)}`;
    throw failure;
  }
}

// ---------------------------------------------------------------------------------------------
// WebSocket client

export class Client {
  constructor(srv, label) {
    this.srv = srv;
    this.label = label || 'client';
    this.messages = []; // every message received, parsed, in order
    this.raw = [];      // their text
    this.consumed = new Set(); // indexes handed out by next()/request()
    this.waiters = [];
    this.invalid = [];
    this.closeInfo = null;
  }

  open(protocols, timeoutMs) {
    const ws = new WebSocket(this.srv.wsUrl, protocols || undefined,
      { perMessageDeflate: false, maxPayload: 64 << 20, handshakeTimeout: timeoutMs });
    this.ws = ws;
    this.srv.clients.add(this);
    this.closed = new Promise((resolve) => {
      ws.on('close', (code, reason) => {
        this.closeInfo = { code, reason: reason.toString() };
        this.srv.clients.delete(this);
        for (const w of this.waiters.splice(0)) {
          clearTimeout(w.timer);
          w.reject(new Error(`${this.label}: connection closed (${code} ${reason}) while waiting for ${w.what}`));
        }
        resolve(this.closeInfo);
      });
    });
    ws.on('message', (data, isBinary) => this.onMessage(data, isBinary));
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
    const record = (error) => {
      const bad = { where: `${this.label} received`, error, text };
      this.invalid.push(bad);
      this.srv.invalid.push(bad);
    };
    if (isBinary) record('binary frame from the server');
    try {
      msg = JSON.parse(text);
    } catch (e) {
      record(`not JSON: ${e.message}`);
      msg = { type: '<unparsable>', text };
    }
    const err = validateServerMessage(msg);
    if (err) record(err);
    const i = this.messages.length;
    this.messages.push(msg);
    this.raw.push(text);
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
  async request(msg, timeoutMs = 5000) {
    if (!('id' in msg)) msg = { ...msg, id: nextAutoId++ };
    const id = msg.id;
    const p = this.next((m) => m.id !== undefined && isDeepStrictEqual(m.id, id),
      timeoutMs, `the reply to ${JSON.stringify(msg).slice(0, 200)}`);
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

// Waits until cond() is truthy (it may be async), polling; fails after timeoutMs.
export async function until(cond, { timeoutMs = 5000, interval = 20, what = 'a condition' } = {}) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await cond();
    if (v) return v;
    if (Date.now() > end) assert.fail(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(interval);
  }
}

// Picks a random element.
export function pick(arr) {
  return arr[Math.floor(Math.random() * arr.length)];
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
      if (m.status === 'finished') { stopped = true; c.ws.off('message', listener); resolveDone(m); return; }
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
  c.ws.on('message', listener);
  c.closed.then(() => { if (!stopped) { stopped = true; rejectDone(new Error(`${c.label}: closed during autoplay`)); } });
  setImmediate(pump);
  return {
    done, sent, errors,
    stop() { stopped = true; c.ws.off('message', listener); },
  };
}

export { assert, WebSocket };
