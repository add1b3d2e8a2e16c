// server.mjs: the one way the Node tests start the real server. Used by the integration tests
// (tests/integration/lib.mjs) and the browser tests (tests/browser/lib.mjs) alike.
//
// Server.start() runs the binary ($QUINTETO_SERVER) on a free loopback port with a fresh temporary
// database (or a given directory, for restart tests), the web client and the migrations of the
// source tree ($QUINTETO_SOURCE), and sanitizer options that make any AddressSanitizer, leak or
// UBSan report fatal. stop() sends SIGTERM and requires exit status 0 and no sanitizer report in
// stderr. Every JSON frame or HTTP API answer the server produces that a test hands to check()
// (the WebSocket client and the browser pages do it for every frame they receive) is validated
// against protocol/schema; withServer() fails the test if any failed. Nothing here knows a game.

import { execFileSync, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { access, mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import assert from 'node:assert/strict';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

import { sleep, within, until } from './util.mjs';
import { Client } from './client.mjs';

export { sleep, within, until, pick, rng } from './util.mjs';

export const SOURCE = process.env.QUINTETO_SOURCE;

// ---------------------------------------------------------------------------------------------
// Schemas

// The schemas assembled from protocol/schema/'s templates and every game's part (protocol/schema/
// assemble.py): the build's copy ($QUINTETO_TEST_SCHEMA, which meson sets), or, for a script run outside
// meson (deploy/check-debian-play.mjs), one assembled now into a temporary folder.
function assembledSchemas() {
  if (process.env.QUINTETO_TEST_SCHEMA) return process.env.QUINTETO_TEST_SCHEMA;
  if (!SOURCE) return null;
  const dir = mkdtempSync(path.join(tmpdir(), 'quinteto-schema-'));
  execFileSync('python3', [path.join(SOURCE, 'protocol', 'schema', 'assemble.py'), SOURCE,
    path.join(dir, 'schema'), path.join(dir, 'stamp')], { stdio: 'inherit' });
  return path.join(dir, 'schema');
}
const SCHEMA_DIR = assembledSchemas();
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

// Loads every assembled schema (SCHEMA_DIR/**/*.json) into one Ajv. Resolves with {ajv, index, validator(file)}.
export function schemas() {
  if (!schemaPromise) {
    schemaPromise = (async () => {
      assert.ok(SCHEMA_DIR, 'QUINTETO_TEST_SCHEMA (or QUINTETO_SOURCE) must name the schemas');
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

// Checks one text frame the server sent: null, or why it is not a valid server message.
export function checkServerFrame(text) {
  let msg;
  try { msg = JSON.parse(text); } catch (e) { return { msg: { type: '<unparsable>', text }, error: `not JSON: ${e.message}` }; }
  const rel = serverSchemaFor(msg);
  if (!rel) return { msg, error: `no schema for a server message of type ${JSON.stringify(msg?.type)}` };
  return { msg, error: schemaCheck(rel, msg) };
}

// Which schema checks an HTTP JSON answer of the API (by path and status).
export function httpSchemaFor(pathname, status) {
  if (pathname === '/readyz') return 'readyz.json'; // 200 and 503 alike
  if (status !== 200) return 'http-error.json';
  if (pathname === '/api/rooms') return 'api-rooms.json';
  if (pathname === '/api/games') return 'api-games.json';
  if (pathname === '/api/matches' || pathname === '/api/matches/') return 'match-list.json';
  if (/^\/api\/matches\/[^/]+\/replay$/.test(pathname)) return 'match-replay.json';
  if (pathname.startsWith('/api/matches/')) return 'archive.json';
  if (pathname.startsWith('/api/players/')) return 'player.json';
  if (pathname === '/api/leaderboard') return 'leaderboard.json';
  if (pathname === '/healthz') return 'healthz.json';
  return null;
}

// ---------------------------------------------------------------------------------------------
// The process

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

// Sanitizer options every server run gets, whatever the caller's environment says otherwise:
// a report must end the process with a non-zero status so stop() sees it.
const SANITIZER_OPTIONS = {
  ASAN_OPTIONS: { detect_leaks: '1', halt_on_error: '1' },
  UBSAN_OPTIONS: { halt_on_error: '1', print_stacktrace: '1' },
};

// The environment of a server process: the caller's, with SANITIZER_OPTIONS merged in.
export function serverEnv(base = process.env) {
  const env = { ...base };
  // The server refuses QUINTETO_* variables it does not know: pass it only the harness's own.
  for (const k of Object.keys(env)) if (/^QUINTETO_/.test(k) && !/^QUINTETO_(SERVER|CLI|SOURCE)$/.test(k)) delete env[k];
  for (const [name, want] of Object.entries(SANITIZER_OPTIONS)) {
    const kv = new Map((env[name] || '').split(':').filter(Boolean).map((p) => p.split('=')));
    for (const [k, v] of Object.entries(want)) kv.set(k, v);
    env[name] = [...kv].map(([k, v]) => `${k}=${v}`).join(':');
  }
  return env;
}

// A sqlite3 process holding database `db`'s write lock (BEGIN IMMEDIATE), so the server's transactions
// cannot commit (SQLite answers SQLITE_BUSY after its timeout); resolves with release(), which lets it go.
// With `sql`, the transaction runs it first, and release() commits it (another process's change, made
// while the server's next write waits for the lock); without, release() rolls back.
export async function holdWriteLock(db, { sql = '' } = {}) {
  const p = spawn('sqlite3', [db], { stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  p.stdout.on('data', (b) => { out += b; });
  p.stdin.write(`.timeout 5000\nBEGIN IMMEDIATE;\n${sql}\nSELECT 'locked';\n`);
  await until(() => out.includes('locked'), { what: 'sqlite3 holding the write lock' });
  return async () => {
    p.stdin.end(`${sql ? 'COMMIT' : 'ROLLBACK'};\n.quit\n`);
    await new Promise((r) => p.on('exit', r));
  };
}

// Starts the server binary with `args` as they are (no harness options, no schema checks: for tests of
// start-up and configuration); resolves {proc, stdout, stderr, exit, port} once it listens or has exited
// (port 0 then: the test reads stderr).
export async function spawnServer(args, env = serverEnv(), bin = process.env.QUINTETO_SERVER) {
  const proc = spawn(bin, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const out = { proc, stdout: '', stderr: '' };
  // 'close', not 'exit': Node may report the exit before it has read the last of the process's output.
  out.exit = new Promise((resolve) => proc.on('close', (code, signal) => resolve({ code, signal })));
  proc.stderr.on('data', (b) => { out.stderr += b; });
  await within(new Promise((resolve) => {
    proc.stdout.on('data', (b) => { out.stdout += b; if (/listening on/.test(out.stdout)) resolve(); });
    out.exit.then(resolve);
  }), 20000);
  const m = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(out.stdout);
  out.port = m ? Number(m[1]) : 0;
  return out;
}

// A sanitizer report in `stderr`, or null. Caught even if an option above were overridden.
export function sanitizerReport(stderr) {
  const m = /(ERROR: (Address|Leak)Sanitizer[^\n]*|runtime error:[^\n]*)/.exec(stderr);
  return m ? m[1] : null;
}

export class Server {
  constructor() {
    this.clients = new Set(); // open WebSocket clients (client.mjs), terminated by stop()
    this.invalid = [];        // {where, error, text}: schema failures of anything the server sent
    this.checked = 0;         // frames handed to check(), so a test can see its clients did
    this.stdout = '';
    this.stderr = '';
    this.stopped = false;
  }

  // Starts the binary; resolves once it prints "listening on http://" (or https://, with TLS).
  // opts: args (extra arguments), botDelayMs, timeoutMs, dir (reuse this directory and its q.db and
  // keep it at the end: a restart test), port (instead of a free one: a restart the clients must find
  // again), env (variables added to its environment after the filtering of serverEnv(), e.g. the
  // test-only QUINTETO_TEST_SEED). Retries when the binary cannot be run (being rebuilt).
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

  static async startOnce({ args = [], botDelayMs = 5, timeoutMs = 20000, dir, port, env = {} } = {}) {
    const bin = process.env.QUINTETO_SERVER;
    assert.ok(bin, 'QUINTETO_SERVER must name the server binary');
    assert.ok(SOURCE, 'QUINTETO_SOURCE must name the source tree');
    const srv = new Server();
    srv.keepDir = !!dir;
    srv.dir = dir || await mkdtemp(path.join(tmpdir(), 'quinteto-test-'));
    srv.port = port || await freePort();
    srv.url = `http://127.0.0.1:${srv.port}`;
    srv.wsUrl = `ws://127.0.0.1:${srv.port}/ws`;
    srv.args = ['--listen', `127.0.0.1:${srv.port}`, '--db', path.join(srv.dir, 'q.db'),
      '--web', path.join(SOURCE, 'clients', 'web'), '--migrations', path.join(SOURCE, 'migrations'),
      '--bot-delay-ms', String(botDelayMs), ...args];
    // The binary may be rebuilt while the tests run: wait a little for it to reappear.
    for (let i = 0; i < 50; i++) {
      try { await access(bin); break; } catch { await sleep(200); }
    }
    srv.proc = spawn(bin, srv.args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...serverEnv(), ...env } });
    // 'close', not 'exit': Node may report the exit before it has read the last of stderr (a test reads it then).
    srv.exited = new Promise((resolve) => srv.proc.on('close', (code, signal) => resolve({ code, signal })));
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
        if (/listening on https?:\/\//.test(srv.stdout)) { clearTimeout(timer); resolve(); }
      });
      srv.proc.on('error', (e) => { clearTimeout(timer); reject(e); });
      srv.exited.then(({ code, signal }) => {
        clearTimeout(timer);
        reject(new Error(`server exited before listening (code ${code}, signal ${signal})\n${srv.stderr}`));
      });
    });
  }

  get alive() { return this.proc.exitCode === null && this.proc.signalCode === null; }

  // Everything the server printed, stdout then stderr (for failure messages).
  log() { return this.stdout + this.stderr; }

  // SIGTERM, then the exit status must be 0 (under AddressSanitizer a leak makes it non-zero) and
  // stderr must hold no sanitizer report. keepClients: leave the WebSockets open (the server must
  // close them itself). Resolves with {code, signal}.
  async stop({ timeoutMs = 15000, keepClients = false } = {}) {
    if (this.stopped) return this.status;
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
    this.status = status;
    if (!this.keepDir) await rm(this.dir, { recursive: true, force: true });
    assert.ok(status.code === 0 && status.signal === null,
      `server exit: code ${status.code}, signal ${status.signal} (expected 0)\nstderr:\n${this.stderr}`);
    const report = sanitizerReport(this.stderr);
    assert.equal(report, null, `sanitizer report in the server's stderr\nstderr:\n${this.stderr}`);
    return status;
  }

  // Records a frame the server sent (as text) that a client received; returns the parsed message.
  check(where, text) {
    const { msg, error } = checkServerFrame(text);
    this.checked++;
    if (error) this.invalid.push({ where, error, text });
    return { msg, error };
  }

  // Asserts that every message received so far validated; clears the record (for shared servers).
  assertValid() {
    const bad = this.invalid.splice(0);
    assert.deepEqual(bad.map((b) => `${b.where}: ${b.error}\n  in ${b.text.slice(0, 600)}`), [],
      'messages from the server that failed their JSON Schema');
  }

  // --- WebSocket ---

  // Opens a WebSocket client (subprotocol quinteto.v1 unless `protocols` says otherwise).
  // `follow`: the client follows `moved` answers (client.mjs; this.follow is the default).
  async connect({ protocols, timeoutMs = 5000, label, follow } = {}) {
    const c = new Client(this, label, { follow });
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
      const rel = validate && json !== undefined && (pn.startsWith('/api/') || pn === '/healthz' || pn === '/readyz')
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

  // GET /api/matches/{id}, retrying: the archive is written asynchronously (off the loop, in its own transaction:
  // seconds on a loaded machine; the answer is taken as soon as it is there).
  async archive(id, { timeoutMs = 15000 } = {}) {
    const end = Date.now() + timeoutMs;
    for (;;) {
      const r = await this.http(`/api/matches/${encodeURIComponent(id)}`);
      if (r.status === 200) return r.json;
      if (Date.now() > end) assert.fail(`GET /api/matches/${id}: still ${r.status} after ${timeoutMs} ms: ${r.text}`);
      await sleep(50);
    }
  }

  // GET /api/matches/{id}/replay page by page (PROTOCOL.md: `next` until null), each page validated;
  // the first page's head with every step in `steps`, and `pages` the number of requests.
  async replay(id, { limit } = {}) {
    let from = 0;
    let whole = null;
    for (let pages = 1; ; pages++) {
      const q = new URLSearchParams({ from: String(from) });
      if (limit) q.set('limit', String(limit));
      const page = await this.getJson(`/api/matches/${encodeURIComponent(id)}/replay?${q}`);
      assert.equal(page.from, from);
      if (!whole) whole = { ...page, steps: [] };
      assert.equal(page.total, whole.total, 'total is the same on every page');
      whole.steps.push(...page.steps);
      if (page.next === null) {
        assert.equal(whole.steps.length, whole.total, 'the pages hold `total` steps');
        return { ...whole, next: null, pages };
      }
      assert.equal(page.next, from + page.steps.length, 'next follows the page');
      from = page.next;
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
// it sent validated. The first failure wins; later ones, and the server's stderr, are attached to
// its message. Takes (opts, fn), (fn) or (fn, opts).
export async function withServer(a, b) {
  const [opts, fn] = typeof a === 'function' ? [b || {}, a] : [a || {}, b];
  const srv = await Server.start(opts);
  let failure = null;
  const also = (e) => {
    if (!failure) failure = e;
    else failure.message += `\n(also: ${e.message})`;
  };
  try {
    await fn(srv);
  } catch (e) {
    also(e);
  }
  try { await srv.stop(); } catch (e) { also(e); }
  try { srv.assertValid(); } catch (e) { also(e); }
  if (failure) {
    if (srv.stderr && !failure.message.includes('stderr:'))
      failure.message += `\nserver stderr (tail):\n${srv.stderr.slice(-3000)}`;
    throw failure;
  }
}

export { assert };
