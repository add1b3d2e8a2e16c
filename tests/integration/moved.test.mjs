// Two nodes of a cluster, reached directly (no proxy: deploy's cluster tests go through HAProxy), on one
// PostgreSQL (tests/lib/with-pg.sh) and one Redis (tests/lib/with-redis.sh, which also stops and starts
// it): docs/SCALING.md "The directory and the lobby" and "Routing", PROTOCOL.md "Several nodes".
// - a room on node a, asked about on node b by a player whose token was made on a: `moved` to a for every
//   room-addressed message (id echoed, schema-valid), and the room is played on a after hello there;
// - the merged lobby: b's `rooms` and GET /api/rooms list a's rooms, newest first, total of both, and a
//   subscriber on b is pushed a's new room;
// - Redis stopped: play goes on, /readyz stays 200 and says so, b's lobby is stale; Redis back (empty):
//   a's room made meanwhile reaches b's lobby and directory;
// - welcome.elsewhere: a player's seats in a's live rooms, said by b (hello with a token b does not hold,
//   one it holds, sign_in), not those of b's own rooms; none once the room is over;
// - Redis' password (with-redis.sh sets one; the nodes get it in QUINTETO_REDIS_PASSWORD): a node with a
//   wrong one, one with none, and one with a password against a Redis that has none are not ready
//   (/readyz 503 redis_refused, saying why), log the refusal once without the password, never register,
//   while a and b beside them work;
// - node a stopped: its room is `unavailable` on b (nobody adopts it in this test), still in elsewhere.
import test from 'node:test';
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Server, assert, createRoom, freePort, joinRoom, until } from './lib.mjs';

const conninfo = process.env.QUINTETO_TEST_PG;
const redis = process.env.QUINTETO_TEST_REDIS;
const redisCtl = process.env.QUINTETO_TEST_REDIS_CTL;
const redisPassword = process.env.QUINTETO_TEST_REDIS_PASSWORD;
const node = (name, r = redis) => ['--store', 'postgres', '--postgres', conninfo, '--node', name, '--redis', r,
  '--node-lease-ms', '1500', '--pwhash-mem-kib', '19456'];
const ctl = (what) => execFileSync('/bin/sh', ['-c', `${redisCtl} ${what}`], { stdio: 'inherit' });
// A node of the test's Redis, with its password in the environment as a host gives it.
const startNode = (name, password = redisPassword, r = redis) =>
  Server.start({ args: node(name, r), env: password ? { QUINTETO_REDIS_PASSWORD: password } : {} });
// redis-cli as the default user; its output's lines.
const cli = (...args) => execFileSync('redis-cli', ['-h', redis.split(':')[0], '-p', redis.split(':')[1], ...args],
  { encoding: 'utf8', env: { ...process.env, REDISCLI_AUTH: redisPassword } }).trim().split('\n');
const LIB = path.join(process.env.QUINTETO_SOURCE, 'deploy', 'cluster', 'lib.sh');
const lib = (fn, env, ...args) => execFileSync('bash', ['-c', `. "$0" && ${fn} "$@"`, LIB, ...args],
  { encoding: 'utf8', env: { ...process.env, ...env } });

async function lobbyIds(srv) {
  const body = await srv.getJson('/api/rooms');
  return { ids: body.rooms.map((r) => r.id), total: body.total, rooms: body.rooms };
}

