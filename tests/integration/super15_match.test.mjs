// super15_match.test.mjs: whole Super 1 al 5 matches against the real server: two humans choosing
// among `legal` with a watcher, and a human against a bot; what every receiver must see in each
// state (the pieces, their squares, values and points, `last.outcome` agreeing with the next view),
// the archive and `quinteto verify` on it; then every kind of bad action, each refused with its
// protocol code and the room left exactly as it was; resignation; options (Super 1 al 5 has none).
// Every frame the server sends is validated against protocol/schema by the harness.

import test from 'node:test';
import { assert, withServer, createRoom, joinRoom, watchRoom } from './lib.mjs';
import { canon, statesOf, withTempDir, verifyFile, playMatch, playAgainstBots } from '../lib/match.mjs';

const FORBIDDEN = new Set(['d5', 'e5', 'd6', 'e6']);
const VALUES = [5, 4, 3, 2, 2, 3, 4, 5, 1, 2, 3, 1, 1, 3, 2, 1];

// The view's own rules: pieces by id, on distinct allowed squares, each with its fixed value and seat.
function checkView(where, view) {
  assert.ok(Number.isInteger(view.quiet) && view.quiet >= 0 && view.quiet <= 100, `${where}: quiet ${view.quiet}`);
  const squares = new Set();
  let last = -1;
  for (const p of view.pieces) {
    assert.ok(p.id > last, `${where}: pieces not sorted by id`);
    last = p.id;
    assert.equal(p.seat, p.id >= 16 ? 1 : 0, `${where}: piece ${p.id} seat`);
    assert.equal(p.value, VALUES[p.id % 16], `${where}: piece ${p.id} value`);
    assert.ok(!FORBIDDEN.has(p.square), `${where}: piece ${p.id} on the forbidden ${p.square}`);
    assert.ok(!squares.has(p.square), `${where}: two pieces on ${p.square}`);
    squares.add(p.square);
    if (p.points >= 10) assert.ok(p.super, `${where}: piece ${p.id} has ${p.points} points and is not Super`);
  }
}

// One ply: the outcome of `st.last` against the views before and after it.
function checkPly(where, before, st) {
  const { action, outcome, seat } = st.last;
  const was = new Map(before.view.pieces.map((p) => [p.id, p]));
  const now = new Map(st.view.pieces.map((p) => [p.id, p]));
  const mover = was.get(outcome.piece);
  assert.ok(mover && mover.seat === seat && mover.square === action.from, `${where}: the moved piece stood on ${action.from}`);
  assert.equal(now.get(outcome.piece).square, action.to, `${where}: the moved piece stands on ${action.to}`);
  let gained = 0;
  for (const c of outcome.captured) {
    const p = was.get(c.id);
    assert.ok(p && p.seat !== seat, `${where}: captured ${c.id} was an enemy on the board`);
    assert.deepEqual([c.square, c.value, c.points, c.super], [p.square, p.value, p.points, p.super], `${where}: captured ${c.id} as it was`);
    assert.ok(!now.has(c.id), `${where}: captured ${c.id} still listed`);
    gained += c.value + c.points;
  }
  assert.equal(outcome.gained, gained, `${where}: gained is the captured values plus their points`);
  assert.equal(now.get(outcome.piece).points, mover.points + gained, `${where}: points added`);
  assert.equal(outcome.promoted, !mover.super && now.get(outcome.piece).super, `${where}: promoted`);
  assert.equal(st.view.pieces.length, before.view.pieces.length - outcome.captured.length, `${where}: pieces count`);
  assert.equal(st.view.quiet, outcome.captured.length ? 0 : Math.min(before.view.quiet + 1, 100), `${where}: quiet`);
  for (const [id, p] of now) if (was.has(id)) assert.ok(p.points >= was.get(id).points, `${where}: points of ${id} went down`);
}

