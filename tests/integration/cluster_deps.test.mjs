// cluster_deps.test.mjs: the cluster's engines fail under live play (docs/SCALING.md): Redis stopped for
// 5 s (rooms in play go on; the lobby heals once it is back), PostgreSQL stopped for 5 s (changes are
// answered `unavailable`, play pauses and resumes by itself when it returns), HAProxy restarted (every
// socket through it closes: the clients reconnect and resume by token). In the end nothing any client saw
// is lost, every match is archived once and verifies. Three pairs of players, one on each node, play one
// match after another throughout. The nodes run with a lease of 4 s, shorter than the PostgreSQL
// outage: a node must not take its peers for dead for an outage they all shared. (A node stops itself
// after three leases without a renewal: with the default 3 s, a PostgreSQL that took over 4 s to start again
// on a loaded machine ended the nodes, which is the lease doing its work, not what this test looks at.)
import test from 'node:test';
import { assert, until, sleep } from './lib.mjs';
import { withCluster, Player, checkArchived, uniqueName } from '../lib/cluster.mjs';

test('Redis stopped 5 s, PostgreSQL stopped 5 s, HAProxy restarted: play goes on or pauses, nothing lost', { timeout: 170000 }, async () => {
  await withCluster(3, { args: ['--node-lease-ms', '4000'] }, async (cl) => {
    const seen = new Map();
    let stopping = false;
    // A pair of players on every node, playing one Ur match after another there until the end of the test.
    const pairs = cl.names.map((node) => {
      const pair = { node, a: new Player(cl, uniqueName('Ana'), { seen }), b: new Player(cl, uniqueName('Bruno'), { seen }), rooms: [] };
      pair.a.node = node;
      pair.b.node = node;
      pair.loop = (async () => {
        while (!stopping) {
          const created = await pair.a.request({ type: 'create', game: 'ur', options: { autoroll: true } });
          assert.equal(created.type, 'created', JSON.stringify(created));
          const room = created.room.id;
          await pair.a.join(room, 0);
          await pair.b.join(room, 1);
          const deadline = Date.now() + 120000;
          const finals = await Promise.all([pair.a.play(room, { deadline }).done, pair.b.play(room, { deadline }).done]);
          pair.rooms.push({ room, final: finals[0] });
        }
      })();
      pair.loop.catch((e) => { pair.error = e; }); // awaited at the end
      return pair;
    });
    const progress = () => {
      for (const p of pairs)
        for (const x of [p.a, p.b]) {
          const rooms = new Set(p.rooms.map((r) => r.room));
          const cur = x.c && x.c.messages.findLast((m) => m.type === 'state');
          if (cur) rooms.add(cur.room);
          for (const room of rooms) x.record(room);
        }
      return seen.size;
    };
    await until(() => progress() >= 30, { timeoutMs: 30000, interval: 50, what: 'play under way' });

    // Redis away: rooms in play go on.
    await cl.stopRedis();
    let before = progress();
    await sleep(2500);
    assert.ok(progress() > before + 5, `plies were played while Redis was away (${progress() - before})`);
    await sleep(2500);
    await cl.startRedis();
    // ... and the lobby heals: a room created on n3 now shows in n1's list.
    const lobbyHost = await (await cl.direct('n3')).player(uniqueName('Lobby'));
    const late = (await lobbyHost.request({ type: 'create', game: 'ur' })).room.id;
    const n1 = await cl.direct('n1');
    await until(async () => (await n1.getJson('/api/rooms')).rooms.some((r) => r.id === late),
      { timeoutMs: 15000, interval: 250, what: 'the lobby healed after Redis came back' });
    lobbyHost.terminate();

    // PostgreSQL away: changes are answered `unavailable` (or wait), nothing is shown that is not saved.
    before = progress();
    const unavailableBefore = pairs.reduce((n, p) => n + p.a.unavailable + p.b.unavailable, 0);
    await cl.stopPg();
    await sleep(1000);
    const during = progress();
    await sleep(4000);
    const unavailable = pairs.reduce((n, p) => n + p.a.unavailable + p.b.unavailable, 0) - unavailableBefore;
    const shownDuring = progress() - during;
    await cl.startPg();
    // A shared outage is no node's death: none may have left (the issue: play resumes when it returns).
    for (const name of cl.names)
      assert.ok(await cl.alive(name), `${name} outlived a 5 s PostgreSQL outage; its log's end:\n${(await cl.log(name)).slice(-600)}`);
    // Every node is ready again (its store writes commit) and play resumes.
    for (const name of cl.names) {
      const node = await cl.direct(name);
      await until(async () => (await node.http('/readyz')).status === 200,
        { timeoutMs: 30000, interval: 250, what: `${name} ready after PostgreSQL came back` });
    }
    const after = progress();
    await until(() => progress() > after + 10, { timeoutMs: 30000, interval: 50, what: 'play resumed after PostgreSQL came back' });
    // While it was away, a ply could be shown only if saved before it left: at most the batches in flight.
    assert.ok(shownDuring <= 6, `${shownDuring} plies shown while PostgreSQL was away`);
    assert.ok(unavailable > 0 || shownDuring === 0, 'play paused or answered unavailable');
    console.log(`# plies: ${before} before PostgreSQL stopped, ${shownDuring} shown while away, ${unavailable} unavailable answers`);

    // HAProxy restarted: every socket through it closes; the players reconnect and resume.
    const sockets = pairs.reduce((n, p) => n + p.a.clients.length + p.b.clients.length, 0);
    await cl.restartHaproxy();
    const atRestart = progress();
    await until(() => progress() > atRestart + 10, { timeoutMs: 30000, interval: 50, what: 'play resumed after HAProxy restarted' });
    // Play going on is one pair's doing; a player of another pair may still be between two tries to
    // reconnect (each waits its hello up to 10 s on a loaded machine), so each is waited for.
    await until(() => pairs.every((p) => p.error || [p.a, p.b].every((x) => x.c && x.c.isOpen)),
      { timeoutMs: 30000, interval: 100, what: 'every player connected again' });
    for (const p of pairs) {
      if (p.error) console.log(`# the pair on ${p.node} stopped: ${p.error.stack || p.error}`); // seen even if teardown fails too
      assert.ifError(p.error);
    }
    assert.ok(pairs.reduce((n, p) => n + p.a.clients.length + p.b.clients.length, 0) >= sockets + 6, 'every player reconnected');

    // Every match to its end; nothing seen was lost; archived once; the rules core agrees.
    stopping = true;
    await Promise.all(pairs.map((p) => p.loop));
    for (const p of pairs) {
      assert.ok(p.rooms.length >= 2, `the pair on ${p.node} played matches (${p.rooms.length})`);
      for (const { room, final } of p.rooms) await checkArchived(cl, room, [p.a, p.b], final);
      p.a.close();
      p.b.close();
    }
    // No node took another for dead: the outage was everyone's.
    for (const name of cl.names) assert.equal(await cl.alive(name), true, `${name} still runs`);
  });
});
