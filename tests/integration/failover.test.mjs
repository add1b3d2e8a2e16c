// A node dies, its rooms live on (docs/SCALING.md, "Node leases and the fence"): three nodes share
// one PostgreSQL (tests/lib/with-pg.sh gives it in QUINTETO_TEST_PG) and one Redis (started here by
// deploy/cluster/lib.sh), no HAProxy: each client talks to a node's own port.
// 1. A match on node fa; SIGKILL fa; exactly one of fb and fc (W) adopts its room within 10 s, and the
//    directory says so (the other node answers `moved` to W); the players say hello to W with their
//    tokens, find their seats at the very ply they last saw, play to the end, and the archive holds the
//    match once.
// 2. The other node (O) frozen (SIGSTOP) past its lease while a move is on its way to it; W adopts it;
//    SIGCONT: O exits with status 3 (fenced), the move it read is never written nor shown, and its
//    room resumes on W at the ply the players saw.
import test from 'node:test';
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Server, assert, autoplay, createRoom, freePort, joinRoom, sleep, until, within } from './lib.mjs';

const PG = process.env.QUINTETO_TEST_PG;
const LIB = path.join(process.env.QUINTETO_SOURCE, 'deploy', 'cluster', 'lib.sh');
const LEASE_MS = 1000; // adoption at most 7/3 of it after a death (docs/SCALING.md)

const psql = (q) => execFileSync('psql', [PG, '-XAtqc', q], { encoding: 'utf8' }).trim();
const lib = (fn, ...args) => execFileSync('bash', ['-c', `. "$0" && ${fn} "$@"`, LIB, ...args], { encoding: 'utf8' });

// Redis' password (lib.sh's redis_up sets one), given as a host would: in the environment.
const startNode = (name, redisPort, redisPassword) => Server.start({
  env: { QUINTETO_REDIS_PASSWORD: redisPassword },
  args: ['--store', 'postgres', '--postgres', PG, '--node', name, '--redis', `127.0.0.1:${redisPort}`,
    '--node-lease-ms', String(LEASE_MS)],
});

// The highest ply of room `room` in the states client c received.
const lastPly = (c, room) => Math.max(0, ...c.messages.filter((m) => m.type === 'state' && m.room === room).map((m) => m.ply));

// Two players seated in a new Ur room on node srv, a few plies played, then quiet (nothing in flight).
async function matchOn(srv, plies) {
  const a = await srv.player('Ana');
  const b = await srv.player('Bruno');
  const room = (await createRoom(a, 'ur', { autoroll: true })).id;
  await joinRoom(a, room, { seat: 0 });
  await joinRoom(b, room, { seat: 1 });
  const plays = [a, b].map((c) => autoplay(c, room, { since: 0 }));
  await until(() => lastPly(a, room) >= plies, { timeoutMs: 20000, what: `${plies} plies played` });
  for (const p of plays) p.stop();
  // whatever was sent is answered: both clients have seen the same last ply, and it stays
  let seen = -1;
  await until(async () => {
    const now = Math.max(lastPly(a, room), lastPly(b, room));
    const quiet = now === seen && lastPly(a, room) === lastPly(b, room);
    seen = now;
    if (!quiet) await sleep(200);
    return quiet;
  }, { timeoutMs: 10000, what: 'the match quiet' });
  return { a, b, room, ply: seen, tokens: [a.welcome.token, b.welcome.token] };
}

// Until node srv says a player with `token` holds a seat in `room` (the adoption is done).
async function adoptedBy(srv, token, room, timeoutMs) {
  await until(async () => {
    const c = await srv.connect({ label: 'probe' });
    try {
      const w = await c.request({ type: 'hello', name: 'Probe', token });
      return w.type === 'welcome' && w.rooms.includes(room);
    } finally {
      await c.close();
    }
  }, { timeoutMs, interval: 200, what: `room ${room} adopted by ${srv.url}` });
}

// A player back on node srv with its token: the client and the first state of `room` it gets.
async function resume(srv, token, name, room) {
  const c = await srv.connect({ label: `${name} again` });
  const w = await c.request({ type: 'hello', name, token });
  assert.equal(w.type, 'welcome');
  assert.ok(w.rooms.includes(room), `${name} holds a seat in ${room} again: ${JSON.stringify(w.rooms)}`);
  return { c, st: await c.nextState(room, () => true, 10000) };
}

const killed = async (srv, signal) => {
  srv.proc.kill(signal);
  const st = await srv.exited;
  srv.stopped = true;
  return st;
};

