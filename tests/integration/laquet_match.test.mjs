// laquet_match.test.mjs: whole Laquet matches against the real server: two humans choosing among
// `legal` with a watcher, a human against a bot with autoroll, the state invariants every receiver
// must see (fifteen men a side, never two colours on a point, `dice` and `handed` only in their
// phases), every roll recomputed from the revealed seeds (protocol.md), the archive and `quinteto
// verify` on it (and on a tampered copy), illegal actions of every kind refused with the state
// untouched, and resignation. Every frame is validated against protocol/schema by the harness.

import test from 'node:test';
import { createHash } from 'node:crypto';
import { execFile } from 'node:child_process';
import { mkdtemp, writeFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { assert, withServer, createRoom, joinRoom, watchRoom, autoplay, sleep, within } from './lib.mjs';

const NO_RATE = { args: ['--rate', '1000000', '--burst', '1000000'] };
const sha256 = (...parts) => createHash('sha256').update(Buffer.concat(parts.map((p) => Buffer.from(p)))).digest();
const canon = (v) => JSON.stringify(v, (k, x) => (x && typeof x === 'object' && !Array.isArray(x)
  ? Object.fromEntries(Object.keys(x).sort().map((key) => [key, x[key]])) : x));

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
function checkDice(label, { server_seed, client_seeds }, actions) {
  const parts = [Buffer.from(server_seed, 'hex')];
  for (const cs of client_seeds) parts.push(Buffer.from(cs, 'utf8'), Buffer.from([0]));
  const matchSeed = sha256(...parts);
  let block = 0, buf = Buffer.alloc(0), pos = 0;
  const byte = () => {
    if (pos === buf.length) {
      const k = Buffer.alloc(8);
      k.writeBigUInt64BE(BigInt(block++));
      buf = sha256(matchSeed, k);
      pos = 0;
    }
    return buf[pos++];
  };
  const d6 = () => { for (;;) { const b = byte(); if (b < 252) return (b % 6) + 1; } };
  let rolls = 0;
  for (const [i, a] of actions.entries()) {
    if (!a || !a.action.roll) continue;
    assert.deepEqual(a.outcome.dice, [d6(), d6()], `${label}: ply ${i}: dice differ from the stream`);
    if (a.outcome.passed) assert.deepEqual(a.outcome.handed, a.outcome.dice, `${label}: ply ${i}: a pass hands both dice`);
    rolls++;
  }
  return rolls;
}

const runCli = (args) => new Promise((resolve) => {
  execFile(process.env.QUINTETO_CLI, args, { timeout: 20000 }, (err, stdout, stderr) =>
    resolve({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stdout, stderr }));
});

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
    const a = await srv.player('Alfonso');
    const b = await srv.player('Beatriz');
    const w = await srv.player('Watcher');
    const room = await createRoom(a, 'laquet');
    assert.deepEqual(room.seats.map((s) => [s.seat, s.role]), [[0, 'white'], [1, 'black']]);
    const id = room.id;
    const w0 = await watchRoom(w, id);
    const commit = w0.commit;
    assert.deepEqual(w0.view.points[5], { white: 0, black: 14 });
    assert.deepEqual(w0.view.points[17], { white: 1, black: 0 });
    const seedA = 'libro de los juegos', seedB = 'laquet-1283';
    await joinRoom(a, id, { seat: 0, client_seed: seedA });
    const playA = autoplay(a, id, { choose: racer });
    const playB = autoplay(b, id);
    await joinRoom(b, id, { seat: 1, client_seed: seedB });
    const [finalA, finalB] = await Promise.all([playA.done, playB.done]);
    const finalW = await w.nextState(id, (s) => s.status === 'finished', 10000);
    assert.deepEqual(playA.errors, [], 'A got no error');
    assert.deepEqual(playB.errors, [], 'B got no error');

    const statesOf = (c) => c.messages.filter((m) => m.type === 'state' && m.room === id);
    const seen = checkStates('watcher', statesOf(w), { seat: null, commit });
    assert.deepEqual(checkStates('A', statesOf(a), { seat: 0, commit }), seen, 'A saw the same actions');
    assert.deepEqual(checkStates('B', statesOf(b), { seat: 1, commit }), seen, 'B saw the same actions');
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
  const dir = await mkdtemp(path.join(tmpdir(), 'quinteto-laquet-'));
  try {
    await withServer(NO_RATE, async (srv) => {
      const a = await srv.player('Vera');
      const room = await createRoom(a, 'laquet', { autoroll: true });
      assert.deepEqual(room.options, { autoroll: true });
      const id = room.id;
      const play = autoplay(a, id, { choose: racer });
      await joinRoom(a, id, { seat: 1, client_seed: 'verify me' });
      assert.equal((await a.request({ type: 'add_bot', room: id, level: 'greedy' })).type, 'bot_added');
      const final = await within(play.done, 100000);
      assert.ok(final, 'match finished');
      assert.deepEqual(play.errors, []);
      const states = a.messages.filter((m) => m.type === 'state' && m.room === id);
      checkStates('A', states, { seat: 1, commit: states[0].commit, autoroll: true });
      const rollOnly = states.filter((s) => s.legal.length === 1 && s.legal[0].roll === true);
      assert.equal(rollOnly.length, 0, 'with autoroll the person is never asked to roll with nothing else to do');
      const arch = await srv.archive(id);
      assert.deepEqual(arch.options, { autoroll: true });
      assert.deepEqual(arch.seats.map((s) => s.bot), [true, false]);
      checkDice('archive', arch, arch.actions);

      const good = path.join(dir, 'match.json');
      await writeFile(good, JSON.stringify(arch));
      const ok = await runCli(['verify', good]);
      assert.equal(ok.code, 0, `verify exit ${ok.code}\n${ok.stdout}${ok.stderr}`);
      assert.match(ok.stdout + ok.stderr, /verified/);

      const bad = structuredClone(arch);
      const k = bad.actions.findIndex((x) => x.action.roll);
      bad.actions[k].outcome.dice[0] = (bad.actions[k].outcome.dice[0] % 6) + 1;
      const badFile = path.join(dir, 'tampered.json');
      await writeFile(badFile, JSON.stringify(bad));
      const r = await runCli(['verify', badFile]);
      assert.equal(r.code, 1, `tampered dice: verify exit ${r.code}\n${r.stdout}${r.stderr}`);

      const bad2 = structuredClone(arch);
      const p = bad2.actions.findIndex((x) => x.action.plan);
      bad2.actions[p].action = { plan: [...bad2.actions[p].action.plan].reverse().map((s) => ({ ...s, from: 18 })) };
      await writeFile(badFile, JSON.stringify(bad2));
      const r2 = await runCli(['verify', badFile]);
      assert.equal(r2.code, 1, `tampered plan: verify exit ${r2.code}\n${r2.stdout}${r2.stderr}`);
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
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
    const a = await srv.player('White');
    const b = await srv.player('Black');
    const { id } = await createRoom(a, 'laquet');
    await joinRoom(a, id, { seat: 0 });
    await joinRoom(b, id, { seat: 1 });
    const pa = autoplay(a, id, { since: 0 }), pb = autoplay(b, id, { since: 0 });
    await b.nextState(id, (s) => s.ply >= 4, 5000);
    pa.stop(); pb.stop();
    await sleep(50);
    a.drain(); b.drain();
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
