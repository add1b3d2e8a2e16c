// While the journal cannot commit (issue 5, section 3): another process holds the database's write lock
// (a real sqlite3 process in a transaction), so the server's batch fails with SQLITE_BUSY and is retried.
// Meanwhile the move already accepted is not shown to anyone, requests that would change a room are
// answered `unavailable` at once and change nothing, and /metrics says the journal is failing. When the
// lock goes, the retry commits and the held state goes out; play resumes.
import test from 'node:test';
import path from 'node:path';
import { assert, createRoom, holdWriteLock, joinRoom, parseMetrics, sleep, until, withServer } from './lib.mjs';

const lastState = (c, room) => c.messages.findLast((m) => m.type === 'state' && m.room === room);

test('a failing journal: nothing unsaved is shown, changes are refused with unavailable, play resumes after', { timeout: 60000 }, () => withServer(async (srv) => {
  const [a, b, w] = [await srv.player('Ana'), await srv.player('Ben'), await srv.player('Watcher')];
  const room = (await createRoom(a, 'ur')).id;
  await joinRoom(a, room, { seat: 0 });
  await joinRoom(b, room, { seat: 1 });
  await w.request({ type: 'watch', room });
  await until(() => lastState(w, room)?.status === 'playing', { what: 'the match started' });
  const x = await srv.player('Xena'); // before: her hello is a journal write too
  const release = await holdWriteLock(path.join(srv.dir, 'q.db'));
  let released = false;
  try {
    await a.send({ type: 'act', room, ply: 0, action: { roll: true } }); // accepted, journalled, held
    const failing = async () => parseMetrics(await (await fetch(`${srv.url}/metrics`)).text()).quinteto_journal_failing;
    await until(async () => (await failing()) === 1, { timeoutMs: 20000, what: 'the journal reported failing' });
    for (const c of [a, b, w]) assert.equal(lastState(c, room).ply, 0, `${c.label} saw no unsaved state`);
    // A connection that follows nothing hears the refusal at once...
    for (const msg of [{ type: 'create', game: 'ur' }, { type: 'join', room }, { type: 'add_bot', room }]) {
      const e = await x.request({ ...msg, id: `x-${msg.type}` }, 3000);
      assert.equal(e.code, 'unavailable', `${msg.type} while failing`);
      assert.match(e.message, /cannot save to its database right now; try again/);
    }
    // A hello that would create a player is refused too (it must be saved before its welcome)...
    const y = await srv.connect({ label: 'Yann' });
    const refusedHello = await y.request({ type: 'hello', name: 'Yann' }, 3000);
    assert.equal(refusedHello.code, 'unavailable', 'a new player while failing');
    const ready = await srv.http('/readyz');
    assert.equal(ready.status, 503);
    assert.equal(ready.json.status, 'unavailable');
    assert.equal(ready.json.reasons[0].code, 'storage_unavailable');
    assert.match(ready.json.reasons[0].message, /locked by another process/);
    // ...the room's members hear theirs after the unsaved state held before it (their order is kept).
    await b.send({ type: 'resign', room, id: 'b-resign' });
    await w.send({ type: 'join', room, id: 'w-join' });
    await w.send({ type: 'chat', room, text: 'during the outage', id: 'w-chat' });
    await sleep(300);
    for (const c of [a, b, w]) assert.equal(lastState(c, room).ply, 0, `${c.label} still saw no unsaved state`);
    await release();
    released = true;
    for (const c of [a, b, w]) await c.nextState(room, (s) => s.ply === 1, 20000); // the held state, once saved
    assert.equal(await failing(), 0);
    assert.deepEqual((await srv.http('/readyz')).json, { status: 'ok', reasons: [] }, 'ready again');
    assert.equal((await y.request({ type: 'hello', name: 'Yann' }, 5000)).type, 'welcome', 'the refused hello, again');
    for (const [c, id] of [[b, 'b-resign'], [w, 'w-join'], [w, 'w-chat']]) {
      const e = await c.next((m) => m.id === id, 5000, id);
      assert.equal(e.code, 'unavailable');
      const held = c.messages.findIndex((m) => m.type === 'state' && m.room === room && m.ply === 1);
      assert.ok(c.messages.indexOf(e) > held, `${id}: after the state queued before it`);
    }
    const st = lastState(a, room);
    assert.equal(st.status, 'playing', 'the refused resign changed nothing');
    for (const c of [a, b, w]) assert.ok(!c.messages.some((m) => m.type === 'chat'), `${c.label}: the refused chat was not sent`);
    assert.equal(lastState(w, room).seats.filter((s) => s.bot).length, 0, 'no bot was added');
    const actor = st.to_act[0] === 0 ? a : b;
    const mine = lastState(actor, room);
    await actor.send({ type: 'act', room, ply: mine.ply, action: mine.legal[0] });
    await a.nextState(room, (s) => s.ply === 2, 10000); // play resumes
  } finally {
    if (!released) await release();
  }
}));

// GET /api/rooms shows what the rooms hold in memory: like a frame, its answer waits until the journal has
// it, so an HTTP reader never sees a ply that a restart could take back.
test('a failing journal: GET /api/rooms waits for the commit instead of showing an unsaved ply', { timeout: 60000 }, () => withServer(async (srv) => {
  const [a, b] = [await srv.player('Ana'), await srv.player('Ben')];
  const room = (await createRoom(a, 'ur')).id;
  await joinRoom(a, room, { seat: 0 });
  await joinRoom(b, room, { seat: 1 });
  await until(() => lastState(a, room)?.status === 'playing', { what: 'the match started' });
  const plyOf = async (res) => (await res.json()).rooms.find((r) => r.id === room).ply;
  assert.equal(await plyOf(await fetch(`${srv.url}/api/rooms`)), 0, 'answered at once when all is saved');
  const release = await holdWriteLock(path.join(srv.dir, 'q.db'));
  let released = false;
  try {
    await a.send({ type: 'act', room, ply: 0, action: { roll: true } }); // accepted, journalled, held
    const failing = async () => parseMetrics(await (await fetch(`${srv.url}/metrics`)).text()).quinteto_journal_failing;
    await until(async () => (await failing()) === 1, { timeoutMs: 20000, what: 'the journal reported failing' });
    let answer = null;
    const pending = fetch(`${srv.url}/api/rooms`).then(async (res) => { answer = await plyOf(res); });
    await sleep(500);
    assert.equal(answer, null, `no answer while the ply it would show is unsaved (got ply ${answer})`);
    await release();
    released = true;
    await pending;
    assert.equal(answer, 1, 'the saved ply, once saved');
  } finally {
    if (!released) await release();
  }
}));