test('a node dies: one survivor adopts its room, resumed by token at the same ply, played out, archived once; a frozen node wakes up fenced', { timeout: 120000 }, async () => {
  assert.ok(PG, 'QUINTETO_TEST_PG: run under tests/lib/with-pg.sh');
  const dir = await mkdtemp(path.join(tmpdir(), 'quinteto-failover-'));
  const redisPort = await freePort();
  lib('redis_up', dir, String(redisPort));
  const redisPassword = lib('redis_password', dir).trim();
  const nodes = {};
  try {
    for (const name of ['fa', 'fb', 'fc']) nodes[name] = await startNode(name, redisPort, redisPassword);
    const m = await matchOn(nodes.fa, 6);
    assert.equal(psql(`SELECT node FROM live_rooms WHERE id = '${m.room}'`), 'fa');

    // 1. SIGKILL fa: one of fb and fc adopts the room within 10 s (a lease of 1 s: at most about 2.3 s
    //    plus the restore)
    assert.equal((await killed(nodes.fa, 'SIGKILL')).signal, 'SIGKILL');
    await until(() => ['fb', 'fc'].includes(psql(`SELECT coalesce(node, '') FROM live_rooms WHERE id = '${m.room}'`)),
      { timeoutMs: 10000, interval: 100, what: 'the room of fa moved to a survivor' });
    const w = psql(`SELECT node FROM live_rooms WHERE id = '${m.room}'`);
    const o = w === 'fb' ? 'fc' : 'fb';
    const W = nodes[w], O = nodes[o];
    await adoptedBy(W, m.tokens[0], m.room, 10000);
    assert.equal(psql("SELECT adopted_by FROM node_leases WHERE node = 'fa'"), w);
    assert.match(W.stderr, /adopt: 1 room\(s\) of node fa resumed here/);
    assert.doesNotMatch(O.stderr, /adopted dead node fa/, 'one adopter of two');
    // the directory: the other node sends the room's players to W
    const probe = await O.player('Probe');
    await until(async () => {
      const r = await probe.request({ type: 'watch', room: m.room });
      return r.type === 'moved' && r.node === w;
    }, { timeoutMs: 10000, interval: 200, what: `${o} answers moved to ${w}` });
    await probe.close();
    const back = [await resume(W, m.tokens[0], 'Ana', m.room), await resume(W, m.tokens[1], 'Bruno', m.room)];
    for (const { st } of back) assert.equal(st.ply, m.ply, 'resumed at the ply the players last saw');
    const plays = back.map(({ c }) => autoplay(c, m.room, { since: 0 }));
    const ends = await within(Promise.all(plays.map((p) => p.done)), 60000);
    assert.ok(ends, `the match was played to its end on ${w}`);
    assert.equal(ends[0].status, 'finished');
    await until(() => psql(`SELECT count(*) FROM matches WHERE id = '${m.room}'`) === '1',
      { timeoutMs: 10000, what: 'the match archived' });
    assert.equal(psql(`SELECT count(*) FROM live_rooms WHERE id = '${m.room}'`), '0');
    assert.equal(Number(psql(`SELECT count(*) FROM match_actions a JOIN matches x ON x.seq = a.match_seq
      WHERE x.id = '${m.room}'`)), ends[0].ply, 'the archive holds every ply once');

    // 2. SIGSTOP O past its lease with a move on its way; W adopts it; SIGCONT: fenced, the move never written
    const f = await matchOn(O, 4);
    // and a finished room that lingers on O (its rematch offer may still come): it moves too
    const g = (await createRoom(f.a, 'ur', { autoroll: true })).id;
    await joinRoom(f.a, g, { seat: 0 });
    await joinRoom(f.b, g, { seat: 1 });
    assert.equal((await f.a.request({ type: 'resign', room: g })).type, 'resigned');
    await f.b.nextState(g, (x) => x.status === 'finished');
    f.a.send({ type: 'rematch', room: g });
    await f.b.nextState(g, (x) => x.rematch?.status === 'offered');
    await until(() => psql(`SELECT count(*) FROM matches WHERE id = '${g}'`) === '1', { what: 'the resigned match archived' });
    assert.equal(psql(`SELECT node FROM live_after WHERE room_id = '${g}'`), o);
    const plyRows = () => psql(`SELECT count(*) FROM live_actions WHERE room_id = '${f.room}'`);
    assert.equal(Number(plyRows()), f.ply);
    const turn = [f.a, f.b].find((c) => c.messages.filter((x) => x.type === 'state' && x.room === f.room).at(-1).legal.length);
    const last = turn.messages.filter((x) => x.type === 'state' && x.room === f.room).at(-1);
    O.proc.kill('SIGSTOP');
    await turn.send({ type: 'act', room: f.room, ply: last.ply, action: last.legal[0], id: 999 });
    await until(() => psql(`SELECT coalesce(adopted_by, '') FROM node_leases WHERE node = '${o}'`) === w,
      { timeoutMs: 15000, interval: 200, what: `${o} adopted by ${w}` });
    await adoptedBy(W, f.tokens[0], f.room, 10000);
    O.proc.kill('SIGCONT');
    const st = await within(O.exited, 10000);
    O.stopped = true;
    assert.ok(st, `${o} exited after SIGCONT`);
    assert.equal(st.code, 3, `${o} exits fenced (status 3)\n${O.stderr}`);
    assert.match(O.stderr, /stopping at once, writing nothing more/);
    assert.equal(Number(plyRows()), f.ply, `${o} wrote nothing after the adoption`);
    assert.equal(lastPly(turn, f.room), f.ply, `the move ${o} read was never shown`);
    const again = await resume(W, f.tokens[0], 'Ana', f.room);
    assert.equal(again.st.ply, f.ply, `resumed on ${w} at the ply the players saw`);
    assert.equal(psql(`SELECT node FROM live_after WHERE room_id = '${g}'`), w);
    const seen = await again.c.request({ type: 'watch', room: g });
    assert.equal(seen.type, 'watching', `the finished room lingers on ${w}: ${JSON.stringify(seen)}`);
    const gst = await again.c.nextState(g);
    assert.equal(gst.status, 'finished');
    assert.equal(gst.rematch?.status, 'offered', 'with its rematch offer');

    await W.stop();
    W.assertValid();
  } finally {
    for (const n of Object.values(nodes)) if (!n.stopped) { n.proc.kill('SIGKILL'); await n.exited; n.stopped = true; }
    lib('redis_stop', dir);
    await rm(dir, { recursive: true, force: true });
  }
});
