// verify_js.test.mjs: the web client's dice verifier (clients/web/verify.js, WebCrypto SHA-256, written
// apart from the server's C) agrees with the rules core on every golden archive that verifies, and
// names the ply of a tampered roll (where the rules core does), and the commit of a tampered seed.
// Runs in Node: same WebCrypto.

import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';

const SOURCE = process.env.QUINTETO_SOURCE;
const { verifyArchive } = await import(path.join(SOURCE, 'clients/web/verify.js'));
// Each game module brings its dice checker in clients/web/games/<id>/dice.js (the module itself needs a page).
const diceChecker = async (game) => (await import(path.join(SOURCE, 'clients/web/games', game, 'dice.js'))).default;
const DIR = path.join(SOURCE, 'tests/golden/archive');
const good = readdirSync(DIR).filter((d) => d.startsWith('ok_'))
  .map((d) => JSON.parse(readFileSync(path.join(DIR, d, 'archive.json'), 'utf8')));

test('every golden archive that verifies has its rolls re-derived', async () => {
  assert.ok(good.length >= 3);
  for (const a of good) {
    const r = await verifyArchive(a, await diceChecker(a.game));
    assert.equal(r.ok, true, `${a.game} ${a.id}: ${JSON.stringify(r)}`);
    // every game has a checker (a game without dice, one that draws nothing): its rolls are checked
    assert.equal(r.gameChecked, true);
    if (r.gameChecked) assert.equal(r.rolls, a.actions.filter((x) => x.action.roll).length, `${a.game} ${a.id}`);
  }
});

test('a tampered roll is named by its ply; a tampered seed by the commit', async () => {
  const a = good.filter((x) => x.game === 'ur').reduce((x, y) => (y.actions.length > x.actions.length ? y : x));
  const rolls = a.actions.filter((x) => x.action.roll);
  const late = rolls[Math.floor(rolls.length / 2)];
  const t1 = structuredClone(a);
  const x1 = t1.actions[a.actions.indexOf(late)];
  x1.outcome.dice[1] = !x1.outcome.dice[1];
  let r = await verifyArchive(t1, await diceChecker(a.game));
  assert.deepEqual([r.ok, r.step, r.ply, r.field], [false, 'roll', late.ply, 'dice']);
  const t2 = structuredClone(a);
  t2.client_seeds[0] = `${t2.client_seeds[0]}x`;
  r = await verifyArchive(t2, await diceChecker(a.game));
  assert.deepEqual([r.ok, r.step, r.ply], [false, 'roll', rolls[0].ply], 'another client seed: another first throw');
  const t3 = structuredClone(a);
  t3.server_seed = `${t3.server_seed[0] === '0' ? '1' : '0'}${t3.server_seed.slice(1)}`;
  r = await verifyArchive(t3, await diceChecker(a.game));
  assert.deepEqual([r.ok, r.step, r.ply], [false, 'commit', 0]);
});

// Golden archives with a throw changed (their expected.json names the ply the rules core reports).
for (const [name, field] of [['mismatch_quinteto_rolloff_value', 'rolloff'], ['mismatch_laquet_roll_dice', 'dice']]) {
  test(`${name}: caught at the ply the rules core names`, async () => {
    const dir = path.join(DIR, name);
    const a = JSON.parse(readFileSync(path.join(dir, 'archive.json'), 'utf8'));
    const want = JSON.parse(readFileSync(path.join(dir, 'expected.json'), 'utf8'));
    const r = await verifyArchive(a, await diceChecker(a.game));
    assert.deepEqual([r.ok, r.step, r.field], [false, 'roll', field]);
    assert.equal(`ply ${r.ply}:`, /^ply \d+:/.exec(want.why)[0]);
  });
}
