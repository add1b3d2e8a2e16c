// cluster.mjs: the cluster tests' harness (docs/SCALING.md): a real cluster started by
// deploy/cluster/dev-cluster.sh (PostgreSQL, Redis, N nodes of $QUINTETO_SERVER, HAProxy in front), and a
// player that finds its rooms across the nodes the way a client must (PROTOCOL.md: `moved`, `unavailable`,
// reconnect and resume by token).
//
// A Cluster is a Server (server.mjs) whose address is HAProxy's: connect(), player(), http() and the
// schema checks of every frame work on it as on a single server. on(NAME) is the same cluster seen through
// `/ws?node=NAME` (HAProxy routes to that node while it is up), direct(NAME) the node's own port, without
// HAProxy. stop() runs `dev-cluster.sh down` and then requires, as Server.stop() does of one server, that
// every node it did not kill on purpose exited with status 0 and that no node's log holds a sanitizer report.

import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import assert from 'node:assert/strict';

import { Server, SOURCE, sanitizerReport } from './server.mjs';
import { sleep, pick } from './util.mjs';

export const SCRIPT = path.join(SOURCE || '.', 'deploy', 'cluster', 'dev-cluster.sh');

// The nodes' settings in the tests: a short lease (adoption within a few seconds), no rate limit (the
// players act as fast as the states come), bots that answer at once.
export const TEST_NODE_ARGS = ['--node-lease-ms', '1500', '--rate', '1000000', '--burst', '1000000',
  '--bot-delay-ms', '2', '--bot-move-ms', '20'];

// Runs dev-cluster.sh with args; resolves {code, stdout, stderr}.
export function script(args, { timeoutMs = 120000 } = {}) {
  return new Promise((resolve) => {
    execFile('bash', [SCRIPT, ...args], { timeout: timeoutMs, maxBuffer: 1 << 24 }, (err, stdout, stderr) =>
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stdout, stderr }));
  });
}

async function must(args, opts) {
  const r = await script(args, opts);
  assert.equal(r.code, 0, `dev-cluster.sh ${args.join(' ')}: status ${r.code}\n${r.stderr}${r.stdout}`);
  return r;
}

// A view of the cluster at another address: frames it receives are checked into the cluster's record.
class View extends Server {
  constructor(cluster, url, wsUrl) {
    super();
    this.cluster = cluster;
    this.url = url;
    this.wsUrl = wsUrl;
    this.invalid = cluster.invalid;
    this.clients = cluster.clients;
  }
}

export class Cluster extends Server {
  // Starts n nodes (n1 .. nN) with TEST_NODE_ARGS and `args`.
  static async up(n = 3, { args = [] } = {}) {
    const cl = new Cluster();
    cl.dir = await mkdtemp(path.join(tmpdir(), 'quinteto-cluster-'));
    cl.killed = new Set(); // nodes that are to die or exit by the test's doing: no exit status required
    const r = await script(['up', String(n), cl.dir, '--', ...TEST_NODE_ARGS, ...args], { timeoutMs: 180000 });
    if (r.code !== 0) {
      await script(['down', cl.dir]);
      const logs = await cl.logs();
      await rm(cl.dir, { recursive: true, force: true });
      assert.fail(`dev-cluster.sh up ${n}: status ${r.code}\n${r.stderr}${r.stdout}\n${logs.slice(-6000)}`);
    }
    const m = /^URL=(http:\/\/127\.0\.0\.1:\d+)$/m.exec(r.stdout);
    assert.ok(m, `up printed no URL= line: ${r.stdout}`);
    cl.url = m[1];
    cl.wsUrl = `${cl.url.replace(/^http/, 'ws')}/ws`;
    cl.names = (await cl.nodes()).map((x) => x.name);
    return cl;
  }

  // DIR/nodes: [{name, pid, port}].
  async nodes() {
    const text = await readFile(path.join(this.dir, 'nodes'), 'utf8');
    return text.trim().split('\n').map((l) => {
      const [name, pid, port] = l.trim().split(/\s+/);
      return { name, pid: Number(pid), port: Number(port) };
    });
  }

  // The cluster through HAProxy with `/ws?node=NAME`.
  on(name) { return new View(this, this.url, `${this.wsUrl}?node=${encodeURIComponent(name)}`); }

  // Node NAME at its own port (not through HAProxy).
  async direct(name) {
    const node = (await this.nodes()).find((x) => x.name === name);
    assert.ok(node, `no node ${name}`);
    return new View(this, `http://127.0.0.1:${node.port}`, `ws://127.0.0.1:${node.port}/ws`);
  }

