// addr_caps.test.mjs: one address cannot fill the server (issue 19, point 2).
//  - the attack: 40 connections of one address loop create/join/add_bot/resign/rematch as fast as they
//    are answered for a bounded time; the rooms they hold stay under the per-address cap (a tenth of
//    max_rooms by default), so an honest `create` from another address (127.0.0.2) still succeeds;
//  - a finished room still listed counts against its opener; a rematch counts against the address that
//    accepted it; the rooms-per-hour bound of an address answers too_many_rooms, saying which limit;
//  - hello churn: new identities from one address past their burst are answered rate_limited (the
//    connection stays and may resume with a token), other addresses are not affected; identities with
//    no connection and no seat leave memory (quinteto_players_known) and still resume by token;
//  - the per-address cap must be under max_rooms (checked at start and by --check-config).
// Refusals are counted in quinteto_limit_refused_total{limit=...}.

import test from 'node:test';
import { spawnSync } from 'node:child_process';
import { assert, withServer, createRoom, joinRoom, sleep, until } from './lib.mjs';

const FAST = ['--rate', '100000', '--burst', '100000'];

// A client that said hello from the local address `addr` (127.0.0.x): the server sees that address.
async function playerFrom(srv, addr, name, extra = {}) {
  const saved = srv.wsOptions;
  srv.wsOptions = { ...saved, localAddress: addr };
  try {
    return await srv.player(name, extra);
  } finally {
    srv.wsOptions = saved;
  }
}

// Sends `rematch` and resolves with the `rematch` frame of the new room, or the error answered.
async function rematch(c, room, timeoutMs = 10000) {
  const id = `rm-${room}-${Math.random()}`;
  const p = c.next((m) => (m.type === 'rematch' && m.room === room) || (m.type === 'error' && m.id === id),
    timeoutMs, `the rematch of ${room}`);
  await c.send({ type: 'rematch', room, id });
  return p;
}

// One attacker's loop: create, join, add a bot (the match starts), resign, then rematch and resign
// again while rematches open. Records every refusal's code.
async function attack(c, until_, codes) {
  const note = (r) => { if (r.type === 'error') codes.push(r.code); return r.type !== 'error'; };
  while (Date.now() < until_) {
    const r = await c.request({ type: 'create', game: 'ur' }, 20000);
    if (!note(r)) { await sleep(20); continue; }
    let room = r.room.id;
    if (!note(await c.request({ type: 'join', room, seat: 0 }, 20000))) continue;
    if (!note(await c.request({ type: 'add_bot', room, seat: 1 }, 20000))) continue;
    while (Date.now() < until_) {
      if (!note(await c.request({ type: 'resign', room }, 20000))) break;
      const m = await rematch(c, room, 20000);
      if (!note(m)) break;
      room = m.new_room;
    }
  }
}

test('the create/join/add_bot/resign/rematch attack from one address cannot reach the global cap', { timeout: 120000 }, async () => {
  await withServer({ args: ['--max-rooms', '200', ...FAST] }, async (srv) => {
    const attackers = await Promise.all([...Array(40).keys()].map((i) => srv.player(`Flood${i}`)));
    const codes = [];
    const end = Date.now() + 4000;
    await Promise.all(attackers.map((c) => attack(c, end, codes)));
    assert.ok(codes.includes('too_many_rooms'), `the attack met a cap: ${[...new Set(codes)]}`);
    assert.ok(codes.every((c) => c === 'too_many_rooms'), `only too_many_rooms: ${[...new Set(codes)]}`);
    assert.ok(attackers.every((c) => c.isOpen), 'the attackers were told, not closed');

    const list = await srv.getJson('/api/rooms');
    assert.ok(list.total <= 20, `the address holds ${list.total} rooms; its cap is a tenth of 200`);
    const m = await srv.metrics();
    assert.ok(m['quinteto_archive_writes_total'] <= 20, `archived: ${m['quinteto_archive_writes_total']}`);
    assert.ok(m['quinteto_limit_refused_total{limit="addr_live_rooms"}'] > 0, 'the refusals are counted');

    // Another address is not affected: its create and its match go on.
    const honest = await playerFrom(srv, '127.0.0.2', 'Honest');
    const made = await honest.request({ type: 'create', game: 'ur' });
    assert.equal(made.type, 'created', JSON.stringify(made));
    await joinRoom(honest, made.room.id, { seat: 0 });
    assert.equal((await honest.request({ type: 'add_bot', room: made.room.id, seat: 1 })).type, 'bot_added');
    // ...and the attackers are still refused, with the limit named
    const again = await attackers[0].request({ type: 'create', game: 'ur' });
    assert.equal(again.code, 'too_many_rooms');
    assert.match(again.message, /from your address/);
  });
});

test('finished rooms count until they go; a rematch counts against the address that accepted it', { timeout: 60000 }, async () => {
  await withServer({ args: ['--max-live-rooms-per-player', '3', '--max-rooms', '100', ...FAST] }, async (srv) => {
    const a = await srv.player('Ana');
    const { id } = await createRoom(a, 'ur');
    await joinRoom(a, id, { seat: 0 });
    assert.equal((await a.request({ type: 'add_bot', room: id, seat: 1 })).type, 'bot_added');
    assert.equal((await a.request({ type: 'resign', room: id })).type, 'resigned');
    const m = await rematch(a, id);
    assert.equal(m.type, 'rematch', JSON.stringify(m)); // 2 rooms: the finished one and its rematch
    await createRoom(a, 'ur');                             // 3
    const r = await a.request({ type: 'create', game: 'ur' });
    assert.equal(r.code, 'too_many_rooms', 'a finished room still listed counts');
    assert.match(r.message, /you have too many rooms open/);
    // the rematch of the rematch is refused the same way, and nothing changed
    assert.equal((await a.request({ type: 'resign', room: m.new_room })).type, 'resigned');
    const before = (await srv.getJson('/api/rooms')).total;
    const again = await rematch(a, m.new_room);
    assert.equal(again.code, 'too_many_rooms', JSON.stringify(again));
    assert.equal((await srv.getJson('/api/rooms')).total, before);
    assert.ok(a.isOpen);
    assert.equal((await a.request({ type: 'rooms' })).type, 'rooms', 'the connection goes on');
    const mt = await srv.metrics();
    assert.equal(mt['quinteto_limit_refused_total{limit="player_live_rooms"}'], 2);
  });
});

