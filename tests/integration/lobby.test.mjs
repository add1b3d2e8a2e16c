// lobby.test.mjs: the lobby side of the protocol against the real server: the `rooms`
// subscription and its throttled pushes, watcher counts, `leave` before and during a match, chat,
// and the per-address connection limit.

import test from 'node:test';
import { assert, withServer, createRoom, joinRoom, watchRoom, sleep, until } from './lib.mjs';

const pushes = (c) => c.messages.filter((m) => m.type === 'rooms' && !('id' in m));

// Waits for a pushed `rooms` (no id) in which room `id` satisfies pred; returns {msg, room}.
async function pushed(c, id, pred, timeoutMs = 10000) {
  const msg = await c.next((m) => m.type === 'rooms' && !('id' in m) && m.rooms.some((r) => r.id === id && pred(r)),
    timeoutMs, `a rooms push for ${id}`);
  return { msg, room: msg.rooms.find((r) => r.id === id) };
}

test('a rooms subscription gets pushed updates, at most about once a second', { timeout: 30000 }, async () => {
  await withServer(async (srv) => {
    const lobby = await srv.player('Lobby');
    const quiet = await srv.player('Quiet'); // never asks for rooms: gets no pushes
    const a = await srv.player('Ana');
    const b = await srv.player('Ben');
    const first = await lobby.request({ type: 'rooms' });
    assert.deepEqual(first.rooms, []);
    const times = [];
    lobby.ws.on('message', () => { // runs after the client recorded the message
      const m = lobby.messages.at(-1);
      if (m.type === 'rooms' && !('id' in m)) times.push(Date.now());
    });

    const { id } = await createRoom(a, 'ur');
    let p = await pushed(lobby, id, (r) => r.status === 'waiting');
    assert.deepEqual(p.room.seats.map((s) => s.name), [null, null]);
    await joinRoom(a, id, { seat: 0 });
    p = await pushed(lobby, id, (r) => r.seats[0].name === 'Ana');
    assert.equal(p.room.status, 'waiting');
    await joinRoom(b, id, { seat: 1 });
    p = await pushed(lobby, id, (r) => r.status === 'playing');
    assert.deepEqual(p.room.seats.map((s) => [s.name, s.bot]), [['Ana', false], ['Ben', false]]);
    await a.send({ type: 'resign', room: id });
    p = await pushed(lobby, id, (r) => r.status === 'finished');
    // every push equals what GET /api/rooms said at about that time: check the last one
    assert.deepEqual((await srv.getJson('/api/rooms')).rooms, p.msg.rooms);

    // a burst of changes is coalesced
    const n0 = times.length;
    const t0 = Date.now();
    await Promise.all([...Array(10).keys()].map(() => createRoom(a, 'ur')));
    // On a loaded machine the ten creates may be answered over more than a second: a push a second at most.
    const spread = Date.now() - t0;
    await until(() => pushes(lobby).at(-1).rooms.length === 11, { timeoutMs: 10000, what: 'a push with every room' });
    const burst = times.slice(n0).filter((t) => t >= t0);
    const most = 2 + Math.floor(spread / 1000);
    assert.ok(burst.length >= 1 && burst.length <= most, `${burst.length} pushes for a burst of 10 creates answered in ${spread} ms`);
    const last = pushes(lobby).at(-1);
    assert.equal(last.rooms.length, 11, 'the latest push has every room');
    // The server pushes a second apart at least; each arrival may be late by a loaded machine's delay
    // (JITTER), so any two pushes k apart arrived at least k seconds apart less that.
    const JITTER = 300;
    for (let i = 0; i < times.length; i++)
      for (let j = i + 1; j < times.length; j++)
        assert.ok(times[j] - times[i] >= 1000 * (j - i) - JITTER, `pushes ${i} and ${j}: ${times[j] - times[i]} ms apart`);
    assert.equal(pushes(quiet).length, 0, 'no pushes without asking');
    assert.equal(pushes(a).length, 0);
  });
});