  async log(name) { return readFile(path.join(this.dir, `${name}.log`), 'utf8').catch(() => ''); }
  async exitStatus(name) {
    const t = await readFile(path.join(this.dir, `${name}.exit`), 'utf8').catch(() => null);
    return t === null ? null : Number(t.trim());
  }
  async logs() {
    let out = '';
    for (const f of ['n1', 'n2', 'n3', 'n4', 'n5'])
      try { out += `--- ${f}.log (tail)\n${(await readFile(path.join(this.dir, `${f}.log`), 'utf8')).slice(-2500)}\n`; } catch { /* none */ }
    return out;
  }

  // Steps of the script (see its header).
  async kill(name, signal = 'KILL') {
    if (signal === 'KILL' || signal === 'STOP') this.killed.add(name);
    await must(['kill', this.dir, name, signal]);
  }
  async start(name) { this.killed.delete(name); await must(['start', this.dir, name], { timeoutMs: 120000 }); }
  stopRedis() { return must(['stop-redis', this.dir]); }
  startRedis() { return must(['start-redis', this.dir]); }
  stopPg() { return must(['stop-pg', this.dir]); }
  startPg() { return must(['start-pg', this.dir]); }
  restartHaproxy() { return must(['restart-haproxy', this.dir]); }

  // Whether node NAME's process is alive (it may be frozen).
  async alive(name) {
    const node = (await this.nodes()).find((x) => x.name === name);
    try { process.kill(node.pid, 0); } catch { return false; }
    return (await this.exitStatus(name)) === null;
  }

  // Which node hosts room `id`: asked of n1 directly; it answers `watching` (its own) or `moved` naming the
  // host. Retries `unavailable` (a dead node's rooms before their adoption) for up to timeoutMs.
  async locate(id, { via = this.names[0], timeoutMs = 15000 } = {}) {
    const end = Date.now() + timeoutMs;
    for (;;) {
      const c = await (await this.direct(via)).connect({ label: `locate ${id}` });
      try {
        await c.request({ type: 'hello', name: 'Locator' });
        const r = await c.request({ type: 'watch', room: id });
        if (r.type === 'watching') return via;
        if (r.type === 'moved') { assert.equal(r.room, id); return r.node; }
        if (!(r.type === 'error' && r.code === 'unavailable') || Date.now() > end)
          assert.fail(`watch ${id} on ${via}: ${JSON.stringify(r)}`);
      } finally {
        c.terminate();
      }
      await sleep(200);
    }
  }

  // down; every node not killed on purpose must have exited 0; no sanitizer report in any log.
  async stop() {
    if (this.stopped) return this.status;
    this.stopped = true;
    for (const c of this.clients) c.terminate();
    const r = await script(['down', this.dir]);
    const problems = [];
    if (r.code !== 0) problems.push(`down: status ${r.code}: ${r.stderr}`);
    for (const name of this.names || []) {
      const log = await this.log(name);
      const report = sanitizerReport(log);
      if (report) problems.push(`${name}: sanitizer report: ${report}`);
      if (this.killed.has(name)) continue;
      const st = await this.exitStatus(name);
      if (st !== 0) problems.push(`${name}: exit status ${st} (expected 0)\n${log.slice(-3000)}`);
    }
    if (!process.env.QUINTETO_TEST_KEEP_CLUSTER) await rm(this.dir, { recursive: true, force: true });
    assert.deepEqual(problems, [], 'the cluster stopped cleanly');
    return { code: 0, signal: null };
  }
}

// Runs fn(cluster) with a fresh cluster of n nodes; stops it and asserts every frame validated. The first
// failure wins, the nodes' logs are attached to it.
export async function withCluster(n, opts, fn) {
  const cl = await Cluster.up(n, opts);
  let failure = null;
  const also = (e) => {
    if (!failure) failure = e;
    else failure.message += `\n(also: ${e.message})`;
  };
  try { await fn(cl); } catch (e) { also(e); }
  const logs = failure ? await cl.logs() : '';
  try { await cl.stop(); } catch (e) { also(e); }
  try { cl.assertValid(); } catch (e) { also(e); }
  if (failure) {
    failure.message += `\nnodes' logs:\n${logs}`;
    throw failure;
  }
}

// ---------------------------------------------------------------------------------------------
// A player of the cluster

let nextId = 1;

// A name nobody else in the run has (the archive's list is searched by name): 'Ana' becomes 'Ana-k3x9q'.
export const uniqueName = (base) => `${base}-${Math.random().toString(36).slice(2, 7)}`;