test('rooms per hour from one address: too_many_rooms past the bound, other addresses go on', { timeout: 60000 }, async () => {
  await withServer({ args: ['--max-matches-per-addr-hour', '4', ...FAST] }, async (srv) => {
    const a = await srv.player('Ana');
    const b = await srv.player('Bea'); // same address, another player
    const { id } = await createRoom(a, 'ur');
    await joinRoom(a, id, { seat: 0 });
    await a.request({ type: 'add_bot', room: id, seat: 1 });
    await a.request({ type: 'resign', room: id });
    assert.equal((await rematch(a, id)).type, 'rematch'); // 2
    await createRoom(b, 'ur');                            // 3
    await createRoom(b, 'ur');                            // 4
    for (const c of [a, b]) {
      const r = await c.request({ type: 'create', game: 'ur' });
      assert.equal(r.code, 'too_many_rooms', JSON.stringify(r));
      assert.match(r.message, /in an hour/);
      assert.ok(c.isOpen);
    }
    const other = await playerFrom(srv, '127.0.0.3', 'Other');
    assert.equal((await other.request({ type: 'create', game: 'ur' })).type, 'created');
    const m = await srv.metrics();
    assert.equal(m['quinteto_limit_refused_total{limit="addr_matches_hour"}'], 2);
    assert.equal((await srv.getJson('/api/rooms')).total, 5);
  });
});

// Opens a WebSocket, says hello (with `token` if given), closes it; resolves with the reply.
async function helloOnce(srv, name, token) {
  const c = await srv.connect({ label: name });
  const r = await c.request({ type: 'hello', name, ...(token ? { token } : {}) });
  c.close();
  await c.closed;
  return r;
}

test('hello churn from one address: new identities bounded, resume by token works, memory bounded', { timeout: 90000 }, async () => {
  await withServer({ args: ['--new-players-burst', '20', '--max-new-players-per-addr-hour', '60', ...FAST] }, async (srv) => {
    const keep = await srv.player('Keeper'); // connected all along: stays in memory
    const replies = [];
    for (let i = 0; i < 8; i++) {
      replies.push(...await Promise.all([...Array(10).keys()].map((k) => helloOnce(srv, `Churn${i}-${k}`))));
    }
    const welcomed = replies.filter((r) => r.type === 'welcome');
    const refused = replies.filter((r) => r.type === 'error');
    // 20 at once plus one a minute: 21 at most whatever the machine's speed
    assert.ok(welcomed.length >= 19 && welcomed.length <= 21, `welcomed ${welcomed.length}`);
    assert.ok(refused.every((r) => r.code === 'rate_limited'), JSON.stringify(refused[0]));

    // A refused connection stays open and may still resume an identity by its token.
    const c = await srv.connect({ label: 'late' });
    const no = await c.request({ type: 'hello', name: 'Late' });
    assert.equal(no.code, 'rate_limited');
    assert.match(no.message, /from your address/);
    const yes = await c.request({ type: 'hello', name: 'Late', token: welcomed[0].token });
    assert.equal(yes.type, 'welcome', JSON.stringify(yes));
    assert.equal(yes.player, welcomed[0].player);
    c.close();
    await c.closed;

    // Another address has its own allowance.
    const other = await playerFrom(srv, '127.0.0.2', 'Other');
    assert.ok(other.welcome.token);

    // Identities with no connection and no seat leave memory: Keeper and Other stay.
    await until(async () => (await srv.metrics())['quinteto_players_known'] <= 2,
      { timeoutMs: 20000, interval: 200, what: 'idle identities out of memory' });
    const m = await srv.metrics();
    assert.ok(m['quinteto_limit_refused_total{limit="addr_new_players"}'] >= replies.length - 21);
    assert.equal(m['quinteto_players_created_total'], welcomed.length + 2);
    // ...and each still resumes by its token (read again from the database), as the same identity
    for (const w of welcomed.slice(0, 5)) {
      const r = await helloOnce(srv, 'Back', w.token);
      assert.equal(r.type, 'welcome', JSON.stringify(r));
      assert.equal(r.player, w.player);
      assert.equal(r.token, w.token);
    }
    assert.ok(keep.isOpen);
  });
});

test('the per-address cap must be under max_rooms; by default a tenth of it', { timeout: 30000 }, () => {
  const bin = process.env.QUINTETO_SERVER;
  const run = (args) => spawnSync(bin, ['--check-config', ...args], { encoding: 'utf8', timeout: 20000 });
  const bad = run(['--max-rooms', '100', '--max-live-rooms-per-addr', '100']);
  assert.equal(bad.status, 2, bad.stdout + bad.stderr);
  assert.match(bad.stderr, /max_live_rooms_per_addr .*100 is not under max_rooms \(100\)/);
  const ok = run(['--max-rooms', '500']);
  assert.equal(ok.status, 0, ok.stderr);
  assert.match(ok.stdout, /max_live_rooms_per_addr\s+= 50\s/);
});