test('watchers are counted in the room summary', { timeout: 30000 }, async () => {
  await withServer(async (srv) => {
    const a = await srv.player('Seated');
    const w1 = await srv.player('W1');
    const w2 = await srv.player('W2');
    const { id } = await createRoom(a, 'ur');
    const watchers = async () => (await srv.getJson('/api/rooms')).rooms.find((r) => r.id === id).watchers;
    assert.equal(await watchers(), 0);
    await joinRoom(a, id, { seat: 0 });
    assert.equal(await watchers(), 0, 'a seated player is no watcher');
    await watchRoom(w1, id);
    await watchRoom(w2, id);
    await watchRoom(w2, id); // twice is still one
    assert.equal(await watchers(), 2);
    const r = await w2.request({ type: 'rooms' });
    assert.equal(r.rooms.find((x) => x.id === id).watchers, 2);
    assert.equal((await w1.request({ type: 'leave', room: id })).type, 'left');
    assert.equal(await watchers(), 1);
    w2.terminate();
    await until(async () => (await watchers()) === 0, { what: 'watchers 0 after a disconnect' });
    // and the push says so too
    const p = await w1.request({ type: 'rooms' });
    assert.equal(p.rooms.find((x) => x.id === id).watchers, 0);
  });
});

test('leave before the match frees the seat', { timeout: 30000 }, async () => {
  await withServer(async (srv) => {
    const a = await srv.player('Leaver');
    const b = await srv.player('Taker');
    const w = await srv.player('Watcher');
    const { id } = await createRoom(a, 'ur');
    await watchRoom(w, id);
    await joinRoom(a, id, { seat: 0, client_seed: 'gone' });
    await w.nextState(id, (s) => s.seats[0].name === 'Leaver');
    const l = await a.request({ type: 'leave', room: id });
    assert.deepEqual([l.type, l.room], ['left', id]);
    const st = await w.nextState(id, (s) => s.seats[0].name === null);
    assert.equal(st.status, 'waiting');
    assert.equal((await srv.getJson('/api/rooms')).rooms[0].seats[0].name, null);
    const mark = a.mark();
    // the seat is free for another player; the leaver is no longer told about the room
    const j = await joinRoom(b, id, { seat: 0 });
    assert.equal(j.state.seats[0].name, 'Taker');
    await w.nextState(id, (s) => s.seats[0].name === 'Taker');
    assert.deepEqual(a.statesSince(mark), []);
    // resuming the leaver's identity brings back no room
    const again = await srv.connect();
    const welcome = await again.request({ type: 'hello', name: 'Leaver', token: a.welcome.token });
    assert.deepEqual(welcome.rooms, []);
    // it may sit again in the other seat: the match starts without its old client seed
    await joinRoom(a, id, { seat: 1 });
    await b.send({ type: 'resign', room: id });
    const end = await w.nextState(id, (s) => s.status === 'finished');
    assert.deepEqual(end.seats.map((s) => s.name), ['Taker', 'Leaver']);
    assert.deepEqual(end.client_seeds, ['', ''], 'the seed left with the seat');
  });
});

test('leave during a match keeps the seat held', { timeout: 30000 }, async () => {
  await withServer(async (srv) => {
    const a = await srv.player('Away');
    const b = await srv.player('Here');
    const w = await srv.player('Watcher');
    const { id } = await createRoom(a, 'ur');
    await joinRoom(a, id, { seat: 0 });
    await joinRoom(b, id, { seat: 1 });
    await watchRoom(w, id);
    w.drain();
    const l = await a.request({ type: 'leave', room: id });
    assert.equal(l.type, 'left');
    const c = await srv.player('Newcomer');
    const r = await c.request({ type: 'join', room: id });
    assert.equal(r.code, 'room_full', 'the seat stays taken');
    const sum = (await srv.getJson('/api/rooms')).rooms.find((x) => x.id === id);
    assert.deepEqual(sum.seats.map((s) => s.name), ['Away', 'Here']);
    assert.equal(sum.status, 'playing');
    const mark = a.mark();
    // the match goes on; the one who left comes back with its token on a new connection
    const back = await srv.connect();
    const welcome = await back.request({ type: 'hello', name: 'Away', token: a.welcome.token });
    assert.deepEqual(welcome.rooms, [id]);
    const st = await back.nextState(id);
    assert.equal(st.status, 'playing');
    assert.deepEqual(st.to_act, [0]);
    assert.deepEqual(st.legal, [{ roll: true }]);
    await back.send({ type: 'act', room: id, ply: st.ply, action: { roll: true } });
    const next = await w.nextState(id, (s) => s.ply === st.ply + 1);
    assert.equal(next.last.seat, 0);
    assert.deepEqual(a.statesSince(mark), [], 'the connection that left no longer gets the room');
    assert.equal((await a.request({ type: 'leave', room: id })).type, 'left', 'leaving again (still seated) is fine');
  });
});

