// Clocks and absent players (issue 13, sections 1 and 2; protocol.md, Clocks and absent players):
// a seat whose clock runs out forfeits in every game (a Quinteto hunter is eliminated and play goes
// on; the arranger is arranged for, keeping its chain, by the server as a stand-in); banks survive a
// SIGKILL; an absent player's seat is played by a stand-in after the grace period and taken back
// with a `join`; the archive says who played what, `quinteto verify` re-derives every match and the
// player's record counts an abandoned seat. Short clocks and generous waits: the machine is shared.
import test from 'node:test';
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Server, assert, autoplay, createRoom, joinRoom, seatedPair as pair, sleep, until, watchRoom, withServer } from './lib.mjs';

const lastState = (c, room) => c.messages.findLast((m) => m.type === 'state' && m.room === room);

async function verifyArchive(srv, room) {
  const archive = await srv.archive(room, { timeoutMs: 15000 });
  const file = path.join(srv.dir, `${room}.json`);
  await writeFile(file, JSON.stringify(archive));
  const out = execFileSync(process.env.QUINTETO_CLI, ['verify', file], { encoding: 'utf8' });
  assert.match(out, /^verified: /, 'quinteto verify re-derives the match');
  return archive;
}

test('options.clock and the stand-in options are checked: bad shapes and ranges are bad_options', { timeout: 60000 }, async () => {
  await withServer({}, async (srv) => {
    const a = await srv.player('Ana');
    for (const clock of [5, 'fast', {}, { per_action_ms: 99 }, { per_action_ms: 86400001 }, { per_action_ms: 500, bank_ms: 500 },
      { bank_ms: 1000, increment_ms: -1 }, { increment_ms: 100 }, { bank_ms: 1000, extra: 1 }, { per_action_ms: 1.5 }]) {
      const r = await a.request({ type: 'create', game: 'ur', options: { clock } });
      assert.equal(r.type, 'error', `clock ${JSON.stringify(clock)} is refused`);
      assert.equal(r.code, 'bad_options');
    }
    for (const options of [{ stand_in_after_ms: -1 }, { stand_in_after_ms: 'soon' }, { stand_in_level: 'genius' },
      { stand_in_level: 'Greedy' } /* levels are exact, lower-case names */, { stand_in_level: 7 }]) {
      const r = await a.request({ type: 'create', game: 'ur', options });
      assert.equal(r.code, 'bad_options', `${JSON.stringify(options)} is refused`);
    }
    assert.deepEqual((await a.request({ type: 'rooms' })).rooms, [], 'nothing was created');
    const ok = await createRoom(a, 'super15', { clock: { bank_ms: 60000, increment_ms: 2000 }, stand_in_after_ms: null });
    assert.deepEqual(ok.options, { clock: { bank_ms: 60000, increment_ms: 2000 }, stand_in_after_ms: 0 });
    const st = await watchRoom(a, ok.id);
    assert.deepEqual(st.options, { clock: { bank_ms: 60000, increment_ms: 2000 }, stand_in_after_ms: 0, stand_in_level: null, idle_after_ms: 0 },
      'a room with a clock has no idle limit: the clock limits each turn');
    const plain = await watchRoom(a, (await createRoom(a, 'laquet')).id);
    assert.deepEqual(plain.options, { autoroll: false, clock: null, stand_in_after_ms: 30000, stand_in_level: null, idle_after_ms: 300000 },
      'no clock by default; stand-ins after 30 s; the server\'s idle limit');
  });
});

