// quinteto_match.test.mjs: whole Quinteto matches against the real server: six humans (and a
// watcher) choosing among `legal`, with the roll-off's several seats acting at once; the arranger
// against five bots; every state checked as a receiver sees it; every roll recomputed from the
// revealed seeds; the archive and `quinteto verify`; illegal actions of every kind refused with their
// code and no state change; resignations of a hunter and of the arranger; `max_turns`.

import test from 'node:test';
import { createHash } from 'node:crypto';
import { assert, withServer, createRoom, joinRoom, watchRoom, sleep } from './lib.mjs';
import { canon, statesOf, diceBytes, d6 as die, withTempDir, verifyFile, playMatch, playAgainstBots } from '../lib/match.mjs';

const ROLES = ['hunter', 'hunter', 'hunter', 'hunter', 'hunter', 'arranger'];
const NO_RATE = { args: ['--rate', '100000', '--burst', '100000'] };

// The states one client received for a room, checked in order; returns actions[p] = the `last` of ply p+1.
function checkStates(label, states, { seat, commit }) {
  const actions = [];
  let prev = null;
  assert.ok(states.length > 0, `${label}: no state received`);
  for (const [i, st] of states.entries()) {
    const where = `${label}, state #${i} (ply ${st.ply}, ${st.status}, ${st.view.phase})`;
    assert.equal(st.commit, commit, `${where}: commit changed`);
    assert.equal(st.game, 'quinteto', where);
    assert.deepEqual(st.seats.map((s) => s.role), ROLES, where);
    assert.equal(st.view.stones.length, 18, `${where}: 18 stones`);
    if (st.status === 'playing') {
      const phase = st.view.phase;
      assert.ok(st.to_act.length >= 1, `${where}: nobody to act`);
      if (phase === 'arrange' || phase === 'place') assert.deepEqual(st.to_act, [5], `${where}: the arranger acts`);
      else if (phase === 'rolloff') for (const s of st.to_act) assert.equal(st.view.rolloff[s], null, `${where}: ${s} rolled already`);
      else assert.equal(st.to_act.length, 1, `${where}: one seat on turn`);
      if (phase === 'hunt' || phase === 'rolloff') assert.ok(!st.to_act.includes(5), `${where}: the arranger moves no stone in phase 1`);
    } else {
      assert.deepEqual(st.to_act, [], `${where}: to_act must be [] unless playing`);
    }
    const mine = seat !== null && st.status === 'playing' && st.to_act.includes(seat);
    if (mine) assert.ok(st.legal.length > 0, `${where}: the seat to act got no legal actions`);
    else assert.deepEqual(st.legal, [], `${where}: legal must be [] for ${seat === null ? 'a watcher' : 'a seat not to act'}`);
    assert.equal(new Set(st.legal.map(canon)).size, st.legal.length, `${where}: legal has duplicates`);
    for (const a of st.legal) {
      if (a.arrange) assert.ok(st.view.phase === 'arrange' && seat === 5, `${where}: arrange offered to ${seat}`);
      if ('place' in a) assert.ok(st.view.phase === 'place' && seat === 5, `${where}: place offered to ${seat}`);
    }
    if (st.status === 'finished') {
      assert.ok(st.result && 'server_seed' in st && 'client_seeds' in st, `${where}: finished without result or reveal`);
    } else {
      assert.equal(st.result, null, `${where}: result before the end`);
      assert.ok(!('server_seed' in st), `${where}: server_seed revealed before the end`);
    }
    if (prev) {
      const d = st.ply - prev.ply;
      assert.ok(d === 0 || d === 1, `${where}: ply jumped from ${prev.ply} to ${st.ply}`);
      if (d === 1) {
        assert.ok(prev.to_act.includes(st.last.seat), `${where}: last.seat ${st.last.seat} was not to act`);
        if (prev.legal.length && st.last.seat === seat)
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

// Every roll recomputed from the revealed seeds (protocol.md, Randomness): one d6 in the roll-off, two in a turn.
function checkDice(label, seeds, actions) {
  const byte = diceBytes(seeds);
  const d6 = () => die(byte);
  let rolls = 0;
  for (const [i, a] of actions.entries()) {
    if (!a.action.roll) continue;
    if (a.outcome.rolloff !== null) assert.equal(a.outcome.rolloff, d6(), `${label}: ply ${i}: roll-off die`);
    else assert.deepEqual(a.outcome.dice, [d6(), d6()], `${label}: ply ${i}: dice`);
    rolls++;
  }
  return rolls;
}

function verifyArchive(arch) {
  return withTempDir('quinteto-q-', async (dir) => {
    const ok = await verifyFile(dir, 'match.json', arch);
    assert.equal(ok.code, 0, `verify exit ${ok.code}\n${ok.stdout}${ok.stderr}`);
    const bad = structuredClone(arch);
    const k = bad.actions.findIndex((x) => x.outcome.dice);
    bad.actions[k].outcome.dice = bad.actions[k].outcome.dice.map((v) => (v % 6) + 1);
    const r = await verifyFile(dir, 'match.json', bad);
    assert.equal(r.code, 1, `tampered dice must fail: exit ${r.code}\n${r.stdout}${r.stderr}`);
  });
}

test('six people play a Quinteto match to the end while a seventh watches', { timeout: 120000 }, async () => {
  await withServer(NO_RATE, async (srv) => {
    const { id, room, w0, commit, players, w, plays, finalW } = await playMatch(srv, 'quinteto', {
      names: [0, 1, 2, 3, 4, 5].map((s) => (s === 5 ? 'Arranger' : `Hunter ${s}`)), creator: 5,
      seeds: [0, 1, 2, 3, 4, 5].map((s) => `seed-${s}`), timeoutMs: 90000,
    });
    assert.deepEqual(room.seats.map((s) => s.role), ROLES);
    assert.deepEqual(w0.options, { autoroll: false, max_turns: 2000, clock: null, stand_in_after_ms: 30000, stand_in_level: null, idle_after_ms: 300000 });
    // In the roll-off a hunter may see another's roll before its own is applied and click again:
    // that second click is its own and gets stale_ply (protocol.md (r2)); nothing else may fail.
    const errors = plays.flatMap((p) => p.errors);
    for (const e of errors) assert.equal(e.code, 'stale_ply', JSON.stringify(e));

    const seen = checkStates('watcher', statesOf(w, id), { seat: null, commit });
    for (let s = 0; s < 6; s++)
      assert.deepEqual(checkStates(`seat ${s}`, statesOf(players[s], id), { seat: s, commit }), seen, `seat ${s} saw the same actions`);
    const n = finalW.ply;
    for (let p = 0; p < n; p++) assert.ok(seen[p], `the watcher missed ply ${p}`);
    assert.equal(plays.reduce((k, p) => k + p.sent.length, 0) - errors.length, n, 'every other act sent was accepted, one ply each');
    // the roll-off: several seats to act at once
    assert.ok(statesOf(w, id).some((st) => st.view.phase === 'rolloff' && st.to_act.length === 5), 'five hunters roll off at once');
    // phase 1 and the duel were both played (a Quinteto, too, is rolled in the duel)
    const phases = new Set(statesOf(w, id).map((st) => st.view.phase));
    for (const ph of ['arrange', 'rolloff', 'hunt', 'place', 'duel', 'over']) assert.ok(phases.has(ph), `phase ${ph} seen`);
    assert.ok(['duel', 'quinteto'].includes(finalW.result.reason), JSON.stringify(finalW.result));
    assert.equal(finalW.result.draw, false);
    // eliminated hunters stayed in the room and kept receiving states to the end
    const eliminated = seen.flatMap((a) => a.outcome.eliminated);
    assert.equal(eliminated.length, 4, 'four hunters were eliminated');
    for (const s of eliminated) assert.equal(statesOf(players[s], id).at(-1).status, 'finished', `eliminated ${s} saw the end`);
    assert.equal(createHash('sha256').update(Buffer.from(finalW.server_seed, 'hex')).digest('hex'), commit);
    assert.ok(checkDice('states', finalW, seen) > 10);

    const arch = await srv.archive(id);
    assert.equal(arch.game, 'quinteto');
    assert.deepEqual(arch.client_seeds, [0, 1, 2, 3, 4, 5].map((s) => `seed-${s}`));
    assert.equal(arch.actions.length, n);
    for (const [i, a] of arch.actions.entries()) {
      assert.equal(a.seat, seen[i].seat, `ply ${i}: seat`);
      assert.deepEqual(a.action, seen[i].action, `ply ${i}: action`);
      assert.deepEqual(a.outcome, seen[i].outcome, `ply ${i}: outcome`);
    }
    assert.deepEqual(arch.result, finalW.result);
    await verifyArchive(arch);
  });
});

test('a person arranges and duels against five greedy bots; the archive verifies', { timeout: 120000 }, async () => {
  await withServer(NO_RATE, async (srv) => {
    const { a, room, play } = await playAgainstBots(srv, 'quinteto', {
      name: 'Ana', seat: 5, clientSeed: 'seed-5', level: 'greedy', timeoutMs: 90000,
    });
    assert.deepEqual(play.errors, []);
    const mine = a.messages.filter((m) => m.type === 'state' && m.room === room.id && m.legal.length);
    assert.ok(mine.some((st) => st.legal[0].arrange), 'the person arranged');
    const arch = await srv.archive(room.id);
    assert.deepEqual(arch.seats.map((s) => s.bot), [true, true, true, true, true, false]);
    checkDice('archive', arch, arch.actions);
    await verifyArchive(arch);
  });
});

// Sends `action` for `c` at `ply` and expects the error `code`, with no state change in the room.
async function refuse(c, w, id, ply, action, code) {
  const mark = w.mark();
  const r = await c.request({ type: 'act', room: id, ply, action });
  assert.equal(r.type, 'error', `${JSON.stringify(action)}: expected ${code}, got ${JSON.stringify(r)}`);
  assert.equal(r.code, code, `${JSON.stringify(action)}: expected ${code}, got ${r.code} (${r.message})`);
  await sleep(5);
  assert.equal(w.statesSince(mark, id).length, 0, `${JSON.stringify(action)}: the room changed`);
}

test('illegal actions of every kind are refused with their code and change nothing', { timeout: 60000 }, async () => {
  await withServer(NO_RATE, async (srv) => {
    const p = [];
    for (let s = 0; s < 6; s++) p.push(await srv.player(`P${s}`));
    const w = await srv.player('Watcher');
    const room = await createRoom(p[5], 'quinteto');
    const id = room.id;
    await watchRoom(w, id);
    for (let s = 0; s < 6; s++) await joinRoom(p[s], id, { seat: s });
    let st = await w.nextState(id, (x) => x.status === 'playing');
    w.drain();
    // The arrangement: only the arranger, only the living hunters, each once.
    await refuse(p[0], w, id, 0, { arrange: [0, 1, 2, 3, 4] }, 'not_your_turn');
    for (const action of [{ arrange: [0, 1, 2, 3] }, { arrange: [0, 1, 2, 3, 3] }, { arrange: [0, 1, 2, 3, 5] },
      { arrange: [0, 1, 2, 3, 4, 0] }, { arrange: [] }, { arrange: '01234' }, { roll: true }, { place: 0 },
      { plan: [{ die: 'sum', stone: 15, steps: 7 }] }, { arrange: [0, 1, 2, 3, 4], x: 1 }])
      await refuse(p[5], w, id, 0, action, 'illegal_action');
    await refuse(p[5], w, id, 1, { arrange: [0, 1, 2, 3, 4] }, 'stale_ply');
    await p[5].send({ type: 'act', room: id, ply: 0, action: { arrange: [4, 3, 2, 1, 0] } });
    st = await w.nextState(id, (x) => x.ply === 1);
    assert.deepEqual(st.view.circle, [4, 3, 2, 1, 0]);
    assert.deepEqual(st.to_act, [0, 1, 2, 3, 4]);
    // The roll-off: the arranger does not roll; a hunter rolls once; the others may answer an older ply.
    await refuse(p[5], w, id, 1, { roll: true }, 'not_your_turn');
    await refuse(p[0], w, id, 1, { plan: [{ die: 0, stone: 0, steps: 1 }] }, 'illegal_action');
    await p[0].send({ type: 'act', room: id, ply: 1, action: { roll: true } });
    await w.nextState(id, (x) => x.ply === 2);
    await refuse(p[0], w, id, 1, { roll: true }, 'stale_ply'); // its own second click
    await refuse(p[0], w, id, 2, { roll: true }, 'not_your_turn');
    for (let s = 1; s < 5; s++) {
      // ply 1 is older, but only other seats acted since: accepted
      await p[s].send({ type: 'act', room: id, ply: 1, action: { roll: true } });
      st = await w.nextState(id, (x) => x.ply === 2 + s);
    }
    while (st.view.phase === 'rolloff') { // re-rolls among the tied
      const s = st.to_act[0];
      await p[s].send({ type: 'act', room: id, ply: st.ply, action: { roll: true } });
      st = await w.nextState(id, (x) => x.ply === st.ply + 1);
    }
    assert.equal(st.view.phase, 'hunt');
    const h = st.to_act[0];
    const other = (h + 1) % 5;
    await refuse(p[other], w, id, st.ply, { roll: true }, 'not_your_turn');
    await refuse(p[h], w, id, st.ply, { plan: [{ die: 'sum', stone: 3 * h, steps: 7 }] }, 'illegal_action');
    await p[h].send({ type: 'act', room: id, ply: st.ply, action: { roll: true } });
    st = await w.nextState(id, (x) => x.ply === st.ply + 1);
    const legal = (await p[h].nextState(id, (x) => x.ply === st.ply)).legal;
    assert.ok(legal.length >= 2);
    const [d0, d1] = st.view.dice;
    const k = 3 * h, mine = p[h];
    const notSix = (d0 === 6 && d1 === 6) ? null : (d0 !== 6 ? 0 : 1);
    const bad = [
      { plan: [{ die: 0, stone: k, steps: d0 }, { die: 1, stone: k, steps: d1 }] },         // one stone twice
      { plan: [{ die: 0, stone: k, steps: d0 }, { die: 0, stone: k + 1, steps: d0 }] },     // one die twice
      { plan: [{ die: 2, stone: k, steps: 1 }] },                                           // die index 2
      { plan: [{ die: 'sum', stone: k, steps: d0 + d1 + (d0 + d1 < 12 ? 1 : -1) }] },       // not the sum
      { plan: [{ die: 'sum', stone: (k + 3) % 15, steps: d0 + d1 }] },                      // another hunter's stone
      { plan: [{ die: 'sum', stone: 15, steps: d0 + d1 }] },                                // the arranger's stone
      { plan: [{ die: 'sum', stone: k + 2, steps: d0 + d1 }] },                             // its own marker
      { plan: [{ die: 0, stone: k, steps: d0 }] },                                          // one step while both dice can be used
      { plan: [{ die: 0, kill: (k + 3) % 15 }, { die: 1, stone: k, steps: d1 }] },          // a kill in phase 1
      { plan: [{ die: 0, stone: k, exit: true }] },                                         // exit from the ring
      { plan: [{ die: 'sum', stone: k, steps: d0 + d1 }, { die: 0, stone: k + 1, steps: d0 }] }, // the sum and a step
      { plan: [{ die: 0, stone: k, steps: d0 }, { die: 1, stone: k + 1, steps: d1 }, { die: 0, stone: k, steps: 1 }] },
      { plan: [] }, { plan: [{ die: 0, stone: k, steps: 0 }] }, { plan: [{ die: 0, stone: k, steps: 7 }] },
      { roll: true }, { arrange: [0, 1, 2, 3, 4] }, { place: 1 },
    ];
    if (notSix !== null) bad.push({ plan: [{ die: notSix, stone: k, enter: true }] }); // enter without a 6
    if (d0 !== d1) bad.push({ plan: [{ die: 0, stone: k, steps: d1 }, { die: 1, stone: k + 1, steps: d0 }] }); // dice swapped
    for (const action of bad) {
      assert.ok(!legal.map(canon).includes(canon(action)), `${JSON.stringify(action)} is not in legal`);
      await refuse(mine, w, id, st.ply, action, 'illegal_action');
    }
    await refuse(mine, w, id, st.ply + 1, legal[0], 'stale_ply');
    await refuse(p[5], w, id, st.ply, legal[0], 'not_your_turn');
    // and one of its legal plans goes through
    await mine.send({ type: 'act', room: id, ply: st.ply, action: legal[legal.length - 1] });
    const after = await w.nextState(id, (x) => x.ply === st.ply + 1);
    assert.equal(after.last.seat, h);
    assert.deepEqual(after.last.action, legal[legal.length - 1]);
  });
});

test('a hunter resigns and is eliminated at once; the arranger resigns and the match is drawn', { timeout: 60000 }, async () => {
  await withServer(NO_RATE, async (srv) => {
    const p = [];
    for (let s = 0; s < 6; s++) p.push(await srv.player(`P${s}`));
    const room = await createRoom(p[5], 'quinteto');
    const id = room.id;
    for (let s = 0; s < 6; s++) await joinRoom(p[s], id, { seat: s }); // the last join starts the match
    p[2].drain();
    const r = await p[2].request({ type: 'resign', room: id });
    assert.equal(r.type, 'resigned');
    assert.equal(r.seat, 2);
    const st = await p[5].nextState(id, (x) => x.view.stones[6].where === 'out');
    assert.equal(st.ply, 0, 'an event is not an action');
    assert.equal(st.status, 'playing');
    for (const k of [6, 7, 8]) assert.equal(st.view.stones[k].where, 'out');
    assert.equal(st.legal.length, 24, 'the arrangement now names four hunters: 4! orders');
    assert.ok(st.legal.every((a) => a.arrange.length === 4 && !a.arrange.includes(2)));
    const again = await p[2].request({ type: 'resign', room: id });
    assert.equal(again.type, 'error');
    assert.equal(again.code, 'game_over', 'an eliminated hunter is already out of play');
    // the eliminated hunter still receives the room's states, as a watcher of its seat
    const seen2 = await p[2].nextState(id, (x) => x.ply === 0 && x.view.stones[6].where === 'out');
    assert.deepEqual(seen2.legal, []);
    await p[5].send({ type: 'act', room: id, ply: 0, action: st.legal[0] });
    await p[2].nextState(id, (x) => x.ply === 1);
    const ra = await p[5].request({ type: 'resign', room: id });
    assert.equal(ra.type, 'resigned');
    const fin = await p[0].nextState(id, (x) => x.status === 'finished');
    assert.deepEqual(fin.result, { winner: null, draw: true, reason: 'resign' });
    const arch = await srv.archive(id);
    assert.deepEqual(arch.events.map((e) => [e.ply, e.seat, e.kind]), [[0, 2, 'resign'], [1, 5, 'resign']]);
    assert.deepEqual(arch.result, fin.result);
    await withTempDir('quinteto-q-', async (dir) => {
      const ok = await verifyFile(dir, 'm.json', arch);
      assert.equal(ok.code, 0, `${ok.stdout}${ok.stderr}`);
    });
  });
});

test('max_turns ends a match of bots drawn; autoroll rolls for people', { timeout: 60000 }, async () => {
  await withServer(NO_RATE, async (srv) => {
    const { a, room, play, final } = await playAgainstBots(srv, 'quinteto', {
      name: 'Host', options: { max_turns: 10, autoroll: true }, clientSeed: 'seed-0', timeoutMs: 40000,
    });
    assert.deepEqual(room.options, { max_turns: 10, autoroll: true });
    assert.deepEqual(play.errors, []);
    assert.deepEqual(final.options, { autoroll: true, max_turns: 10, clock: null, stand_in_after_ms: 30000, stand_in_level: null, idle_after_ms: 300000 });
    const states = a.messages.filter((m) => m.type === 'state' && m.room === room.id);
    assert.ok(!states.some((s) => s.legal.length === 1 && s.legal[0].roll), 'a person is never offered a lone roll with autoroll');
    const arch = await srv.archive(room.id);
    assert.deepEqual(arch.options, { max_turns: 10, autoroll: true });
    if (final.view.turns >= 10) assert.deepEqual(final.result, { winner: null, draw: true, reason: 'max_turns' });
    assert.ok(final.view.turns <= 10);
    await verifyArchive(arch);
  });
});
