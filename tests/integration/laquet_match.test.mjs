// laquet_match.test.mjs: whole Laquet matches against the real server: two humans choosing among
// `legal` with a watcher, a human against a bot with autoroll, the state invariants every receiver
// must see (fifteen men a side, never two colours on a point, `dice` and `handed` only in their
// phases), every roll recomputed from the revealed seeds (protocol.md), the archive and `quinteto
// verify` on it (and on a tampered copy), illegal actions of every kind refused with the state
// untouched, and resignation. Every frame is validated against protocol/schema by the harness.

import test from 'node:test';
import { assert, withServer, createRoom, joinRoom, watchRoom } from './lib.mjs';
import { canon, statesOf, diceBytes, d6 as die, withTempDir, verifyFile, playMatch, playAgainstBots, playFirstPlies } from '../lib/match.mjs';

const NO_RATE = { args: ['--rate', '1000000', '--burst', '1000000'] };

// The Laquet view's own invariants.
function checkView(where, st) {
  const v = st.view;
  assert.equal(v.points.length, 18, `${where}: 18 points`);
  let white = v.off.white, black = v.off.black;
  for (const [i, p] of v.points.entries()) {
    assert.ok(!(p.white && p.black), `${where}: route ${i + 1} holds both colours`);
    white += p.white;
    black += p.black;
  }
  assert.equal(white, 15, `${where}: White has 15 men`);
  assert.equal(black, 15, `${where}: Black has 15 men`);
  const kinds = new Set(st.legal.map((a) => Object.keys(a)[0]));
  assert.ok(kinds.size <= 1, `${where}: one kind of action at a time (${[...kinds]})`);
  if (st.legal.length) {
    const kind = [...kinds][0];
    assert.equal(v.dice !== null, kind === 'plan', `${where}: dice ${JSON.stringify(v.dice)} with ${kind}`);
    assert.equal(v.handed.length > 0, kind === 'bonus', `${where}: handed ${JSON.stringify(v.handed)} with ${kind}`);
    if (kind === 'bonus') assert.ok(st.legal.some((a) => a.bonus.length === 0), `${where}: the bonus may be declined`);
    if (kind === 'plan') {
      const n = st.legal[0].plan.length;
      assert.ok(st.legal.every((a) => a.plan.length === n), `${where}: plans of one length (as many dice as possible)`);
    }
  }
  if (st.status === 'finished' && st.result.reason === 'race')
    assert.equal(st.result.winner === 0 ? v.off.white : v.off.black, 15, `${where}: the winner bore off fifteen`);
}

// Checks the states one client received, in order. Returns actions[p] = the `last` of ply p + 1.
// With autoroll a seat whose only action is the roll is sent no `legal`: the server rolls for it.
function checkStates(label, states, { seat, commit, autoroll = false }) {
  const actions = [];
  let prev = null;
  assert.ok(states.length > 0, `${label}: no state received`);
  for (const [i, st] of states.entries()) {
    const where = `${label}, state #${i} (ply ${st.ply}, ${st.status})`;
    assert.equal(st.commit, commit, `${where}: commit changed`);
    assert.equal(st.game, 'laquet', where);
    if (st.status === 'playing') assert.equal(st.to_act.length, 1, `${where}: to_act ${JSON.stringify(st.to_act)}`);
    else assert.deepEqual(st.to_act, [], `${where}: to_act must be [] unless playing`);
    const mine = seat !== null && st.status === 'playing' && st.to_act.includes(seat);
    if (mine) assert.ok(st.legal.length > 0 || autoroll, `${where}: the seat to act got no legal actions`);
    else assert.deepEqual(st.legal, [], `${where}: legal must be [] for ${seat === null ? 'a watcher' : 'a seat not to act'}`);
    assert.equal(new Set(st.legal.map(canon)).size, st.legal.length, `${where}: legal has duplicates`);
    checkView(where, st);
    if (st.status !== 'finished') assert.ok(!('server_seed' in st), `${where}: server_seed revealed before the end`);
    if (prev) {
      const d = st.ply - prev.ply;
      assert.ok(d === 0 || d === 1, `${where}: ply jumped from ${prev.ply} to ${st.ply}`);
      if (d === 1) {
        assert.ok(prev.to_act.includes(st.last.seat), `${where}: last.seat was not to act`);
        if (prev.legal.length)
          assert.ok(prev.legal.map(canon).includes(canon(st.last.action)), `${where}: ${canon(st.last.action)} was not legal`);
        actions[prev.ply] = st.last;
      }
    } else if (st.ply > 0) {
      actions[st.ply - 1] = st.last;
    }
    prev = st;
  }
  return actions;
}

// Recomputes every roll from the revealed seeds: two six-sided dice a roll, bytes >= 252 skipped.
function checkDice(label, seeds, actions) {
  const byte = diceBytes(seeds);
  const d6 = () => die(byte);
  let rolls = 0;
  for (const [i, a] of actions.entries()) {
    if (!a || !a.action.roll) continue;
    assert.deepEqual(a.outcome.dice, [d6(), d6()], `${label}: ply ${i}: dice differ from the stream`);
    if (a.outcome.passed) assert.deepEqual(a.outcome.handed, a.outcome.dice, `${label}: ply ${i}: a pass hands both dice`);
    rolls++;
  }
  return rolls;
}

