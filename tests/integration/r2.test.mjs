// Protocol revision 2, point by point, against the real server (every frame is also checked against
// its JSON Schema by lib.mjs): created carries the room summary; join's three errors; resign's direct
// reply, then the state; a seat already out of play; welcome.seats; state.options with defaults;
// per-game options. The ply exception is proved in tests/unit/server/test_room.c with a game whose
// seats act at once (Ur never has two seats to act); here, its Ur-visible half: an old ply after the
// sender's own action is stale, and (r3) an older ply where the sender was not to act, with Quinteto's
// roll-off, where the exception still holds. add_bot's rule is in listen.test.mjs.
import test from 'node:test';
import { Server, assert, createRoom, joinRoom, withServer } from './lib.mjs';

const lastState = (c, room) => c.messages.findLast((m) => m.type === 'state' && m.room === room);

test('created {room: summary}: the summary that rooms lists, with its id', { timeout: 30000 }, () => withServer(async (srv) => {
  const a = await srv.player('Ana');
  const created = await a.request({ type: 'create', game: 'ur', options: { autoroll: true } });
  assert.equal(created.type, 'created');
  const { rooms } = await a.request({ type: 'rooms' });
  assert.deepEqual(created.room, rooms.find((r) => r.id === created.room.id), 'the same summary');
  assert.equal(created.room.status, 'waiting');
  assert.deepEqual(created.room.options, { autoroll: true }, 'the options as given');
}));

test('join: bad_message for a seat the game lacks, seat_taken for a held one, room_full when none is free', { timeout: 30000 }, () => withServer(async (srv) => {
  const [a, b, c] = [await srv.player('Ana'), await srv.player('Ben'), await srv.player('Cy')];
  const room = (await createRoom(a, 'ur')).id;
  assert.equal((await b.request({ type: 'join', room, seat: 2 })).code, 'bad_message');
  assert.equal((await b.request({ type: 'join', room, seat: -1 })).code, 'bad_message');
  await joinRoom(a, room, { seat: 0 });
  assert.equal((await b.request({ type: 'join', room, seat: 0 })).code, 'seat_taken');
  await joinRoom(b, room); // the first free seat: 1; the match starts
  assert.equal((await c.request({ type: 'join', room })).code, 'room_full');
  assert.equal((await c.request({ type: 'join', room, seat: 1 })).code, 'seat_taken');
}));

test('resign: resigned {room, seat, id} to the sender, then the state; again: game_over', { timeout: 30000 }, () => withServer(async (srv) => {
  const [a, b] = [await srv.player('Ana'), await srv.player('Ben')];
  const room = (await createRoom(a, 'ur')).id;
  await joinRoom(a, room, { seat: 0 });
  await joinRoom(b, room, { seat: 1 });
  a.drain();
  const reply = await a.request({ type: 'resign', room, id: 'r1' });
  assert.deepEqual(reply, { type: 'resigned', room, seat: 0, id: 'r1' });
  const i = a.messages.indexOf(reply);
  const st = await a.nextState(room, (s) => s.status === 'finished');
  assert.ok(a.messages.indexOf(st) > i, 'the state comes after the reply');
  assert.equal(st.result.winner, 1, 'two seats: the other one wins');
  assert.equal(st.ply, 0, 'an event is not an action');
  const bst = await b.nextState(room, (s) => s.status === 'finished');
  assert.deepEqual(bst.result, st.result);
  assert.equal((await a.request({ type: 'resign', room })).code, 'game_over', 'a seat already out of play');
  assert.equal((await b.request({ type: 'resign', room })).code, 'game_over');
}));