// A person who plays through HAProxy and finds its room wherever it is: `moved` sends it to
// `/ws?node=NODE`, a closed connection (its node died, HAProxy restarted) makes it reconnect and say
// `hello` with its token and `since`, `unavailable` makes it retry. Every state it receives is recorded
// (`seen`: "room/ply" -> the action of that ply), so a test can check that nothing seen was lost.
export class Player {
  constructor(cluster, name, { seen = new Map(), log = [] } = {}) {
    this.cluster = cluster;
    this.name = name;
    this.token = null;
    this.player = null;
    this.node = null;     // the node the room was last found on (null: any)
    this.c = null;
    this.clients = [];    // every connection it had, for the record
    this.seen = seen;     // shared between the players of a test
    this.log = log;
    this.reconnects = 0;
    this.moves = [];      // every `moved` it followed
    this.unavailable = 0; // `unavailable` answers it got
  }

  // Connects (through HAProxy, to `this.node` if known) and says hello with its token; retries what a
  // cluster in trouble answers (refused upgrade, closed socket, unavailable) until deadline.
  async connect({ since, deadline = Date.now() + 30000 } = {}) {
    for (;;) {
      try {
        const view = this.node ? this.cluster.on(this.node) : this.cluster;
        const c = await view.connect({ label: `${this.name}@${this.node || 'any'}` });
        const hello = { type: 'hello', name: this.name, ...(this.token ? { token: this.token } : {}) };
        if (since) hello.since = since;
        const w = await c.request(hello, 10000);
        if (w.type === 'welcome') {
          this.token = w.token;
          this.player = w.player;
          this.c = c;
          this.clients.push(c);
          return w;
        }
        if (w.type === 'error' && w.code === 'unavailable') this.unavailable++;
        else assert.fail(`${this.name}: hello answered ${JSON.stringify(w)}`);
        c.terminate();
      } catch (e) {
        if (e.code === 'ERR_ASSERTION' || Date.now() > deadline) throw e;
      }
      await sleep(200);
    }
  }

  // Sends msg (a new id each try) and returns the reply, following `moved` (reconnecting there) and
  // retrying `unavailable` and closed connections until deadline.
  async request(msg, { deadline = Date.now() + 30000 } = {}) {
    for (;;) {
      if (!this.c || !this.c.isOpen) await this.connect({ deadline });
      let r;
      try {
        r = await this.c.request({ ...msg, id: `p${nextId++}` }, 10000);
      } catch (e) {
        if (Date.now() > deadline) throw e;
        this.c.terminate();
        await sleep(200);
        continue;
      }
      if (r.type === 'moved') {
        assert.equal(r.room, msg.room, `moved names the room asked about: ${JSON.stringify(r)}`);
        this.moves.push(r);
        this.node = r.node;
        this.c.terminate();
        await this.connect({ deadline });
        continue;
      }
      if (r.type === 'error' && r.code === 'unavailable' && Date.now() < deadline) {
        this.unavailable++;
        await sleep(250);
        continue;
      }
      return r;
    }
  }

  // The states received for room, over every connection, in order.
  states(room) {
    return this.clients.flatMap((c) => c.messages.filter((m) => m.type === 'state' && m.room === room));
  }
  lastState(room) {
    const c = this.c;
    if (!c) return null;
    for (let i = c.messages.length - 1; i >= 0; i--)
      if (c.messages[i].type === 'state' && c.messages[i].room === room) return c.messages[i];
    return null;
  }
  lastPly(room) {
    let ply = -1;
    for (const s of this.states(room)) ply = Math.max(ply, s.ply);
    return ply;
  }

  // Records what this player saw of room into this.seen; two clients that saw different actions for one
  // ply fail the test.
  record(room) {
    for (const st of this.states(room)) {
      if (!st.last || st.ply < 1) continue;
      const key = `${room}/${st.ply - 1}`;
      if (this.seen.has(key))
        assert.ok(isDeepStrictEqual(this.seen.get(key), st.last.action),
          `${key}: seen as ${JSON.stringify(this.seen.get(key))} and as ${JSON.stringify(st.last.action)}`);
      else this.seen.set(key, st.last.action);
    }
  }

  // Joins seat of room (following `moved`); the state after `joined` is awaited.
  async join(room, seat, extra = {}) {
    const r = await this.request({ type: 'join', room, seat, ...extra });
    assert.equal(r.type, 'joined', `${this.name}: join ${room} answered ${JSON.stringify(r)}`);
    await this.c.nextState(room);
    return r;
  }