for (const game of ['ur', 'laquet', 'super15']) {
  test(`${game}: the seat whose clock runs out forfeits; state carries the clocks`, { timeout: 60000 }, async () => {
    await withServer({}, async (srv) => {
      const { a, room, st } = await pair(srv, game, { clock: { per_action_ms: 500 }, stand_in_after_ms: 0 });
      const t0 = Date.now();
      const late = st.to_act[0];
      assert.equal(st.to_act.length, 1);
      const clock = st.seats[late].clock;
      assert.equal(clock.remaining_ms, 500);
      assert.equal(typeof clock.running_since, 'number', 'the seat to act has its clock running');
      assert.ok(Math.abs(clock.running_since - t0) < 3000, 'since a server time close to now');
      assert.deepEqual(st.seats[1 - late].clock, { remaining_ms: 500, running_since: null });
      const fin = await a.nextState(room, (s) => s.status === 'finished', 20000);
      assert.ok(Date.now() - t0 >= 400, 'not before its time');
      assert.equal(fin.result.reason, 'forfeit');
      assert.equal(fin.result.winner, 1 - late);
      assert.equal(fin.ply, 0, 'nobody acted');
      const archive = await verifyArchive(srv, room);
      assert.deepEqual(archive.events.map((e) => [e.kind, e.seat, e.ply]), [['forfeit', late, 0]]);
    });
  });
}

test('ur: a Fischer bank loses the time used and gains the increment per action', { timeout: 60000 }, async () => {
  await withServer({}, async (srv) => {
    const { a, b, room, st } = await pair(srv, 'ur', { clock: { bank_ms: 5000, increment_ms: 1000 }, stand_in_after_ms: 0 });
    const seat = st.to_act[0];
    const me = seat === 0 ? a : b;
    const mine = lastState(me, room);
    assert.ok(mine.legal.length > 0);
    const since = mine.seats[seat].clock.running_since; // server time, the same machine's clock as Date.now()
    await sleep(700);
    const mark = me.mark();
    me.send({ type: 'act', room, ply: mine.ply, action: mine.legal[0] });
    const after = await me.next((m) => m.type === 'state' && m.room === room && m.ply === mine.ply + 1, 5000);
    const took = Date.now() - since; // the turn's real length, however late a loaded machine ran the sleep
    assert.ok(me.mark() > mark);
    const left = after.seats[seat].clock.remaining_ms;
    assert.ok(left >= 5000 + 1000 - took - 50 && left <= 5000 + 1000 - 700 + 50,
      `the bank after 0.7 s (${took} ms in all) and one action is about 5.3 s, not ${left}`);
  });
});

test('quinteto: a hunter out of time is eliminated and the hunt goes on', { timeout: 60000 }, async () => {
  await withServer({}, async (srv) => {
    const a = await srv.player('Ana');
    const room = (await createRoom(a, 'quinteto', { clock: { per_action_ms: 600 }, max_turns: 10, stand_in_after_ms: 0 })).id;
    await joinRoom(a, room, { seat: 0 });
    for (let s = 1; s < 6; s++) await a.request({ type: 'add_bot', room, seat: s, level: 'greedy' });
    const fin = await a.nextState(room, (s) => s.status === 'finished', 45000);
    const archive = await verifyArchive(srv, room);
    const forfeits = archive.events.filter((e) => e.kind === 'forfeit');
    assert.deepEqual(forfeits.map((e) => e.seat), [0], 'Ana forfeits once');
    assert.ok(archive.actions.some((x) => x.ply > forfeits[0].ply), 'and the others play on after it');
    assert.ok(fin.view.victim[0] === null, 'her hunter is out');
    assert.ok(!archive.actions.some((x) => x.stand_in), 'no stand-in played');
  });
});