test('welcome.seats names the seat held in each room; state.options has every key with defaults', { timeout: 30000 }, async () => {
  const srv = await Server.start();
  try {
    const a = await srv.player('Ana');
    const r1 = (await createRoom(a, 'ur')).id;
    const r2 = (await createRoom(a, 'ur', { autoroll: true })).id;
    const { state: s1 } = await joinRoom(a, r1, { seat: 1 });
    const { state: s2 } = await joinRoom(a, r2, { seat: 0 });
    const shared = { clock: null, stand_in_after_ms: 30000, stand_in_level: null, idle_after_ms: 300000 }; // every game's (issues 13, 19)
    assert.deepEqual(s1.options, { autoroll: false, ...shared }, 'defaults filled in');
    assert.deepEqual(s2.options, { autoroll: true, ...shared });
    const again = await srv.connect();
    const welcome = await again.request({ type: 'hello', name: 'Ana', token: a.welcome.token });
    const bySeat = (x, y) => x.room.localeCompare(y.room);
    assert.deepEqual([...welcome.seats].sort(bySeat),
      [{ room: r1, seat: 1, role: 'dark' }, { room: r2, seat: 0, role: 'light' }].sort(bySeat));
    assert.deepEqual([...welcome.rooms].sort(), [r1, r2].sort(), 'rooms follows seats');
    await again.nextState(r1);
    assert.deepEqual(lastState(again, r1).options, { autoroll: false, ...shared });
  } finally { await srv.stop(); }
});

test('per-game options: another game\'s key or a bad value is bad_options, and nothing is created', { timeout: 30000 }, () => withServer(async (srv) => {
  const a = await srv.player('Ana');
  const before = (await a.request({ type: 'rooms' })).rooms.length;
  for (const options of [{ max_turns: 100 }, { autoroll: 1 }, { nope: true }, []]) {
    const e = await a.request({ type: 'create', game: 'ur', options });
    assert.equal(e.code, 'bad_options', JSON.stringify(options));
  }
  assert.equal((await a.request({ type: 'rooms' })).rooms.length, before);
}));

test('an Ur match ended by a resignation is archived with its event; verify re-derives it, a tampered event fails', { timeout: 60000 }, async () => {
  const { execFileSync } = await import('node:child_process');
  const { writeFile } = await import('node:fs/promises');
  const path = await import('node:path');
  const verify = (file) => {
    try {
      return { ok: true, out: execFileSync(process.env.QUINTETO_CLI, ['verify', file], { encoding: 'utf8', stdio: 'pipe' }) };
    } catch (e) { return { ok: false, out: `${e.stdout}${e.stderr}` }; }
  };
  await withServer(async (srv) => {
    const [a, b] = [await srv.player('Ana'), await srv.player('Ben')];
    const room = (await createRoom(a, 'ur', { autoroll: true })).id;
    await joinRoom(a, room, { seat: 0 });
    await joinRoom(b, room, { seat: 1 });
    const st = await b.nextState(room, (s) => s.ply >= 1); // at least one action before the event
    assert.equal((await b.request({ type: 'resign', room })).type, 'resigned');
    const fin = await a.nextState(room, (s) => s.status === 'finished');
    const archive = await srv.archive(room);
    assert.equal(archive.events.length, 1);
    const [ev] = archive.events;
    assert.deepEqual({ ply: ev.ply, seat: ev.seat, kind: ev.kind }, { ply: fin.ply, seat: 1, kind: 'resign' });
    assert.ok(ev.ply >= st.ply && ev.ply === archive.actions.length, 'its ply: the actions before it');
    assert.equal(archive.result.winner, 0);
    const file = path.join(srv.dir, 'resigned.json');
    await writeFile(file, JSON.stringify(archive));
    const good = verify(file);
    assert.ok(good.ok, good.out);
    for (const tampered of [{ ...ev, seat: 0 }, { ...ev, kind: 'forfeit', seat: 0 }]) {
      await writeFile(file, JSON.stringify({ ...archive, events: [tampered] }));
      assert.equal(verify(file).ok, false, `tampered ${JSON.stringify(tampered)} must fail`);
    }
    await writeFile(file, JSON.stringify({ ...archive, events: [] }));
    assert.equal(verify(file).ok, false, 'an archive without its event must fail');
  });
});