// Checks the states one client received for a room, in order; returns actions[p] = the `last` of ply p+1.
function checkStates(label, states, { seat }) {
  const actions = [];
  let prev = null;
  assert.ok(states.length > 0, `${label}: no state received`);
  for (const [i, st] of states.entries()) {
    const where = `${label}, state #${i} (ply ${st.ply}, ${st.status})`;
    assert.equal(st.game, 'super15', where);
    // no options of its own; the three every game has (issue 13), defaults filled in
    assert.deepEqual(st.options, { clock: null, stand_in_after_ms: 30000, stand_in_level: null, idle_after_ms: 300000 }, `${where}: options`);
    checkView(where, st.view);
    if (st.status === 'playing') assert.equal(st.to_act.length, 1, `${where}: to_act ${JSON.stringify(st.to_act)}`);
    else assert.deepEqual(st.to_act, [], `${where}: to_act must be [] unless playing`);
    const mine = seat !== null && st.status === 'playing' && st.to_act.includes(seat);
    if (mine) assert.ok(st.legal.length > 0, `${where}: the seat to act got no legal actions`);
    else assert.deepEqual(st.legal, [], `${where}: legal must be [] for ${seat === null ? 'a watcher' : 'a seat not to act'}`);
    assert.equal(new Set(st.legal.map(canon)).size, st.legal.length, `${where}: legal has duplicates`);
    for (const a of st.legal) assert.ok(!FORBIDDEN.has(a.to), `${where}: a legal move ends on ${a.to}`);
    if (st.status === 'finished') assert.ok(st.result, `${where}: finished without a result`);
    else assert.equal(st.result, null, `${where}: result before the end`);
    if (prev && st.ply === prev.ply + 1) {
      if (prev.legal.length)
        assert.ok(prev.legal.map(canon).includes(canon(st.last.action)), `${where}: ${canon(st.last.action)} was not legal`);
      checkPly(where, prev, st);
      actions[prev.ply] = st.last;
    } else if (prev) {
      assert.equal(st.ply, prev.ply, `${where}: ply jumped from ${prev.ply}`);
    }
    prev = st;
  }
  return actions;
}

// How the match ended, from the final view and result.
function checkEnd(final) {
  const count = [0, 1].map((s) => final.view.pieces.filter((p) => p.seat === s).length);
  const points = [0, 1].map((s) => final.view.pieces.filter((p) => p.seat === s).reduce((t, p) => t + p.points, 0));
  const r = final.result;
  assert.equal(r.draw, r.winner === null, 'winner is null exactly on a draw');
  if (r.reason === 'last_piece') {
    assert.ok(count[1 - r.winner] <= 1, `the loser keeps ${count[1 - r.winner]} pieces`);
    assert.equal(final.last.seat, r.winner, 'the winner made the last move');
  } else if (r.reason === 'adjudication') {
    assert.ok(final.view.quiet === 100 || (final.view.quiet >= 20 && count[0] === count[1] && count[0] <= 3),
      `adjudicated with quiet ${final.view.quiet} and counts ${count}`);
    if (r.draw) assert.equal(points[0], points[1]);
    else assert.ok(points[r.winner] > points[1 - r.winner], `the winner has more points (${points})`);
  } else {
    assert.fail(`unexpected reason ${r.reason}`);
  }
}

// The archive as the states showed the match, then `quinteto verify` on it and on a tampered copy.
async function checkArchive(srv, id, final, actions, seats) {
  const arch = await srv.archive(id);
  assert.equal(arch.game, 'super15');
  assert.deepEqual(arch.options, {});
  assert.deepEqual(arch.seats, seats);
  assert.deepEqual(arch.result, final.result);
  assert.equal(arch.actions.length, final.ply);
  for (const [i, a] of arch.actions.entries()) {
    assert.equal(a.ply, i);
    assert.deepEqual([a.seat, a.action, a.outcome], [actions[i].seat, actions[i].action, actions[i].outcome], `ply ${i}`);
  }
  await withTempDir('quinteto-super15-', async (dir) => {
    const ok = await verifyFile(dir, 'match.json', arch);
    assert.equal(ok.code, 0, `verify exit ${ok.code}\n${ok.stdout}${ok.stderr}`);
    assert.match(ok.stdout + ok.stderr, /verified/);
    const bad = structuredClone(arch);
    const k = bad.actions.findIndex((x) => x.outcome.captured.length > 0);
    bad.actions[k].outcome.gained += 1;
    const r = await verifyFile(dir, 'tampered.json', bad);
    assert.equal(r.code, 1, `tampered outcome: verify exit ${r.code}\n${r.stdout}${r.stderr}`);
  });
  return arch;
}