test('quinteto: the arranger out of time is arranged for, keeping the chain, and does not forfeit', { timeout: 60000 }, async () => {
  await withServer({}, async (srv) => {
    const a = await srv.player('Ana');
    const room = (await createRoom(a, 'quinteto', { clock: { per_action_ms: 500 }, max_turns: 10, stand_in_after_ms: 0 })).id;
    await joinRoom(a, room, { seat: 5 });
    for (let s = 0; s < 5; s++) await a.request({ type: 'add_bot', room, seat: s, level: 'greedy' });
    const first = await a.nextState(room, (s) => s.ply === 1, 20000);
    assert.deepEqual(first.last, { ...first.last, seat: 5, action: { arrange: [0, 1, 2, 3, 4] } },
      'the first arrangement: the living hunters in seat order');
    await a.nextState(room, (s) => s.status === 'finished', 45000);
    const archive = await verifyArchive(srv, room);
    assert.deepEqual(archive.actions[0], { ...archive.actions[0], seat: 5, stand_in: true });
    assert.ok(!archive.events.some((e) => e.seat === 5 && e.ply === 0), 'no forfeit for the arrangement');
    const shown = execFileSync(process.env.QUINTETO_CLI, ['show', '--file', path.join(srv.dir, `${room}.json`), '--ply', '1'], { encoding: 'utf8' });
    assert.match(shown, /^last: .* played \{"arrange":\[0,1,2,3,4\]\} \(by a stand-in\)$/m, 'quinteto show says who played it');
    let chain = [0, 1, 2, 3, 4];
    for (const x of archive.actions) {
      if (x.seat !== 5 || !x.action.arrange) continue;
      assert.equal(x.stand_in, true, `ply ${x.ply}: the server arranged, as a stand-in`);
      assert.deepEqual(x.action.arrange, chain.filter((s) => x.action.arrange.includes(s)), `ply ${x.ply}: the chain is kept`);
      chain = x.action.arrange;
    }
  });
});