// Prefers a plan that bears off, then one that moves farthest: matches end sooner than at random.
function racer(st) {
  const score = (a) => {
    const steps = a.plan || a.bonus || [];
    return steps.length * 100 + steps.reduce((s, x) => s + x.from, 0) + Math.random();
  };
  return st.legal.reduce((best, a) => (score(a) > score(best) ? a : best), st.legal[0]);
}

test('two players play a Laquet match to the end by choosing among legal', { timeout: 120000 }, async () => {
  await withServer(NO_RATE, async (srv) => {
    const seedA = 'libro de los juegos', seedB = 'laquet-1283';
    const {
      id, room, w0, commit, players: [a, b], w, plays: [playA, playB], finals: [finalA, finalB], finalW,
    } = await playMatch(srv, 'laquet', { names: ['Alfonso', 'Beatriz'], seeds: [seedA, seedB], choose: [racer] });
    assert.deepEqual(room.seats.map((s) => [s.seat, s.role]), [[0, 'white'], [1, 'black']]);
    assert.deepEqual(w0.view.points[5], { white: 0, black: 14 });
    assert.deepEqual(w0.view.points[17], { white: 1, black: 0 });
    assert.deepEqual(playA.errors, [], 'A got no error');
    assert.deepEqual(playB.errors, [], 'B got no error');

    const seen = checkStates('watcher', statesOf(w, id), { seat: null, commit });
    assert.deepEqual(checkStates('A', statesOf(a, id), { seat: 0, commit }), seen, 'A saw the same actions');
    assert.deepEqual(checkStates('B', statesOf(b, id), { seat: 1, commit }), seen, 'B saw the same actions');
    const n = finalW.ply;
    assert.equal(seen.length, n);
    assert.equal(playA.sent.length + playB.sent.length, n, 'every act sent was accepted, one ply each');
    for (const f of [finalA, finalB, finalW]) {
      assert.equal(f.status, 'finished');
      assert.equal(f.result.reason, 'race');
      assert.ok(f.last.outcome.won, 'the last action won');
      assert.equal(f.last.seat, f.result.winner);
      assert.deepEqual(f.client_seeds, [seedA, seedB]);
    }
    assert.ok(checkDice('states', finalW, seen) > 20);

    const arch = await srv.archive(id);
    assert.equal(arch.game, 'laquet');
    assert.deepEqual(arch.seats.map((s) => [s.role, s.name]), [['white', 'Alfonso'], ['black', 'Beatriz']]);
    assert.deepEqual(arch.result, finalW.result);
    assert.equal(arch.actions.length, n);
    for (const [i, x] of arch.actions.entries()) {
      assert.deepEqual(x.action, seen[i].action, `ply ${i}: action`);
      assert.deepEqual(x.outcome, seen[i].outcome, `ply ${i}: outcome`);
    }
  });
});

test('a person against the greedy bot with autoroll; the archive verifies and a tampered one does not', { timeout: 120000 }, async () => {
  await withTempDir('quinteto-laquet-', async (dir) => {
    await withServer(NO_RATE, async (srv) => {
      const { a, id, room, play } = await playAgainstBots(srv, 'laquet', {
        seat: 1, options: { autoroll: true }, choose: racer, clientSeed: 'verify me', level: 'greedy',
      });
      assert.deepEqual(room.options, { autoroll: true });
      assert.deepEqual(play.errors, []);
      const states = statesOf(a, id);
      checkStates('A', states, { seat: 1, commit: states[0].commit, autoroll: true });
      const rollOnly = states.filter((s) => s.legal.length === 1 && s.legal[0].roll === true);
      assert.equal(rollOnly.length, 0, 'with autoroll the person is never asked to roll with nothing else to do');
      const arch = await srv.archive(id);
      assert.deepEqual(arch.options, { autoroll: true });
      assert.deepEqual(arch.seats.map((s) => s.bot), [true, false]);
      checkDice('archive', arch, arch.actions);

      const ok = await verifyFile(dir, 'match.json', arch);
      assert.equal(ok.code, 0, `verify exit ${ok.code}\n${ok.stdout}${ok.stderr}`);
      assert.match(ok.stdout + ok.stderr, /verified/);

      const bad = structuredClone(arch);
      const k = bad.actions.findIndex((x) => x.action.roll);
      bad.actions[k].outcome.dice[0] = (bad.actions[k].outcome.dice[0] % 6) + 1;
      const r = await verifyFile(dir, 'tampered.json', bad);
      assert.equal(r.code, 1, `tampered dice: verify exit ${r.code}\n${r.stdout}${r.stderr}`);

      const bad2 = structuredClone(arch);
      const p = bad2.actions.findIndex((x) => x.action.plan);
      bad2.actions[p].action = { plan: [...bad2.actions[p].action.plan].reverse().map((s) => ({ ...s, from: 18 })) };
      const r2 = await verifyFile(dir, 'tampered.json', bad2);
      assert.equal(r2.code, 1, `tampered plan: verify exit ${r2.code}\n${r2.stdout}${r2.stderr}`);
    });
  });
});

