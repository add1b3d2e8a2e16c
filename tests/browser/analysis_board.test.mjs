// analysis_board.test.mjs: the replay's analysis board in Chromium (clients/web/analysis.js). A real Ur match is
// played to its end on the test server, its replay opened at a ply where Light is to roll, and the board opened
// there: it shows that position, derived in the page by the rules module. A variation is played through the
// game's own board and keys: a throw chosen among those the roll can give, a move, a roll whose dice come from the
// page's local seed; each checked against the same rules module run here in Node (the variation replayed from
// the archive with the seeds the page names). A move back in the variation and another one from there replace
// what followed. Meanwhile the page sends no request and no WebSocket message. Back to the game, the replay
// shows the archived position again. A record tampered before the step opens no board: the ply is named.
// Screenshots go to build-test/artifacts/.

import test from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { readFile } from 'node:fs/promises';
import { playAgainstBots } from '../lib/match.mjs';
import { withServer, newPlayerPage, artifactsDir, noProblems, browserFor } from './lib.mjs';

const web = path.join(process.env.QUINTETO_SOURCE, 'clients', 'web');
const { loadRules } = await import(path.join(web, 'rules-core.js'));
const { derive, hexBytes } = await import(path.join(web, 'derive.js'));
// The module the server serves (from the build), for the same rules here in Node.
const wasmFile = path.join(path.dirname(process.env.QUINTETO_ARTIFACTS), 'protocol', 'wasm', 'rules.wasm');

const browser = browserFor(test);

async function playedMatch(srv) {
  const { id } = await playAgainstBots(srv, 'ur', { name: 'Ana', clientSeed: 'ana seed' });
  return srv.archive(id);
}

// Clicks what makes `action` on the analysis board (the game module's own browser-test contract).
async function playOnBoard(page, action) {
  const clicks = await page.evaluate(async (a) => (await import('/games/ur/ur.js')).default.clicksFor(a, null), action);
  assert.ok(clicks, `the board offers ${JSON.stringify(action)}`);
  for (const sel of clicks) await page.click(`#analysis ${sel}`);
}

const boardOf = (page) => page.evaluate(() => {
  const a = document.getElementById('analysis');
  return { ply: Number(a.dataset.ply), node: Number(a.dataset.node), moves: Number(a.dataset.moves),
    legal: JSON.parse(a.dataset.legal), dice: a.querySelector('.dice-value')?.dataset.value ?? null,
    entries: [...a.querySelectorAll('#analysis-moves button')].map((b) => ({ text: b.innerText, seed: b.title.split(' ').pop(),
      current: b.getAttribute('aria-current') === 'step' })) };
});

