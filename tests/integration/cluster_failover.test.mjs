// cluster_failover.test.mjs: a node dies or freezes mid-match (docs/SCALING.md, Node leases and the fence).
// SIGKILL: its rooms are adopted by a survivor from the shared journal, every client resumes by token
// through HAProxy, no ply any client saw is lost, each match is archived once. SIGSTOP past its lease, then
// SIGCONT: the frozen node never writes again (the act it read on waking is fenced, never shown, and it
// exits), and the journal holds the adopter's plies only. Nodes run with a 1.5 s lease (TEST_NODE_ARGS).
import test from 'node:test';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { assert, until, sleep } from './lib.mjs';
import { withCluster, Player, checkArchived, uniqueName } from '../lib/cluster.mjs';

// Two players in a new Ur room on node `node` (created and joined through /ws?node=NODE), seeds shared.
async function pairOn(cl, node, seen, options = { autoroll: true }) {
  const a = new Player(cl, uniqueName('Ana'), { seen });
  const b = new Player(cl, uniqueName('Bruno'), { seen });
  a.node = node;
  b.node = node;
  await a.connect();
  await b.connect();
  const created = await a.request({ type: 'create', game: 'ur', options });
  assert.equal(created.type, 'created', JSON.stringify(created));
  const room = created.room.id;
  await a.join(room, 0);
  await b.join(room, 1);
  return { room, a, b };
}

test('SIGKILL a node mid-match: its rooms go on on a survivor, every client resumes, no seen ply lost', { timeout: 150000 }, async () => {
  await withCluster(3, {}, async (cl) => {
    const seen = new Map();
    const pairs = [];
    for (const node of ['n1', 'n1', 'n2', 'n3']) pairs.push({ node, ...await pairOn(cl, node, seen) });
    for (const p of pairs) assert.equal(await cl.locate(p.room, { via: 'n2' }), p.node, 'a room is hosted where it was created');
    for (const p of pairs) p.plays = [p.a.play(p.room), p.b.play(p.room)];
    // Mid-match: every room past its tenth ply.
    await until(() => pairs.every((p) => p.a.lastPly(p.room) >= 10), { timeoutMs: 30000, interval: 50, what: 'ten plies in every room' });
    await cl.kill('n1');
    // Its two rooms are adopted (PostgreSQL's lease, 1.5 s, then a renewal tick of a survivor) and played on.
    // (Until then a node may still answer `moved` to n1 from its mirror, or `unavailable`.)
    for (const p of pairs.slice(0, 2)) {
      const at = await until(async () => {
        const x = await cl.locate(p.room, { via: 'n2', timeoutMs: 20000 });
        return x !== 'n1' && x;
      }, { timeoutMs: 20000, interval: 200, what: `room ${p.room} of n1 adopted` });
      assert.ok(at === 'n2' || at === 'n3', `room ${p.room} of n1 is hosted by ${at} after the kill`);
    }
    const finals = await Promise.all(pairs.map(async (p) => Promise.all(p.plays.map((x) => x.done))));
    for (const [i, p] of pairs.entries()) {
      if (i < 2) assert.ok(p.a.reconnects > 0 && p.b.reconnects > 0, `the players of ${p.room} resumed`);
      await checkArchived(cl, p.room, [p.a, p.b], finals[i][0]);
    }
    assert.equal(await cl.alive('n1'), false);
    // The killed node comes back empty, with a new epoch, and takes new rooms.
    await cl.start('n1');
    const again = await pairOn(cl, 'n1', seen);
    assert.equal(await cl.locate(again.room, { via: 'n1' }), 'n1');
    for (const p of [...pairs, again]) { p.a.close(); p.b.close(); }
  });
});

test('SIGSTOP a node past its lease, then SIGCONT: it never writes again', { timeout: 150000 }, async () => {
  await withCluster(3, {}, async (cl) => {
    const seen = new Map();
    // No autoroll: every ply is a person's act, so an act can be left for the frozen node to read.
    const { room, a, b } = await pairOn(cl, 'n2', seen, {});
    let plays = [a.play(room), b.play(room)];
    await until(() => a.lastPly(room) >= 6, { timeoutMs: 30000, interval: 50, what: 'six plies' });
    for (const p of plays) p.stop();
    await sleep(100);
    const old = [a.c, b.c];
    await cl.kill('n2', 'STOP');
    // What the node sent before it froze counts as before: an act sent just before the players stopped may be
    // answered late (its journal commit first) on a loaded machine, until the node really stops. Once stopped
    // (its state T), whatever it wrote is in our sockets and read within a turn of this loop.
    const pid = (await cl.nodes()).find((x) => x.name === 'n2').pid;
    await until(() => readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].startsWith('T'),
      { timeoutMs: 5000, what: 'n2 stopped' });
    await sleep(100);
    const frozenAt = Math.max(a.lastPly(room), b.lastPly(room));
    // The seat to act sends its act to the frozen node: it waits, unread, in the socket.
    const st = [a, b].map((p) => p.lastState(room)).find((s) => s && s.legal.length);
    assert.ok(st, 'a seat is to act');
    const actor = a.lastState(room) === st ? a : b;
    await actor.c.send({ type: 'act', room, ply: st.ply, action: st.legal[0], id: 'frozen-act' });

    // Adopted by n1 or n3 once the lease has run out.
    const at = await until(async () => {
      const x = await cl.locate(room, { via: 'n1', timeoutMs: 20000 });
      return x !== 'n2' && x;
    }, { timeoutMs: 20000, interval: 200, what: 'the frozen node\'s room adopted' });
    assert.ok(at === 'n1' || at === 'n3', `adopted by ${at}`);
    // The players leave the frozen node's sockets open (they see nothing more there) and resume on the adopter.
    for (const p of [a, b]) { p.c = null; p.node = at; }
    plays = [a.play(room), b.play(room)];
    await until(() => a.lastPly(room) >= frozenAt + 4, { timeoutMs: 30000, interval: 50, what: 'four plies on the adopter' });

    await cl.kill('n2', 'CONT');
    // Awake, it finds its lease lost (its own clock) or its write fenced (PostgreSQL's): either way it logs
    // why and exits, and sends nothing of the act it read.
    await until(async () => (await cl.exitStatus('n2')) !== null, { timeoutMs: 20000, interval: 100, what: 'n2 exits fenced' });
    assert.notEqual(await cl.exitStatus('n2'), 0, 'a fenced node exits with a failure status');
    assert.match(await cl.log('n2'), /lost its lease|lease is lost|fenced/i, 'n2 logs that it lost its lease');
    for (const c of old)
      for (const m of c.messages)
        if (m.type === 'state' && m.room === room) assert.ok(m.ply <= frozenAt, `the frozen node sent ply ${m.ply} after waking`);

    const finals = await Promise.all(plays.map((p) => p.done));
    const arch = await checkArchived(cl, room, [a, b], finals[0]);
    // The journal: the room's lease row names the adopter, and the archive holds exactly the plies the
    // players saw (checkArchived), none from n2 after the adoption.
    const env = readFileSync(path.join(cl.dir, 'cluster.env'), 'utf8');
    const port = /PG_PORT="?(\d+)/.exec(env)[1];
    const row = execFileSync('psql', ['-h', '127.0.0.1', '-p', port, '-U', 'quinteto', '-d', 'quinteto', '-Atc',
      "SELECT adopted_by FROM node_leases WHERE node = 'n2'"], { encoding: 'utf8' }).trim();
    assert.equal(row, at, `node_leases: n2 adopted by ${at}`);
    assert.equal(arch.actions.length, finals[0].ply);
    a.close();
    b.close();
  });
});