// A fresh state as a new watcher sees it, without the per-recipient parts.
async function snapshot(srv, id) {
  const w = await srv.player('Snap');
  const st = await watchRoom(w, id);
  w.terminate();
  return { ply: st.ply, view: st.view, to_act: st.to_act, last: st.last };
}

test('illegal actions of every kind get their error and leave the state untouched', { timeout: 60000 }, async () => {
  await withServer(NO_RATE, async (srv) => {
    const a = await srv.player('Alfonso');
    const b = await srv.player('Beatriz');
    const { id } = await createRoom(a, 'laquet');
    await joinRoom(a, id, { seat: 0 });
    const { state } = await joinRoom(b, id, { seat: 1 });
    assert.deepEqual(state.to_act, [0]);
    let nextId = 1;
    const expect = async (c, ply, action, code) => {
      const before = await snapshot(srv, id);
      const reply = await c.request({ type: 'act', room: id, ply, action, id: `x${nextId++}` });
      assert.equal(reply.type, 'error', `${JSON.stringify(action)}: expected an error, got ${JSON.stringify(reply)}`);
      assert.equal(reply.code, code, `${JSON.stringify(action)}: ${reply.code} (${reply.message})`);
      assert.deepEqual(await snapshot(srv, id), before, `${JSON.stringify(action)}: the state changed`);
    };
    // White must roll: every other shape, malformed or not, is illegal.
    for (const action of [{}, { roll: false }, { roll: 1 }, { roll: true, plan: [] }, { plan: [] }, { bonus: [] },
      { plan: [{ from: 1, die: 0 }] }, { plan: [{ from: 0, die: 0 }] }, { plan: [{ from: 1, die: 2 }] },
      { plan: [{ from: 1, die: 0, to: 4 }] }, { plan: [{ from: 1 }] }, { plan: [{ from: 1.5, die: 0 }] },
      { bonus: [{ from: 1, die: 0 }, { from: 2, die: 1 }, { from: 3, die: 0 }] }, { move: 1 }])
      await expect(a, 0, action, 'illegal_action');
    await expect(b, 0, { roll: true }, 'not_your_turn');
    await expect(a, 1, { roll: true }, 'stale_ply');
    // White rolls; now only plans of the roll are legal.
    a.drain();
    await a.send({ type: 'act', room: id, ply: 0, action: { roll: true }, id: 'roll' });
    const st = await a.nextState(id, (s) => s.ply === 1);
    assert.ok(st.legal.length > 0 && st.legal.every((x) => x.plan), 'White plays a plan now');
    assert.ok(st.view.dice && st.view.dice.length === 2);
    await expect(a, 1, { roll: true }, 'illegal_action');
    await expect(a, 1, { bonus: [] }, 'illegal_action');
    // Landing on Black's 6 or 7, a man from an empty route, the same die twice, a shorter plan than possible.
    const notLegal = [
      { plan: [{ from: 1, die: 0 }, { from: 1, die: 0 }] },
      { plan: [{ from: 10, die: 0 }, { from: 11, die: 1 }] },
      ...[1, 2, 3, 4, 5].flatMap((f) => [0, 1].filter((d) => [6, 7].includes(f + st.view.dice[d]))
        .map((d) => ({ plan: [{ from: f, die: d }, { from: 2, die: 1 - d }] }))),
    ];
    if (st.legal[0].plan.length === 2) notLegal.push({ plan: [st.legal[0].plan[0]] });
    for (const action of notLegal) {
      assert.ok(!st.legal.map(canon).includes(canon(action)), `${canon(action)} is really not legal`);
      await expect(a, 1, action, 'illegal_action');
    }
    await expect(b, 1, st.legal[0], 'not_your_turn');
    await expect(a, 1, { ...st.legal[0], extra: true }, 'illegal_action');
    // And a legal plan is still accepted at the same ply.
    await a.send({ type: 'act', room: id, ply: 1, action: st.legal[0], id: 'ok' });
    const after = await b.nextState(id, (s) => s.ply === 2);
    assert.deepEqual(after.last.action, st.legal[0]);
  });
});

test('resign ends a Laquet match and the opponent wins', { timeout: 30000 }, async () => {
  await withServer(NO_RATE, async (srv) => {
    const { a, b, id } = await playFirstPlies(srv, 'laquet', 4, { names: ['White', 'Black'] });
    await b.send({ type: 'resign', room: id, id: 'r1' });
    const sa = await a.nextState(id, (s) => s.status === 'finished');
    assert.deepEqual(sa.result, { winner: 0, reason: 'resign' });
    assert.deepEqual(sa.legal, []);
    const arch = await srv.archive(id);
    assert.deepEqual(arch.result, { winner: 0, reason: 'resign' });
    assert.equal(arch.events.length, 1);
    assert.equal(arch.events[0].kind, 'resign');
    assert.equal(arch.events[0].seat, 1);
  });
});
