// replay_eye.test.mjs: the bot's eye in the replay, in Chromium (issue 22; clients/web/eye.js, eye-view.js). A
// real Ur match is played to its end, its replay opened: the replay's Web Worker weighs the positions with the
// strong bot through the rules module and the graph under the board fills (one line per seat, the step shown
// marked), the text summary says each seat's chance at the step shown, and at a step where the seat to act has
// a choice the page names the move the bot would play, in the game's own words; that move is one of the seat's
// legal actions there, as the same rules module run here in Node derives them. Nothing goes to the server
// meanwhile: no WebSocket message. Screenshots go to build-test/artifacts/.

import test from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { readFile } from 'node:fs/promises';
import { playAgainstBots } from '../lib/match.mjs';
import { withServer, newPlayerPage, artifactsDir, noProblems, browserFor } from './lib.mjs';

const web = path.join(process.env.QUINTETO_SOURCE, 'clients', 'web');
const { loadRules, canonical } = await import(path.join(web, 'rules-core.js'));
const { derive, stepOrder } = await import(path.join(web, 'derive.js'));
const { eyeSteps } = await import(path.join(web, 'eye.js'));
const wasmFile = path.join(path.dirname(process.env.QUINTETO_ARTIFACTS), 'protocol', 'wasm', 'rules.wasm');

const browser = browserFor(test);

test('the replay weighs every position with the strong bot, draws the chances and names the bot\'s move', { timeout: 240000 }, async () => {
  await withServer(async (srv) => {
    const { id } = await playAgainstBots(srv, 'ur', { name: 'Ana', clientSeed: 'eye seed', level: 'greedy' });
    const arch = await srv.archive(id);
    const core = await loadRules(await readFile(wasmFile));
    const page = await newPlayerPage(browser(), { server: srv, label: 'Viewer' });
    const shots = await artifactsDir();
    const sent = [];
    page.on('websocket', (ws) => ws.on('framesent', ({ payload }) => sent.push(String(payload))));
    try {
      await page.goto(`${srv.url}/?name=Viewer#/replay/${id}`);
      await page.waitForSelector('body[data-replay-steps]');
      await page.waitForSelector('#bot-eye[data-state="weighing"], #bot-eye[data-state="done"]');
      const before = sent.length;
      await page.waitForSelector('#bot-eye[data-state="done"]', { timeout: 120000 });
      assert.equal(sent.length, before, `the page sent nothing while weighing: ${sent.slice(before).join(' ')}`);
      // the start and every action's position (a match longer than 600 is sampled: eye.js)
      const order = stepOrder(arch);
      const positions = eyeSteps(order, order.length).length;
      if (1 + arch.actions.length <= 600) assert.equal(positions, 1 + arch.actions.length, 'a short match: all weighed');
      else assert.ok(positions <= 600, `a long match: sampled (${positions})`);
      assert.equal(Number(await page.getAttribute('#bot-eye', 'data-points')), positions);
      assert.match(await page.locator('#eye-status').innerText(), new RegExp(`weighed ${positions} positions`));
      // one line per seat in its colour, the step shown marked
      assert.deepEqual(await page.$$eval('#eye-graph polyline.eye-line', (ls) => ls.map((l) => l.getAttribute('class'))),
        ['eye-line seat-c0', 'eye-line seat-c1']);
      assert.equal(await page.locator('#eye-graph .eye-cursor').count(), 1);
      assert.equal(await page.getAttribute('#eye-graph', 'role'), 'img');
      assert.equal(await page.getAttribute('#eye-graph', 'aria-labelledby'), 'eye-summary');
      // the summary at the start: each seat's chance in words
      assert.match(await page.locator('#eye-summary').innerText(),
        /^Chances to win at move 0, as the strong bot sees them: Light \d+%, Dark \d+%\.$/);
      // step on until the seat to act has a choice: the bot's move named, one of the seat's legal actions
      let named = null;
      for (let i = 0; i < 60 && !named; i++) {
        await page.keyboard.press('ArrowRight');
        const text = await page.locator('#eye-move').innerText();
        if (text.startsWith('The bot would play: ')) {
          named = { text, move: JSON.parse(await page.getAttribute('#eye-move', 'data-move')),
            step: Number(await page.evaluate(() => document.body.dataset.replayStep)) };
        }
      }
      assert.ok(named, 'a step where the bot names its move');
      assert.match(named.text, /^The bot would play: (Light|Dark) /);
      const d = derive(core, arch, { until: named.step });
      const seat = d.match.toAct()[0];
      const legal = d.match.legal(seat).map(canonical);
      assert.ok(legal.length > 1 && legal.includes(canonical(named.move)), `${JSON.stringify(named.move)} is legal at step ${named.step}`);
      // the cursor moved with the step shown
      const x = await page.getAttribute('#eye-graph .eye-cursor', 'x1');
      assert.ok(Number(x) > 4, `the cursor is past the start (${x})`);
      await page.locator('#bot-eye').screenshot({ path: path.join(shots, 'replay-eye.png') });
      noProblems(page);
    } finally {
      await page.context().close();
    }
  });
});
