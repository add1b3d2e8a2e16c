// cluster.test.mjs: three nodes behind HAProxy, on PostgreSQL and Redis, all really started by
// deploy/cluster/dev-cluster.sh (docs/SCALING.md). Rooms created through HAProxy land on different nodes
// and every node's lobby lists them all; a player whose lobby socket is on one node joins a room on
// another (`moved`, a reconnect to /ws?node=NAME, the same token); a random match of every game, its
// players spread over the nodes by HAProxy, ends as the rules core says (`quinteto verify` re-derives its
// archive) and is archived exactly once. One cluster for the file: starting one is the slow part.
import test from 'node:test';
import { assert, createRoom, until } from './lib.mjs';
import { Cluster, Player, checkArchived, uniqueName } from '../lib/cluster.mjs';

let cl = null;
test.before(async () => { cl = await Cluster.up(3); });
test.after(async () => {
  if (!cl) return;
  await cl.stop();
  cl.assertValid();
});

test('rooms created through HAProxy land on every node, and every node lists them all', { timeout: 90000 }, async () => {
  const ids = [];
  const hosts = [];
  // One new connection for each room: HAProxy hands connections out round robin.
  for (let i = 0; i < 6; i++) {
    const c = await cl.player(uniqueName('Host'));
    hosts.push(c);
    ids.push((await createRoom(c, 'ur')).id);
  }
  const where = [];
  for (const id of ids) where.push(await cl.locate(id));
  assert.deepEqual([...new Set(where)].sort(), ['n1', 'n2', 'n3'], `rooms by node: ${JSON.stringify(where)}`);
  // The merged lobby: each node's list (its own rooms and the others' summaries, published at most once
  // a second) holds every room, whichever node hosts it.
  for (const name of cl.names) {
    const node = await cl.direct(name);
    await until(async () => {
      const list = await node.getJson('/api/rooms');
      return ids.every((id) => list.rooms.some((r) => r.id === id));
    }, { timeoutMs: 15000, interval: 250, what: `node ${name}'s lobby lists the 6 rooms` });
  }
  for (const c of hosts) c.terminate();
  cl.assertValid();
});

test('a player whose lobby socket is on one node joins a room on another', { timeout: 90000 }, async () => {
  const host = new Player(cl, uniqueName('Hosta'));
  host.node = 'n1';
  await host.connect();
  const created = await host.request({ type: 'create', game: 'ur', options: { autoroll: true } });
  assert.equal(created.type, 'created', JSON.stringify(created));
  const room = created.room.id;
  assert.equal(await cl.locate(room), 'n1', 'a room created on n1 is hosted by n1');
  await host.join(room, 0);

  // The guest's lobby socket is on n2; the room shows in its lobby.
  const guest = await cl.on('n2').player(uniqueName('Guest'));
  await until(async () => {
    const r = await guest.request({ type: 'rooms' });
    return r.type === 'rooms' && r.rooms.some((x) => x.id === room);
  }, { timeoutMs: 15000, interval: 250, what: 'the room on n1 in the lobby of n2' });
  const moved = await guest.request({ type: 'join', room, seat: 1 });
  assert.deepEqual([moved.type, moved.room, moved.node], ['moved', room, 'n1'], JSON.stringify(moved));

  // As a client does: reconnect to /ws?node=n1, hello with the same token, ask again.
  const g2 = await cl.on('n1').connect({ label: 'guest on n1' });
  const w = await g2.request({ type: 'hello', name: guest.welcome.name, token: guest.welcome.token });
  assert.equal(w.type, 'welcome', JSON.stringify(w));
  assert.equal(w.player, guest.welcome.player, 'a token made on n2 is the same player on n1');
  const j = await g2.request({ type: 'join', room, seat: 1 });
  assert.equal(j.type, 'joined', JSON.stringify(j));
  const st = await g2.nextState(room, (s) => s.status === 'playing', 10000);
  assert.deepEqual(st.seats.map((s) => s.name), [host.name, guest.welcome.name]);
  guest.terminate();
  g2.terminate();
  host.close();
  cl.assertValid();
});

// Each game with its humans in seats 0 and 1 (each connected through HAProxy wherever round robin puts
// it, following `moved` to the room's node) and random bots in the other seats.
const GAMES = [
  ['ur', { autoroll: true }],
  ['laquet', { autoroll: true }],
  ['super15', {}],
  ['quinteto', { autoroll: true, max_turns: 10 }],
];

test('a random match of every game through HAProxy: as the rules core says, archived once', { timeout: 150000 }, async () => {
  const matches = await Promise.all(GAMES.map(async ([game, options]) => {
    const a = new Player(cl, uniqueName('Ana'));
    const b = new Player(cl, uniqueName('Bruno'));
    await a.connect();
    await b.connect();
    const created = await a.request({ type: 'create', game, options });
    assert.equal(created.type, 'created', `${game}: ${JSON.stringify(created)}`);
    const room = created.room.id;
    await a.join(room, 0, { client_seed: `${game}-a` });
    await b.join(room, 1, { client_seed: `${game}-b` });
    for (let s = 2; s < created.room.seats.length; s++) {
      const r = await a.request({ type: 'add_bot', room, seat: s });
      assert.equal(r.type, 'bot_added', `${game}: ${JSON.stringify(r)}`);
    }
    // /ws?node=NAME reaches the room's node at once: one `moved` at most for each player (its join).
    assert.ok(a.moves.length <= 1 && b.moves.length <= 1, `${game}: moved ${a.moves.length} and ${b.moves.length} times`);
    const plays = [a.play(room), b.play(room)];
    const finals = await Promise.all(plays.map((p) => p.done));
    assert.deepEqual(finals[0].result, finals[1].result, `${game}: both players were shown one result`);
    assert.equal(finals[0].ply, finals[1].ply);
    assert.deepEqual(finals[0].client_seeds.slice(0, 2), [`${game}-a`, `${game}-b`]);
    return { game, room, a, b, final: finals[0] };
  }));
  for (const { game, room, a, b, final } of matches) {
    const arch = await checkArchived(cl, room, [a, b], final);
    assert.equal(arch.game, game);
    a.close();
    b.close();
  }
  cl.assertValid();
});