test('two players play a Super 1 al 5 match to the end by choosing among legal; a third watches', { timeout: 120000 }, async () => {
  await withServer({ args: ['--rate', '1000000', '--burst', '1000000'] }, async (srv) => {
    const {
      id, room, w0, players: [a, b], w, plays: [playA, playB], joins: [, jb], finals: [finalA, finalB], finalW,
    } = await playMatch(srv, 'super15', { watcher: 'Wanda' });
    assert.deepEqual(room.options, {});
    assert.deepEqual(room.seats.map((s) => [s.seat, s.role]), [[0, 'light'], [1, 'dark']]);
    assert.equal(w0.view.pieces.length, 32);
    assert.deepEqual(w0.view.pieces.slice(0, 3).map((p) => [p.id, p.square, p.value]), [[0, 'a1', 5], [1, 'b1', 4], [2, 'c1', 3]]);
    assert.equal(jb.state.status, 'playing');
    assert.deepEqual(playA.errors, [], 'A got no error');
    assert.deepEqual(playB.errors, [], 'B got no error');

    const firstA = statesOf(a, id).find((s) => s.status === 'playing');
    assert.equal(firstA.legal.length, 36, 'the opening offers 36 moves');
    const seen = checkStates('watcher', statesOf(w, id), { seat: null });
    const seenA = checkStates('A', statesOf(a, id), { seat: 0 });
    const seenB = checkStates('B', statesOf(b, id), { seat: 1 });
    const n = finalW.ply;
    for (let p = 0; p < n; p++) assert.ok(seen[p], `the watcher missed ply ${p}`);
    assert.deepEqual(seenA, seen, 'A saw the same moves as the watcher');
    assert.deepEqual(seenB, seen, 'B saw the same moves as the watcher');
    assert.equal(playA.sent.length + playB.sent.length, n, 'every act sent was accepted, one ply each');
    for (const f of [finalA, finalB, finalW]) {
      assert.equal(f.status, 'finished');
      assert.equal(f.ply, n);
      assert.deepEqual(f.result, finalW.result);
    }
    checkEnd(finalW);
    assert.ok(seen.some((x) => x.outcome.captured.length > 0), 'pieces were captured');
    await checkArchive(srv, id, finalW, seen, [
      { seat: 0, role: 'light', name: 'Ana', bot: false }, { seat: 1, role: 'dark', name: 'Bruno', bot: false }]);
  });
});

test('a player plays a whole match against a bot; the archive verifies', { timeout: 120000 }, async () => {
  await withServer({ args: ['--rate', '1000000', '--burst', '1000000'] }, async (srv) => {
    const { a, id, play, final } = await playAgainstBots(srv, 'super15', { seat: 1 });
    assert.deepEqual(play.errors, []);
    const seen = checkStates('Vera', statesOf(a, id), { seat: 1 });
    checkEnd(final);
    const arch = await checkArchive(srv, id, final, seen, [
      { seat: 0, role: 'light', name: arch0Name(a, id), bot: true }, { seat: 1, role: 'dark', name: 'Vera', bot: false }]);
    assert.ok(arch.actions.some((x) => x.seat === 0) && arch.actions.some((x) => x.seat === 1), 'both seats moved');
  });
});

// The bot's name as the room's states show it.
function arch0Name(c, id) {
  const st = statesOf(c, id).at(-1);
  return st.seats[0].name;
}

// A fresh state of the room (the watcher re-watches): what a refusal must leave unchanged.
async function snapshot(w, id) {
  const r = await w.request({ type: 'watch', room: id });
  assert.equal(r.type, 'watching');
  return w.nextState(id);
}

// Sends `msg` from `c`, expects an error with `code` and its id, and the room unchanged (no state went out).
async function refused(ctx, c, msg, code) {
  const before = await snapshot(ctx.w, ctx.id);
  const marks = [ctx.a, ctx.b].map((x) => x.mark());
  const reply = await c.request(msg);
  assert.equal(reply.type, 'error', `${JSON.stringify(msg)}: answered ${JSON.stringify(reply)}`);
  assert.equal(reply.code, code, `${JSON.stringify(msg.action ?? msg)}: code`);
  const after = await snapshot(ctx.w, ctx.id);
  assert.deepEqual(after, before, `${JSON.stringify(msg.action ?? msg)}: the room changed`);
  for (const [k, x] of [ctx.a, ctx.b].entries())
    assert.equal(x.statesSince(marks[k], ctx.id).length, 0, 'no state was broadcast');
}