  // Gets its room back after its connection closed: reconnects (to the room's last node: HAProxy sends it
  // elsewhere when that one is down), hello with token and since; a node that does not host the room is
  // asked to `join` it, which answers `moved` (followed) or `unavailable` (retried: not adopted yet).
  async resume(room, { deadline = Date.now() + 30000 } = {}) {
    for (;;) {
      this.reconnects++;
      const since = { [room]: Math.max(0, this.lastPly(room)) };
      const w = await this.connect({ since, deadline });
      if (w.rooms.includes(room)) {
        const st = await this.c.nextState(room, () => true, 1500).catch(() => null);
        if (st) return st;
      }
      const r = await this.request({ type: 'join', room }, { deadline });
      if (r.type === 'joined' || (r.type === 'error' && r.code === 'already_seated')) {
        const st = this.lastState(room) || await this.c.nextState(room, () => true, 3000).catch(() => null);
        if (st) return st;
      }
      if (Date.now() > deadline) assert.fail(`${this.name}: could not resume ${room}: ${JSON.stringify(r)}`);
      this.c.terminate();
      this.node = null;
      await sleep(300);
    }
  }

  // Plays room until its match is finished: whenever the latest state offers `legal`, sends one (random,
  // or choose(state)); an act answered with an error is sent again on the next tick while its state is
  // still the latest (`unavailable` while the store is away); a closed connection is resumed.
  // Resolves with the final state.
  play(room, { choose = (st) => pick(st.legal), deadline = Date.now() + 120000 } = {}) {
    let stopped = false;
    const run = async () => {
      let sentFor = null; // the state the last act was sent for
      let sentId = null;  // its id: an act has no reply on success, only an error (or `moved`)
      let sentAt = 0;     // the index of the connection's messages where its answer may start
      for (;;) {
        if (stopped) return null;
        if (Date.now() > deadline) assert.fail(`${this.name}: the match in ${room} did not end in time`);
        if (!this.c || !this.c.isOpen) {
          this.record(room);
          await this.resume(room, { deadline });
          sentFor = null;
          continue;
        }
        const c = this.c;
        const st = this.lastState(room);
        if (st && st.status === 'finished') { this.record(room); return st; }
        if (sentFor && st === sentFor) {
          const r = c.messages.slice(sentAt).find((m) => m.id === sentId && (m.type === 'error' || m.type === 'moved'));
          if (r && r.type === 'moved') {
            this.moves.push(r);
            this.node = r.node;
            c.terminate();
            continue;
          }
          if (r) {
            if (r.code === 'unavailable') this.unavailable++;
            this.log.push(`${this.name} act ${room}/${st.ply}: ${r.code}`);
            sentFor = null; // the state is still the latest: send again, after a pause
            await sleep(200);
            continue;
          }
        }
        if (st && st.legal.length && st !== sentFor) {
          sentFor = st;
          sentId = `a${nextId++}`;
          sentAt = c.messages.length;
          c.send({ type: 'act', room, ply: st.ply, action: choose(st), id: sentId }).catch(() => {});
        }
        await sleep(st && st.legal.length ? 3 : 15);
      }
    };
    const done = run();
    done.catch(() => {});
    return { done, stop() { stopped = true; } };
  }

  close() { for (const c of this.clients) c.terminate(); }
}

// Checks a finished room against what its players saw, through HAProxy: the archive is there and is
// listed exactly once (GET /api/matches?player=), every ply a client saw is archived with the same action,
// the result is the one the players were shown, and `quinteto verify` (the rules core) re-derives it.
export async function checkArchived(cluster, room, players, final) {
  const arch = await cluster.archive(room, { timeoutMs: 30000 });
  const seen = new Map();
  for (const p of players) {
    p.record(room);
    for (const [k, v] of p.seen) if (k.startsWith(`${room}/`)) seen.set(Number(k.slice(room.length + 1)), v);
  }
  assert.ok(seen.size > 0, `${room}: plies were seen`);
  for (const [ply, action] of seen)
    assert.ok(arch.actions[ply] && isDeepStrictEqual(arch.actions[ply].action, action),
      `${room}: ply ${ply} was seen as ${JSON.stringify(action)}, archived as ${JSON.stringify(arch.actions[ply])}`);
  assert.equal(arch.actions.length, final.ply, `${room}: every ply archived, no more`);
  assert.deepEqual(arch.result, final.result, `${room}: the archived result is the one shown`);
  for (const p of players) {
    const list = await cluster.getJson(`/api/matches?player=${encodeURIComponent(p.name)}&limit=100`);
    assert.equal(list.matches.filter((m) => m.id === room).length, 1, `${room}: listed once for ${p.name}`);
  }
  const dir = await mkdtemp(path.join(tmpdir(), 'quinteto-verify-'));
  try {
    const file = path.join(dir, `${room}.json`);
    await writeFile(file, JSON.stringify(arch));
    const out = await new Promise((resolve) => execFile(process.env.QUINTETO_CLI, ['verify', file], { timeout: 30000 },
      (err, stdout, stderr) => resolve({ code: err ? err.code : 0, stdout, stderr })));
    assert.ok(out.code === 0 && /^verified/.test(out.stdout), `${room}: quinteto verify: ${out.code} ${out.stdout}${out.stderr}`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return arch;
}