test('clocks resume after a SIGKILL with the bank each seat had, not a fresh one', { timeout: 90000 }, async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'quinteto-clock-kill-'));
  try {
    let tokens, room, seat, floor;
    {
      const srv = await Server.start({ dir });
      const p = await pair(srv, 'ur', { clock: { bank_ms: 6000 }, stand_in_after_ms: 0 });
      room = p.room;
      tokens = [p.a.welcome.token, p.b.welcome.token];
      seat = p.st.to_act[0];
      const me = seat === 0 ? p.a : p.b;
      const since = p.st.seats[seat].clock.running_since; // server time, the same machine's clock as Date.now()
      await sleep(3000); // three seconds of the bank spent thinking
      let st = lastState(me, room);
      while (st.status === 'playing' && st.to_act.includes(seat)) {
        if (!st.legal.length) { st = await me.nextState(room, (s) => s.ply > st.ply || s.legal.length > 0); continue; }
        me.send({ type: 'act', room, ply: st.ply, action: st.legal[0] });
        st = await me.nextState(room, (s) => s.ply > st.ply);
      }
      // The seat spent at least its 3 s and at most the turn's real length (longer on a loaded machine).
      floor = 6000 - (Date.now() - since) - 50;
      const left = st.seats[seat].clock.remaining_ms;
      assert.ok(left < 3300 && left >= floor, `about 3 s left before the kill (at least ${floor}), not ${left}`);
      srv.proc.kill('SIGKILL');
      await srv.exited;
    }
    const srv = await Server.start({ dir });
    try {
      const cs = [];
      for (const token of tokens) {
        const c = await srv.connect();
        await c.request({ type: 'hello', name: 'Again', token });
        cs.push(c);
      }
      const st = await cs[0].nextState(room);
      const left = st.seats[seat].clock.remaining_ms;
      assert.ok(left < 3300 && left >= floor, `the bank carried over: about 3 s (at least ${floor}), not ${left}`);
      assert.equal(st.seats[seat].clock.running_since, null);
      assert.equal(typeof st.seats[1 - seat].clock.running_since, 'number', 'the other seat\'s clock runs');
      // The other plays on until it is the first seat's turn again; that seat then runs out.
      const other = autoplay(cs[1 - seat], room, { since: 0, choose: (s) => (s.to_act.includes(seat) ? null : s.legal[0]) });
      const turn = await cs[0].nextState(room, (s) => s.status !== 'playing' || s.seats[seat].clock.running_since !== null, 20000);
      const fin = await cs[0].nextState(room, (s) => s.status === 'finished', 20000);
      other.stop();
      assert.equal(turn.status, 'playing');
      assert.equal(turn.seats[seat].clock.remaining_ms, left, 'its clock runs from the bank it had');
      assert.equal(fin.result.reason, 'forfeit');
      assert.equal(fin.result.winner, 1 - seat);
      const archive = await verifyArchive(srv, room);
      // The server's own times (the test's would add however late a loaded machine delivered the states).
      const forfeit = archive.events.find((e) => e.kind === 'forfeit');
      assert.ok(forfeit, JSON.stringify(archive.events));
      const took = forfeit.at - turn.seats[seat].clock.running_since;
      assert.ok(took < 5500, `it ran out after the ~3 s it had left, not a fresh 6 s (${took} ms)`);
    } finally {
      await srv.stop();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

// Grace periods under the 5 s minimum of a new room: the test-only --stand-in-min-ms (docs/HOSTING.md).
const shortStandIns = { args: ['--stand-in-min-ms', '0'] };

test('a player drops mid-turn: a stand-in plays after the grace period; the player takes the seat back', { timeout: 90000 }, async () => {
  await withServer(shortStandIns, async (srv) => {
    const { a, b, room, st } = await pair(srv, 'ur', { stand_in_after_ms: 800, stand_in_level: 'random' });
    const w = await srv.player('Watcher');
    await watchRoom(w, room);
    const seat = st.to_act[0];
    const [gone, stay] = seat === 0 ? [a, b] : [b, a];
    const token = gone.welcome.token;
    const bruno = autoplay(stay, room, { since: 0 });
    const t0 = Date.now();
    gone.terminate();
    const away = await w.nextState(room, (s) => s.seats[seat].connected === false, 5000);
    assert.ok(Date.now() - t0 < 2000, 'connected:false at once');
    assert.equal(away.seats[seat].stand_in, false, 'no stand-in during the grace period');
    const standIn = await w.nextState(room, (s) => s.seats[seat].stand_in === true, 10000);
    assert.ok(Date.now() - t0 >= 700, 'the stand-in waits for the grace period');
    // The stand-in plays a few of the seat's actions.
    await w.nextState(room, (s) => s.ply >= standIn.ply + 6 || s.status === 'finished', 30000);
    const name = seat === 0 ? 'Ana' : 'Bruno';
    const back = await srv.connect();
    await back.request({ type: 'hello', name, token });
    const mine = await back.nextState(room);
    assert.deepEqual([mine.seats[seat].stand_in, mine.seats[seat].connected], [false, true],
      'issue 19: the reconnection itself takes the seat back');
    const again = await back.request({ type: 'join', room });
    assert.equal(again.code, 'already_seated', 'a join after that is an error: the seat is the player\'s already');
    const fin = await autoplay(back, room, { since: 0 }).done;
    await bruno.done;
    assert.equal(fin.status, 'finished');
    const archive = await verifyArchive(srv, room);
    const by = archive.actions.filter((x) => x.seat === seat);
    const cut = by.findIndex((x) => x.stand_in);
    assert.ok(cut >= 0, 'the stand-in\'s actions are marked');
    assert.ok(by.slice(cut).some((x) => !x.stand_in), 'the player\'s own actions after the return are not');
    assert.ok(!archive.actions.some((x) => x.seat !== seat && x.stand_in), 'the other seat played for itself');
    const rec = await srv.getJson(`/api/players/${name}`);
    assert.equal(rec.abandoned, 0, 'the player came back: not abandoned');
  });
});

test('a seat left to its stand-in for the rest of the match counts as abandoned in the player\'s record', { timeout: 90000 }, async () => {
  await withServer(shortStandIns, async (srv) => {
    const a = await srv.player('Ana');
    const b = await srv.player('Bruno');
    const room = (await createRoom(a, 'ur', { stand_in_after_ms: 300 })).id;
    await joinRoom(a, room, { seat: 0 });
    await joinRoom(b, room, { seat: 1 });
    a.terminate();
    const fin = await autoplay(b, room, { since: 0 }).done;
    assert.equal(fin.status, 'finished');
    const archive = await verifyArchive(srv, room);
    assert.ok(archive.actions.filter((x) => x.seat === 0).every((x) => x.stand_in), 'every one of Ana\'s actions is a stand-in\'s');
    const ana = await srv.getJson('/api/players/Ana');
    assert.equal(ana.abandoned, 1);
    assert.equal(ana.games.ur.abandoned, 1);
    const bruno = await srv.getJson('/api/players/Bruno');
    assert.equal(bruno.abandoned, 0);
  });
});