test('chat goes to every member with its seat (or null) and name', { timeout: 30000 }, async () => {
  await withServer(async (srv) => {
    const a = await srv.player('Ana');
    const b = await srv.player('Ben');
    const w = await srv.player('Wes');
    const out = await srv.player('Outsider');
    const { id } = await createRoom(a, 'ur');
    await joinRoom(a, id, { seat: 0 });
    await watchRoom(w, id);
    // a waiting room: the seated player and the watcher talk
    const t0 = Date.now();
    const mark = w.mark();
    await a.send({ type: 'chat', room: id, text: 'hola 👋' });
    for (const c of [a, w]) {
      const m = await c.nextType('chat');
      assert.deepEqual({ ...m, at: 0 }, { type: 'chat', room: id, seat: 0, name: 'Ana', text: 'hola 👋', at: 0 });
      assert.ok(m.at >= t0 - 5000 && m.at <= Date.now() + 5000, 'at is Unix ms');
    }
    assert.deepEqual(w.statesSince(mark), [], 'a chat is no state change');
    await joinRoom(b, id, { seat: 1 });
    await w.send({ type: 'chat', room: id, text: 'watching you' });
    for (const c of [a, b, w]) {
      const m = await c.nextType('chat', 3000, (x) => x.text === 'watching you');
      assert.equal(m.seat, null);
      assert.equal(m.name, 'Wes');
    }
    await b.send({ type: 'chat', room: id, text: 'x'.repeat(500) });
    for (const c of [a, b, w]) {
      const m = await c.nextType('chat', 3000, (x) => x.seat === 1);
      assert.equal(m.name, 'Ben');
      assert.equal(m.text.length, 500);
    }
    // someone outside the room hears nothing
    await sleep(100);
    assert.equal(out.messages.filter((m) => m.type === 'chat').length, 0);
    // a chat in one room does not leak to another
    const { id: other } = await createRoom(out, 'ur');
    await watchRoom(out, other);
    await out.send({ type: 'chat', room: other, text: 'elsewhere' });
    await out.nextType('chat');
    await sleep(100);
    assert.equal(w.messages.filter((m) => m.type === 'chat' && m.text === 'elsewhere').length, 0);
  });
});

test('the per-address connection limit refuses the next WebSocket, until one closes', { timeout: 30000 }, async () => {
  await withServer({ args: ['--max-conns-per-addr', '3'] }, async (srv) => {
    const c1 = await srv.player('One');
    const c2 = await srv.player('Two');
    const c3 = await srv.connect();
    await assert.rejects(srv.connect({ label: 'fourth' }), /refused|closed|hang up|socket|Unexpected/i);
    await assert.rejects(srv.connect({ label: 'fifth' }));
    // HTTP connections count too (a 503 at accept, or the connection closed before it is read)
    const http = await fetch(`${srv.url}/healthz`).then((r) => r.status).catch(() => 'refused');
    assert.notEqual(http, 200, 'an HTTP request past the per-address limit is refused');
    // the three are fine
    for (const c of [c1, c2]) assert.equal((await c.request({ type: 'rooms' })).type, 'rooms');
    await c3.close();
    const c4 = await until(async () => {
      try { return await srv.connect({ label: 'after' }); } catch { return null; }
    }, { timeoutMs: 5000, interval: 100, what: 'a connection after one closed' });
    assert.equal((await c4.request({ type: 'hello', name: 'Four' })).type, 'welcome');
    assert.equal((await c1.request({ type: 'rooms' })).type, 'rooms');
    await assert.rejects(srv.connect({ label: 'over again' }));
  });
});