test('bad actions: illegal_action, not_your_turn, stale_ply, game_over, each leaving the room as it was', { timeout: 60000 }, async () => {
  await withServer({ args: ['--rate', '1000000', '--burst', '1000000'] }, async (srv) => {
    const a = await srv.player('Alice');
    const b = await srv.player('Bob');
    const w = await srv.player('Watcher');
    const { id } = await createRoom(a, 'super15');
    await joinRoom(a, id, { seat: 0 });
    const { state } = await joinRoom(b, id, { seat: 1 });
    assert.deepEqual(state.to_act, [0]);
    await watchRoom(w, id);
    const ctx = { a, b, w, id };
    const act = (action, ply = 0) => ({ type: 'act', room: id, ply, action });
    // Not one of the game's shapes.
    for (const action of [{}, { from: 'a2' }, { to: 'a3' }, { from: 'a2', to: 'a3', x: 1 }, { from: 'a2', too: 'a3' },
      { from: 'i2', to: 'a3' }, { from: 'a0', to: 'a3' }, { from: 'a11', to: 'a3' }, { from: 'a02', to: 'a3' },
      { from: 'A2', to: 'a3' }, { from: 8, to: 16 }, { from: 'a2', to: null }, { from: ['a2'], to: 'a3' }, { roll: true },
      { from: 'a2 ', to: 'a3' }, { from: '', to: '' }])
      await refused(ctx, a, act(action), 'illegal_action');
    // The right shape, not legal here.
    for (const action of [
      { from: 'a2', to: 'a4' }, // beyond a 1's range
      { from: 'c2', to: 'c6' }, // beyond a 3's range
      { from: 'a1', to: 'a3' }, // a 5 walled in by its own rank 2
      { from: 'b2', to: 'c2' }, // onto its own piece
      { from: 'b2', to: 'c4' }, // not on a line
      { from: 'a3', to: 'a4' }, // an empty square
      { from: 'a9', to: 'a8' }, // the other seat's piece
      { from: 'b2', to: 'b2' }, // not a move
    ])
      await refused(ctx, a, act(action), 'illegal_action');
    await refused(ctx, b, act({ from: 'a9', to: 'a8' }), 'not_your_turn');
    await refused(ctx, w, act({ from: 'a2', to: 'a3' }), 'not_in_room');
    // Light's c2 goes to e4; Dark answers; then e4 may not stop on the forbidden e5 but may pass it.
    const step = async (c, action) => {
      const { ply } = await snapshot(w, id);
      await c.send(act(action, ply));
      const st = await c.nextState(id, (s) => s.ply === ply + 1, 5000);
      await w.nextState(id, (s) => s.ply === ply + 1, 5000);
      a.drain(); b.drain(); w.drain();
      return st;
    };
    await step(a, { from: 'c2', to: 'e4' });
    await refused(ctx, a, act({ from: 'a2', to: 'a3' }, 1), 'not_your_turn');
    await refused(ctx, b, act({ from: 'a9', to: 'a8' }, 2), 'stale_ply'); // a ply still to come
    await step(b, { from: 'a9', to: 'a8' });
    await refused(ctx, b, act({ from: 'a9', to: 'a8' }, 1), 'stale_ply'); // its own second send
    await refused(ctx, a, act({ from: 'e4', to: 'e5' }, 2), 'illegal_action');
    await refused(ctx, a, act({ from: 'e4', to: 'e6' }, 2), 'illegal_action');
    const st = await step(a, { from: 'e4', to: 'e7' });
    assert.deepEqual(st.last.outcome, { piece: 10, captured: [], gained: 0, promoted: false });
    assert.equal(st.view.pieces.find((p) => p.id === 10).square, 'e7');
    // Dark resigns: Light wins.
    a.drain(); b.drain(); w.drain();
    const r = await b.request({ type: 'resign', room: id });
    assert.equal(r.type, 'resigned');
    const fin = await w.nextState(id, (s) => s.status === 'finished');
    assert.deepEqual(fin.result, { winner: 0, draw: false, reason: 'resign' });
    assert.equal(fin.ply, 3);
    await refused(ctx, a, act({ from: 'e7', to: 'e8' }, 3), 'game_over');
    const arch = await srv.archive(id);
    assert.deepEqual(arch.result, fin.result);
    assert.deepEqual(arch.events.map((e) => [e.ply, e.seat, e.kind]), [[3, 1, 'resign']]);
  });
});

test('Super 1 al 5 has no options', { timeout: 30000 }, async () => {
  await withServer(async (srv) => {
    const a = await srv.player('Olga');
    for (const options of [{ autoroll: true }, { autoroll: false }, { max_turns: 100 }, { x: 1 }, [], 3]) {
      const r = await a.request({ type: 'create', game: 'super15', options });
      assert.equal(r.type, 'error', JSON.stringify(options));
      assert.equal(r.code, 'bad_options', JSON.stringify(options));
    }
    const ok = await createRoom(a, 'super15', {});
    assert.deepEqual(ok.options, {});
  });
});