// (r3) The exception holds only where the sender was in to_act together with other seats at the older ply.
test('(r3) an older ply: stale_ply where the sender was not to act then; accepted in the roll-off', { timeout: 30000 }, () => withServer(async (srv) => {
  // Ur: one seat to act at a time. After Ana's action, Ben sends the ply before it: only Ana acted since
  // and his roll is legal now (revision 2 took it), but he was not to act at that ply.
  const [a, b] = [await srv.player('Ana'), await srv.player('Ben')];
  const room = (await createRoom(a, 'ur')).id;
  await joinRoom(a, room, { seat: 0 });
  await joinRoom(b, room, { seat: 1 });
  let st = await a.nextState(room, (s) => s.status === 'playing');
  assert.deepEqual(st.to_act, [0], 'Ana starts');
  while (st.to_act[0] === 0) {
    const ply = st.ply;
    await a.send({ type: 'act', room, ply, action: st.legal[0] });
    st = await a.nextState(room, (s) => s.ply === ply + 1);
  }
  const mine = await b.nextState(room, (s) => s.ply === st.ply);
  assert.deepEqual([mine.to_act, mine.last.seat], [[1], 0], 'Ben to act after an action of Ana');
  const e = await b.request({ type: 'act', room, ply: st.ply - 1, action: mine.legal[0] });
  assert.equal(e.code, 'stale_ply', JSON.stringify(e));
  assert.equal(lastState(b, room).ply, st.ply, 'nothing changed');
  await b.send({ type: 'act', room, ply: st.ply, action: mine.legal[0] });
  await a.nextState(room, (s) => s.ply === st.ply + 1);

  // Quinteto: the arranger arranges alone at ply 0, then five hunters roll off at once from ply 1.
  const q = [];
  for (let s = 0; s < 6; s++) q.push(await srv.player(s === 5 ? 'Arranger' : `Hunter ${s}`));
  const qroom = (await createRoom(q[5], 'quinteto')).id;
  for (let s = 0; s < 5; s++) await joinRoom(q[s], qroom, { seat: s });
  const { state: arr } = await joinRoom(q[5], qroom, { seat: 5 }); // the last seat: the match starts
  assert.equal(arr.status, 'playing');
  assert.deepEqual(arr.to_act, [5]);
  await q[5].send({ type: 'act', room: qroom, ply: 0, action: arr.legal[0] });
  const h0 = await q[0].nextState(qroom, (s) => s.ply === 1);
  assert.deepEqual(h0.to_act, [0, 1, 2, 3, 4], 'the roll-off');
  // hunter 0 was not to act at ply 0 (the arranger alone): stale, though only the arranger acted since
  assert.equal((await q[0].request({ type: 'act', room: qroom, ply: 0, action: h0.legal[0] })).code, 'stale_ply');
  await q[0].send({ type: 'act', room: qroom, ply: 1, action: h0.legal[0] });
  await q[1].nextState(qroom, (s) => s.ply === 2);
  // hunter 1 rolls with the ply it saw: it was to act at ply 1 with the other hunters, only hunter 0 acted since
  const h1 = q[1].messages.find((m) => m.type === 'state' && m.room === qroom && m.ply === 1);
  await q[1].send({ type: 'act', room: qroom, ply: 1, action: h1.legal[0] });
  const after = await q[2].nextState(qroom, (s) => s.ply === 3);
  assert.deepEqual([after.last.seat, after.to_act], [1, [2, 3, 4]], 'the older ply accepted');
  // the arranger was not to act at ply 1: stale (revision 2 answered not_your_turn)
  assert.equal((await q[5].request({ type: 'act', room: qroom, ply: 1, action: arr.legal[0] })).code, 'stale_ply');
  // hunter 0's own second roll: stale
  assert.equal((await q[0].request({ type: 'act', room: qroom, ply: 1, action: h0.legal[0] })).code, 'stale_ply');
}));