test('two nodes: moved, the merged lobby, Redis away and back, a stopped node', { timeout: 120000 }, async (t) => {
  assert.ok(conninfo && redis && redisCtl && redisPassword, 'run through tests/lib/with-pg.sh and tests/lib/with-redis.sh');
  const a = await startNode('a');
  const b = await startNode('b');
  try {
    const ana = await a.player('Ana');
    const room = (await createRoom(ana, 'ur')).id;
    await joinRoom(ana, room, { seat: 0 });
    let bRoom; // Bea's, on b (the merged lobby)

    await t.test('a room of node a, asked on node b: moved, with the id; a token made on a works on b', async () => {
      const onB = await b.player('Ana', { token: ana.welcome.token });
      assert.equal(onB.welcome.player, ana.welcome.player, 'the same player on both nodes');
      await until(async () => (await onB.request({ type: 'watch', room })).type === 'moved',
        { timeoutMs: 5000, what: "b's directory to know the room" });
      for (const msg of [{ type: 'watch', room }, { type: 'join', room, seat: 1 }, { type: 'leave', room },
        { type: 'add_bot', room, seat: 1 }, { type: 'act', room, ply: 0, action: {} },
        { type: 'resign', room }, { type: 'chat', room, text: 'hi' }, { type: 'mute', room, seat: 0, muted: true },
        { type: 'rematch', room }]) {
        const r = await onB.request({ ...msg, id: `q-${msg.type}` });
        assert.deepEqual(r, { type: 'moved', id: `q-${msg.type}`, room, node: 'a' }, msg.type);
      }
      const none = await onB.request({ type: 'watch', room: 'nosuchroom' });
      assert.equal(none.code, 'unknown_room');
      // followed: a connection to node a, hello with the token, and the same message works there
      const back = await a.player('Ana', { token: ana.welcome.token });
      const w = await back.request({ type: 'watch', room });
      assert.equal(w.type, 'watching');
      // a single server never says moved: a's own room on a is the room itself
      assert.notEqual((await ana.request({ type: 'watch', room })).type, 'moved');
    });

    await t.test("the merged lobby: b lists a's rooms, pushes a new one, totals both", async () => {
      const bea = await b.player('Bea');
      const mine = bRoom = (await createRoom(bea, 'ur')).id;
      await until(async () => (await lobbyIds(b)).ids.includes(room), { timeoutMs: 5000, what: "a's room in b's lobby" });
      await until(async () => (await lobbyIds(a)).ids.includes(mine), { timeoutMs: 5000, what: "b's room in a's lobby" });
      const sub = await bea.request({ type: 'rooms' });
      assert.ok(sub.rooms.some((r) => r.id === room) && sub.rooms.some((r) => r.id === mine));
      const fresh = (await createRoom(ana, 'ur')).id;
      const pushed = await bea.next((m) => m.type === 'rooms' && m.id === undefined && m.rooms.some((r) => r.id === fresh),
        5000, "a push of b's lobby with a's new room");
      assert.equal(pushed.rooms[0].id, fresh, 'newest first');
      assert.equal(pushed.total, 3);
      const l = await lobbyIds(b);
      const at = l.rooms.map((r) => r.created_at);
      assert.deepEqual(at, [...at].sort((x, y) => y - x), 'newest first');
      assert.equal(l.total, 3);
      // its node's metrics and readiness
      const m = await b.metrics();
      assert.equal(m.quinteto_redis_up, 1);
      assert.equal(m.quinteto_cluster_nodes_alive, 2);
      assert.ok(m.quinteto_cluster_directory_rooms >= 3);
      assert.ok(m.quinteto_redis_publications_total >= 1);
      const ready = await b.getJson('/readyz');
      assert.equal(ready.status, 'ok');
      assert.equal(ready.cluster.node, 'b');
      assert.equal(ready.cluster.redis, 'up');
    });

    await t.test("welcome.elsewhere: a player's seats on a, said on b (a token not in memory, in memory, " +
      'a sign-in), not its seats on b; gone once the room is over', async () => {
      const gus = await a.player('Gus');
      const onA = (await createRoom(gus, 'ur')).id;
      const { joined } = await joinRoom(gus, onA, { seat: 0 });
      const seat = { room: onA, seat: 0, role: joined.role, node: 'a' };
      assert.equal(gus.welcome.elsewhere?.length, 0, 'a node says it, empty when there are none');
      // its token is not in memory on b: read with its identity
      const first = await b.player('Gus', { token: gus.welcome.token });
      assert.deepEqual(first.welcome.elsewhere, [seat]);
      assert.deepEqual(first.welcome.rooms, []);
      // a seat on b (in Bea's room): in rooms and seats there, and in a's elsewhere, never in b's
      const onB = bRoom;
      const { joined: joinedB } = await joinRoom(first, onB, { seat: 1 });
      const again = await b.player('Gus', { token: gus.welcome.token }); // in memory on b now
      assert.deepEqual(again.welcome.rooms, [onB]);
      assert.deepEqual(again.welcome.elsewhere, [seat]);
      await until(async () => {
        const w = (await a.player('Gus', { token: gus.welcome.token })).welcome;
        return w.elsewhere.length === 1 && w.elsewhere[0].room === onB;
      }, { timeoutMs: 5000, what: "a's welcome to name b's room" });
      const back = await a.player('Gus', { token: gus.welcome.token });
      assert.deepEqual(back.welcome.elsewhere, [{ room: onB, seat: 1, role: joinedB.role, node: 'b' }]);
      // an account signed in on b, from a new connection
      const handle = `gus_${Math.random().toString(36).slice(2, 7)}`;
      const claimed = await gus.request({ type: 'claim', handle, password: 'correct horse' }, 30000);
      assert.equal(claimed.type, 'account', JSON.stringify(claimed));
      const device = await b.player('Someone');
      const signed = await device.request({ type: 'sign_in', handle, password: 'correct horse' }, 30000);
      assert.equal(signed.type, 'welcome', JSON.stringify(signed));
      assert.deepEqual(signed.elsewhere, [seat]);
      assert.deepEqual(signed.rooms, [onB]);
      // the room on a is over (a bot joins, Gus resigns): its seat is no longer listed
      assert.equal((await gus.request({ type: 'add_bot', room: onA, seat: 1 })).type, 'bot_added');
      await gus.nextState(onA, (st) => st.status === 'playing', 10000);
      assert.equal((await gus.request({ type: 'resign', room: onA })).type, 'resigned');
      await until(async () => (await b.player('Gus', { token: gus.welcome.token })).welcome.elsewhere.length === 0,
        { timeoutMs: 10000, what: "b's welcome to leave out the finished room" });
    });

    await t.test('credentials Redis refuses: the node is not ready, says why once, never registers; a and b work', async () => {
      const secret = `wrong-${Math.random().toString(36).slice(2)}-secret`;
      const dir = await mkdtemp(path.join(tmpdir(), 'quinteto-nopass-'));
      const openPort = await freePort();
      lib('redis_up', { REDIS_AUTH: 'none' }, dir, String(openPort)); // a Redis without a password
      cli('ACL', 'LOG', 'RESET');
      const cases = [
        { name: 'wrong', password: secret, says: /WRONGPASS.*redis_password is not the password/ },
        { name: 'none', password: '', says: /NOAUTH.*Redis wants a password: set redis_password/ },
        { name: 'open', password: secret, r: `127.0.0.1:${openPort}`, says: /without any password configured.*has none/ },
      ];
      const started = [];
      try {
        for (const k of cases) started.push(k.srv = await startNode(k.name, k.password, k.r));
        for (const k of cases) {
          await until(async () => (await k.srv.http('/readyz')).status === 503, { timeoutMs: 8000, what: `${k.name} unready` });
          const r = await k.srv.http('/readyz');
          assert.equal(r.json.status, 'unavailable');
          assert.deepEqual(r.json.reasons.map((x) => x.code), ['redis_refused']);
          assert.match(r.json.reasons[0].message, k.says);
          assert.equal(r.json.cluster.redis, 'down');
          assert.ok(!r.text.includes(secret), `${k.name}: /readyz never shows the password`);
        }
        // the wrong password tried again and again (Redis' ACL LOG counts the failed AUTHs): one log line
        await until(() => {
          const lines = cli('ACL', 'LOG');
          return lines.reduce((n, l, i) => (l === 'count' ? n + Number(lines[i + 1]) : n), 0) >= 3;
        }, { timeoutMs: 15000, what: 'three refused AUTHs' });
        for (const k of cases) {
          const log = k.srv.log();
          assert.ok(!log.includes(secret), `${k.name}: the log never shows the password`);
          const lines = log.split('\n').filter((l) => /refused node/.test(l));
          assert.equal(lines.length, 1, `${k.name}: the refusal logged once:\n${log}`);
          assert.match(lines[0], k.password ? /with redis_password/ : /no redis_password/);
          assert.match(lines[0], k.says);
        }
        // never registered, never in the others' view; a and b beside them are up and ready
        for (const name of ['wrong', 'none'])
          assert.deepEqual([cli('EXISTS', `quinteto:node:${name}`)[0], cli('SISMEMBER', 'quinteto:nodes', name)[0]], ['0', '0']);
        assert.equal((await b.metrics()).quinteto_cluster_nodes_alive, 2);
        for (const srv of [a, b]) assert.equal((await srv.getJson('/readyz')).cluster.redis, 'up');
        const onB = await b.player('Fay');
        assert.equal((await onB.request({ type: 'watch', room })).type, 'moved');
      } finally {
        for (const srv of started) await srv.stop(); // a refused node stops cleanly (status 0)
        lib('redis_stop', {}, dir);
        await rm(dir, { recursive: true, force: true });
      }
      for (const srv of started) srv.assertValid();
    });

    await t.test('Redis stopped: play goes on, ready but saying so, the lobby stale; back: it heals', async () => {
      let during;
      ctl('stop');
      try {
        await until(async () => (await a.getJson('/readyz')).cluster.redis === 'down', { timeoutMs: 5000, what: 'a to see Redis gone' });
        const ready = await b.getJson('/readyz'); // 200: getJson checks the status
        assert.equal(ready.status, 'ok');
        assert.equal((await a.getJson('/readyz')).status, 'ok');
        // play goes on: a bot joins Ana's room on a and the match starts
        assert.equal((await ana.request({ type: 'add_bot', room, seat: 1 })).type, 'bot_added');
        await ana.nextState(room, (s) => s.status === 'playing', 10000);
        // b's mirror answers, stale: still moved, a's room still listed
        const onB = await b.player('Cid');
        assert.equal((await onB.request({ type: 'watch', room })).type, 'moved');
        assert.ok((await lobbyIds(b)).ids.includes(room));
        during = (await createRoom(ana, 'ur')).id;
      } finally {
        ctl('start');
      }
      await until(async () => (await b.getJson('/readyz')).cluster.redis === 'up', { timeoutMs: 8000, what: 'b back on Redis' });
      await until(async () => (await lobbyIds(b)).ids.includes(during), { timeoutMs: 8000, what: "a's room made meanwhile in b's lobby" });
      const onB = await b.player('Dee');
      assert.equal((await onB.request({ type: 'watch', room: during })).type, 'moved');
      const m = await b.metrics();
      assert.ok(m.quinteto_redis_reconnects_total >= 1);
    });

    await t.test("node a stopped: its room is unavailable on b, and its rooms leave b's lobby", async () => {
      await a.stop();
      const onB = await b.player('Eve');
      await until(async () => {
        const r = await onB.request({ type: 'watch', room });
        return r.type === 'error' && r.code === 'unavailable';
      }, { timeoutMs: 5000, what: "b to see a's registration gone" });
      await until(async () => !(await lobbyIds(b)).ids.includes(room), { timeoutMs: 5000, what: "a's rooms out of b's lobby" });
      // its seats are still named, with node a: the room is answered unavailable there until it is adopted
      const ana2 = await b.player('Ana', { token: ana.welcome.token });
      assert.ok(ana2.welcome.elsewhere.some((x) => x.room === room && x.node === 'a'), JSON.stringify(ana2.welcome));
      assert.equal((await lobbyIds(b)).total, 1);
    });
  } finally {
    await a.stop();
    await b.stop();
  }
  a.assertValid();
  b.assertValid();
});