test('the analysis board plays a variation from a replayed position, chosen and seeded dice, and returns', { timeout: 240000 }, async () => {
  await withServer(async (srv) => {
    const arch = await playedMatch(srv);
    const id = arch.id;
    // A ply from which Light rolls: the position the board opens at.
    const p = arch.actions.findIndex((a, i) => i >= 6 && a.seat === 0 && a.action.roll);
    assert.ok(p > 0, 'Light rolls after the sixth move');
    const recorded = (await srv.getJson(`/api/matches/${id}/replay?from=${p}&limit=1`)).steps[0];
    assert.equal(recorded.ply, p);

    const page = await newPlayerPage(browser(), { server: srv, label: 'Viewer' });
    const core = await loadRules(await readFile(wasmFile));
    // What the page sends, once the board is open: requests, and messages on any of its WebSockets.
    let watching = false;
    const requests = [];
    const sent = [];
    page.on('request', (r) => { if (watching) requests.push(r.url()); });
    page.on('websocket', (ws) => ws.on('framesent', (f) => { if (watching) sent.push(f.payload); }));
    const shots = await artifactsDir();
    try {
      await page.goto(`${srv.url}/?name=Viewer#/replay/${id}?ply=${p}`);
      await page.waitForSelector('body[data-replay-steps]');
      assert.equal(await page.evaluate(() => document.body.dataset.ply), String(p));
      const step = Number(await page.evaluate(() => document.body.dataset.replayStep));
      await page.click('#replay-analyse');
      await page.waitForSelector('#analysis[data-ready="true"]');
      assert.equal(await page.locator('#replay-controls').count(), 0, 'the board takes the replay\'s place');
      assert.match(await page.locator('#analysis-title').innerText(), new RegExp(`Analysis from move ${p}`));
      let b = await boardOf(page);
      assert.equal(b.ply, p);
      assert.deepEqual(b.legal, [{ roll: true }]);
      assert.equal(b.dice, String(recorded.view.value), 'the archived position: its last throw');
      assert.equal(b.entries.length, 1);

      // From here on nothing may reach the server.
      watching = true;
      const framesBefore = await page.evaluate(() => window.quinteto.sent.length);

      // 1. a throw of our choosing: one the game did not throw here
      await page.check('#analysis-dice-choose');
      const options = await page.locator('#analysis-throw option').evaluateAll((os) =>
        os.map((o) => ({ value: o.value, outcome: JSON.parse(o.dataset.outcome), text: o.textContent })));
      assert.equal(options.length, 8, 'three two-sided dice: eight throws');
      const pick = options.find((o) => o.outcome.value !== arch.actions[p].outcome.value && !o.outcome.lost);
      await page.selectOption('#analysis-throw', pick.value);
      await page.click('#analysis [data-click="roll"]');
      await page.waitForFunction((k) => document.getElementById('analysis').dataset.moves === String(k), 1);
      b = await boardOf(page);
      assert.equal(b.ply, p + 1);
      assert.equal(b.dice, String(pick.outcome.value), 'the board shows the throw chosen');
      assert.match(b.entries[1].text, new RegExp(`Light threw ${pick.outcome.value}.*dice chosen`));
      assert.match(await page.locator('#analysis-said').innerText(), /dice chosen/);

      // 2. a move, through the game's board
      const move = b.legal.find((a) => !a.skip) || b.legal[0];
      const other = b.legal.find((a) => JSON.stringify(a) !== JSON.stringify(move));
      await playOnBoard(page, move);
      await page.waitForFunction((k) => document.getElementById('analysis').dataset.moves === String(k), 2);
      b = await boardOf(page);
      assert.equal(b.ply, p + 2);

      // 3. a roll by whoever is to act, its dice from the local seed, by the game's key
      assert.deepEqual(b.legal, [{ roll: true }]);
      await page.check('#analysis-dice-seed');
      const seedHex = await page.locator('#analysis-seed').innerText();
      assert.match(seedHex, /^[0-9a-f]{64}$/);
      await page.focus('#analysis .game-board');
      await page.keyboard.press('r');
      await page.waitForFunction((k) => document.getElementById('analysis').dataset.moves === String(k), 3);
      b = await boardOf(page);
      assert.equal(b.ply, p + 3);
      assert.match(b.entries[3].text, /threw \d.*dice from the local seed/);
      assert.deepEqual(b.entries.map((e) => e.current), [false, false, false, true]);

      // The same variation in Node's rules module: the position derived from the archive, the chosen throw's
      // seed and the local seed's as the page names them.
      const d = derive(core, arch, { until: step });
      assert.ok(d.ok);
      const m = d.match;
      m.reseed(hexBytes(b.entries[1].seed, 32));
      const r1 = m.apply(0, { roll: true });
      assert.deepEqual(r1.outcome, pick.outcome);
      assert.ok(!m.apply(0, move).error);
      const mover = m.toAct()[0];
      const bytes = new Uint8Array(36);
      bytes.set(hexBytes(seedHex, 32));
      new DataView(bytes.buffer).setUint32(32, p + 2);
      const seed3 = core.sha256(bytes);
      assert.equal(b.entries[3].seed, Buffer.from(seed3).toString('hex'), 'the dice seed is SHA-256(local seed, ply)');
      m.reseed(seed3);
      const r3 = m.apply(mover, { roll: true });
      assert.equal(b.dice, String(r3.outcome.value), 'the board shows what the local seed throws');
      assert.deepEqual(b.legal, m.legal(m.toAct()[0]), "the legal list of whoever is to act next");
      const words = await page.locator('#analysis-words').textContent();
      assert.ok(words.includes(`Last throw: ${r3.outcome.value} `), `the board in words has the throw: ${words}`);
      await page.screenshot({ path: path.join(shots, 'analysis-board.png'), fullPage: true });

      // Back to the first move of the variation, and another move from there: it replaces the rest.
      await page.focus('#analysis-moves [data-node="1"]');
      await page.keyboard.press('Enter');
      b = await boardOf(page);
      assert.equal(await page.evaluate(() => document.activeElement?.dataset.node), '1', 'focus stays in the variation');
      assert.deepEqual(b.entries.map((e) => e.current), [false, true, false, false]);
      assert.deepEqual([b.ply, b.node, b.moves, b.dice], [p + 1, 1, 3, String(pick.outcome.value)]);
      assert.match(await page.locator('#analysis-said').innerText(), /Back to: Light threw/);
      if (other) {
        await playOnBoard(page, other);
        await page.waitForFunction(() => document.getElementById('analysis').dataset.node === '2');
        b = await boardOf(page);
        assert.equal(b.moves, 2, 'the move played from an earlier position replaces what followed');
        assert.equal(b.ply, p + 2);
      }

      assert.deepEqual(requests, [], 'no request while analysing');
      assert.deepEqual(sent, [], 'no WebSocket message while analysing');
      assert.equal(await page.evaluate(() => window.quinteto.sent.length), framesBefore);
      watching = false;

      // Back to the game: the replay at the step it was left, the archived position again.
      await page.click('#analysis-close');
      await page.waitForSelector('#replay-controls');
      assert.equal(await page.locator('#analysis').count(), 0);
      assert.equal(await page.evaluate(() => document.body.dataset.ply), String(p));
      assert.equal(await page.evaluate(() => document.body.dataset.replayStep), String(step));
      assert.equal(await page.locator('.dice-value').getAttribute('data-value'), String(recorded.view.value));
      assert.equal(await page.evaluate(() => document.activeElement?.id), 'replay-analyse');
      // the replay's keys work again
      await page.keyboard.press('ArrowRight');
      assert.equal(await page.evaluate(() => document.body.dataset.replayStep), String(step + 1));

      // A record whose rules do not come out before the step: the replay stops at the last step it derived
      // (the worker's fetch is routed too: the context's route), and the board opens there, never past it.
      const k = arch.actions.findIndex((a, i) => i >= 2 && i < p && a.action.roll);
      assert.ok(k > 0);
      const tampered = structuredClone(arch);
      tampered.actions[k].outcome.dice[0] = !tampered.actions[k].outcome.dice[0];
      await page.context().route(`**/api/matches/${id}`, (route) => route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(tampered) }));
      await page.goto(`${srv.url}/?name=Viewer#/replay/${id}?ply=${p}`);
      await page.waitForSelector(`section.replay[data-verify="mismatch:${arch.actions[k].ply}"]`);
      await page.click('#replay-analyse');
      await page.waitForSelector('#analysis[data-ready="true"]');
      const from = Number(await page.locator('#analysis').getAttribute('data-ply'));
      assert.ok(from <= arch.actions[k].ply, `the board starts at ply ${from}, not past the disagreement at ${arch.actions[k].ply}`);
      await page.context().unroute(`**/api/matches/${id}`);
      noProblems(page);
    } finally {
      await page.context().close();
    }
  }, { botDelayMs: 1 });
});
