// eye.test.mjs: the bot's eye's arithmetic (clients/web/eye.js), in Node: which positions a replay weighs (all
// of a short match; a long one sampled in pairs, a position and the one after its move, so a sampled move's cost
// is known), the coarse-to-fine order (every position once), which moves count as costly (a choice, another
// move than the bot's, at least the threshold lost), and a position weighed through the real rules module: the
// bot's choice is one of the seat's legal actions, and the strong level's estimate of each seat is a chance; at
// the end the estimate is the result.

import test from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { readFileSync } from 'node:fs';

const web = path.join(process.env.QUINTETO_SOURCE, 'clients', 'web');
const { eyeSteps, coarseToFine, costlyMoves, weigh } = await import(path.join(web, 'eye.js'));
const { loadRules, canonical } = await import(path.join(web, 'rules-core.js'));

const orderOf = (kinds) => kinds.map((kind) => ({ kind }));

test('a short match is weighed whole: the start and every action, no event', () => {
  const order = orderOf(['start', 'action', 'action', 'event', 'action']);
  assert.deepEqual(eyeSteps(order, order.length), [0, 1, 2, 4]);
  assert.deepEqual(eyeSteps(order, 3), [0, 1, 2]); // only the steps derived
});

test('a long match is sampled in pairs, within the limit', () => {
  const order = orderOf(['start', ...Array(5000).fill('action')]);
  const steps = eyeSteps(order, order.length, 100);
  assert.ok(steps.length <= 100 && steps.length >= 90, `${steps.length}`);
  assert.deepEqual(steps, [...steps].sort((a, b) => a - b));
  for (const s of steps) if (s > 0) assert.ok(steps.includes(s - 1) || steps.includes(s + 1), `step ${s} has its pair`);
  assert.equal(steps[0], 0);
  assert.equal(steps.at(-1), 5000);
});

test('coarse to fine visits every position once, the ends first', () => {
  for (const n of [0, 1, 7, 8, 9, 100]) {
    const o = coarseToFine(n);
    assert.deepEqual([...o].sort((a, b) => a - b), [...Array(n).keys()]);
    if (n > 1) assert.ok(o.indexOf(n - 1) < o.indexOf(1) || n <= 2, `${n}: the last position comes early`);
  }
});

test('a costly move: a choice, not the bot\'s, at least 15 points of the mover\'s chance lost', () => {
  const p = (step, seat, est, choice, n = 3) => [step, { step, seat, est, choice, n }];
  const points = new Map([
    p(0, 0, [0.6, 0.4], { m: 'a' }),
    p(1, 1, [0.4, 0.6], { m: 'x' }),        // seat 0 played b: lost 20 points
    p(2, 0, [0.3, 0.7], { m: 'c' }),        // seat 1 played the bot's x: never costly, whatever it lost
    p(3, 1, [0.2, 0.8], { m: 'y' }, 1),     // seat 0 played c, the bot's: not costly
    p(4, 0, [0.3, 0.7], { m: 'z' }),        // seat 1 had one move: not costly
    p(5, 1, [0.2, 0.8], null),              // seat 0 played d, lost 10 points: under the threshold
  ]);
  const played = { 1: { seat: 0, action: { m: 'b' } }, 2: { seat: 1, action: { m: 'x' } }, 3: { seat: 0, action: { m: 'c' } },
    4: { seat: 1, action: { m: 'q' } }, 5: { seat: 0, action: { m: 'd' } } };
  const got = costlyMoves(points, (j) => played[j] || null, canonical);
  assert.deepEqual([...got.keys()], [1]);
  assert.ok(Math.abs(got.get(1) - 0.2) < 1e-9);
  assert.deepEqual([...costlyMoves(points, (j) => played[j] || null, canonical, 0.05).keys()], [1, 5]);
});

test('a position weighed through the rules module: the bot\'s choice is legal, a strong estimate is a chance', async () => {
  const core = await loadRules(readFileSync(path.join(process.env.QUINTETO_TEST_WASM, 'rules.wasm')));
  for (const g of core.games) {
    let m;
    try { m = core.newMatch(g.id, new Uint8Array(32).fill(7)); } catch { continue; } // no codec
    const levels = m.botLevels();
    for (let k = 0; k < 6 && m.toAct().length; k++) {
      const before = m.snapshot();
      const seat = m.toAct()[0];
      for (const level of levels.filter((l) => l !== 'random')) {
        const pt = weigh(m, k, { level, budget: 32 });
        assert.deepEqual(m.snapshot(), before, `${g.id}: weighing changes nothing`);
        assert.equal(pt.seat, seat);
        assert.ok(m.legal(seat).map(canonical).includes(canonical(pt.choice)), `${g.id} ${level}: a legal choice`);
        if (level === 'strong') {
          assert.ok(pt.est && pt.est.length === g.seats, `${g.id}: the strong level estimates every seat`);
          for (const e of pt.est) assert.ok(e >= 0 && e <= 1, `${g.id}: ${e} is a chance`);
        }
      }
      assert.ok(!m.applyIndex(seat, 0).error);
    }
  }
});

test('at the end of a match the estimate is its result: the winner 1, every other seat 0', async () => {
  const core = await loadRules(readFileSync(path.join(process.env.QUINTETO_TEST_WASM, 'rules.wasm')));
  let ended = 0;
  for (const g of core.games) {
    let m;
    try { m = core.newMatch(g.id, new Uint8Array(32).fill(9)); } catch { continue; } // no codec
    for (let k = 0; k < 50000 && m.toAct().length; k++) {
      const seat = m.toAct()[0];
      assert.ok(!m.applyIndex(seat, m.botChoice('random', seat, BigInt(k + 1))).error);
    }
    if (m.toAct().length) continue;
    const pt = weigh(m, 1);
    const r = m.result();
    assert.equal(pt.choice, null);
    if (Number.isInteger(r.winner) && r.winner >= 0) {
      assert.deepEqual(pt.est, [...Array(g.seats)].map((_, s) => (s === r.winner ? 1 : 0)), `${g.id}: ${JSON.stringify(r)}`);
      ended++;
    }
  }
  assert.ok(ended >= 2, 'matches that ended with a winner');
});
