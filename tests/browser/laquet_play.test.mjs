// laquet_play.test.mjs: the Laquet web client against the real server, in Debian's Chromium
// (playwright-core). A person plays a whole match against a bot by clicking, and two people play one
// while a third watches on a phone, all through the browser-test contract: a random legal action,
// the clicks the game view names for it (window.quinteto.clicksFor: a man, then a die, step by
// step), and a check that those clicks sent exactly that action. The board shows the unused
// quarter, the track, stacks with counts and the trays; the match is archived. Screenshots are kept.

import test from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { mkdtemp, writeFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import {
  withServer, newPlayerPage, artifactsDir, createRoom, checkActionBuilders, playRandomLegal, legalActions,
  noProblems, rng, sleep, browserFor, closeAll, waitTurnOrResult, MANUAL, QUICK_BOTS,
} from './lib.mjs';

const RESULT_RE = /^(White|Black) wins — all fifteen men borne off$/;

const browser = browserFor(test);

test('a person creates a Laquet room, adds a bot and plays to the end by clicking', { timeout: 300000 }, async (t) => {
  await withServer(async (srv) => {
    const page = await newPlayerPage(browser(), { server: srv, label: 'Alfonso', ...MANUAL });
    const rnd = rng();
    try {
      await page.goto(`${srv.url}/?name=Alfonso#/`);
      const room = await createRoom(page, { game: 'laquet', checks: { autoroll: true } });
      await page.click('.add-bot[data-seat="1"]');
      await page.waitForSelector('body[data-status="playing"][data-my-seat="0"]');
      // The board: the unused quarter, the track, the opening stacks with their counts, two trays.
      assert.equal(await page.locator('.lq-board .lq-out').count(), 1);
      assert.equal(await page.locator('.lq-board .lq-track').count(), 1);
      assert.equal(await page.locator('.lq-stack[data-route="6"][data-seat="1"][data-count="14"]').count(), 1);
      assert.equal(await page.locator('.lq-stack[data-route="18"][data-seat="0"][data-count="1"]').count(), 1);
      assert.equal(await page.locator('.lq-board .lq-tray').count(), 2);
      const dir = await artifactsDir();
      await page.screenshot({ path: path.join(dir, 'laquet-opening.png'), fullPage: true });

      const deadline = Date.now() + 240000;
      let moves = 0, checked = 0, shotPick = false, shotHanded = false;
      for (;;) {
        assert.ok(moves < 2000, 'more than 2000 actions without a result');
        assert.ok(Date.now() < deadline, `no result after ${moves} actions`);
        await waitTurnOrResult(page);
        if (await page.locator('#result').count()) break;
        if (checked < 40) { await checkActionBuilders(page); checked++; }
        const st = await page.evaluate(() => window.quinteto.state);
        if (!shotPick && st.legal.some((a) => a.plan)) {
          // Picking a man shows where each die lands it, before anything is sent.
          const from = st.legal.find((a) => a.plan).plan[0].from;
          await page.locator(`[data-click="from:${from}"]`).click();
          await page.waitForSelector('.lq-landing');
          assert.ok(await page.locator('[data-click^="die:"]').count() >= 1, 'die buttons for the picked man');
          assert.equal(await page.evaluate(() => window.quinteto.sent.length), moves, 'nothing sent by picking');
          await page.screenshot({ path: path.join(dir, 'laquet-picked.png'), fullPage: true });
          shotPick = true;
        }
        if (!shotHanded && st.view.handed.length) {
          assert.equal(await page.locator('.lq-side .lq-die.handed').count(), st.view.handed.length, 'handed dice drawn apart');
          await page.screenshot({ path: path.join(dir, 'laquet-handed.png'), fullPage: true });
          shotHanded = true;
        }
        if (await playRandomLegal(page, rnd)) {
          moves++;
          await page.waitForFunction((p) => window.quinteto.state.ply > p || !document.querySelector('.sending'), st.ply);
        }
      }
      const result = (await page.locator('#result').textContent()).trim();
      t.diagnostic(`${moves} actions by clicks, result "${result}", seed ${rnd.seed}, handed dice seen: ${shotHanded}`);
      assert.match(result, RESULT_RE);
      const st = await page.evaluate(() => window.quinteto.state);
      assert.equal(st.status, 'finished');
      const winner = ['white', 'black'][st.result.winner];
      assert.equal(st.view.off[winner], 15, 'the winner bore off fifteen');
      assert.equal(await page.locator('.legal').count(), 0, 'nothing is clickable once the match is over');
      const arch = await srv.archive(room);
      assert.equal(arch.game, 'laquet');
      assert.deepEqual(arch.result, st.result);
      // quinteto verify re-derives the archived match from its seeds and actions.
      const tmp = await mkdtemp(path.join(tmpdir(), 'quinteto-laquet-'));
      try {
        await writeFile(path.join(tmp, 'match.json'), JSON.stringify(arch));
        const out = await new Promise((resolve) => execFile(process.env.QUINTETO_CLI, ['verify', path.join(tmp, 'match.json')],
          { timeout: 20000 }, (err, stdout, stderr) => resolve({ code: err ? err.code : 0, text: stdout + stderr })));
        assert.equal(out.code, 0, `quinteto verify: ${out.text}`);
        assert.match(out.text, /verified/);
      } finally {
        await rm(tmp, { recursive: true, force: true });
      }
      await page.screenshot({ path: path.join(dir, 'laquet-finished.png'), fullPage: true });
      noProblems(page);
    } finally {
      await closeAll([page]);
    }
  }, QUICK_BOTS);
});

// A makes the first step of a two-step plan; B's socket drops and comes back, so A gets states of
// the same ply; the step must still be there (the board shows it, "reset" is offered), and the
// second step must send the whole plan.
async function halfMoveSurvives(a, b, action) {
  const [s1, s2] = action.plan;
  await a.locator(`[data-click="from:${s1.from}"]`).click();
  await a.locator(`[data-click="die:${s1.die}"]`).click();
  await a.waitForSelector('[data-click="reset"]');
  const n = await a.evaluate(() => window.quinteto.stateCount);
  const ply = await a.evaluate(() => window.quinteto.state.ply);
  const sent = await a.evaluate(() => window.quinteto.sent.length);
  await b.evaluate(() => window.quinteto.debugDropSocket());
  await a.waitForFunction((k) => window.quinteto.stateCount > k, n);
  assert.equal(await a.evaluate(() => window.quinteto.state.ply), ply, 'no action happened meanwhile');
  assert.equal(await a.evaluate(() => window.quinteto.sent.length), sent, 'half a plan is not sent');
  assert.equal(await a.locator('[data-click="reset"]').count(), 1, 'the first step survived');
  assert.ok(await a.locator('.lq-board .lq-staged-to').count() >= 1, 'the board shows the step made');
  await a.screenshot({ path: path.join(await artifactsDir(), 'laquet-half-move.png') });
  await a.locator(`[data-click="from:${s2.from}"]`).click();
  await a.locator(`[data-click="die:${s2.die}"]`).click();
  await a.waitForFunction((k) => window.quinteto.sent.length > k, sent);
  assert.deepEqual(await a.evaluate(() => window.quinteto.sent.at(-1)), action);
  await a.waitForFunction((p) => window.quinteto.state.ply > p, ply);
  await b.waitForFunction(() => window.quinteto && window.quinteto.connection === 'online');
}

test('two browser windows play a full Laquet match by clicking while a third watches on a phone', { timeout: 300000 }, async (t) => {
  await withServer(async (srv) => {
    const a = await newPlayerPage(browser(), { server: srv, label: 'Ana', ...MANUAL });
    const b = await newPlayerPage(browser(), { server: srv, label: 'Beto', ...MANUAL });
    const c = await newPlayerPage(browser(), { width: 390, height: 844, server: srv, label: 'Cy' });
    const rnd = rng();
    t.diagnostic(`seed ${rnd.seed} (the random clicks' seed: a failure is replayed with it)`);
    try {
      await a.goto(`${srv.url}/?name=Ana#/`);
      await b.goto(`${srv.url}/?name=Beto#/`);
      await c.goto(`${srv.url}/?name=Cy#/`);
      const room = await createRoom(a, { game: 'laquet', checks: { autoroll: true } });
      const joinB = b.locator(`.room-row[data-room="${room}"] button.join`);
      await joinB.waitFor();
      await b.waitForFunction((id) => {
        const btn = document.querySelector(`.room-row[data-room="${id}"] button.join`);
        return btn && !btn.disabled;
      }, room);
      await joinB.click();
      await b.waitForSelector(`body[data-room="${room}"][data-my-seat="1"]`);
      await c.locator(`.room-row[data-room="${room}"] button.watch`).click();
      await c.waitForSelector(`body[data-room="${room}"][data-status]`);
      await a.waitForSelector('body[data-status="playing"]');

      const deadline = Date.now() + 260000;
      let moves = 0, idle = 0, survived = false;
      for (;;) {
        assert.ok(Date.now() < deadline, `no result after ${moves} actions`);
        if (await a.locator('#result').count() && await b.locator('#result').count()) break;
        if (!survived) {
          const plan = (await legalActions(a)).find((x) => x.plan && x.plan.length === 2);
          if (plan) { await halfMoveSurvives(a, b, plan); survived = true; moves++; continue; }
        }
        let did = false;
        for (const p of rnd() < 0.5 ? [a, b] : [b, a]) {
          if (await playRandomLegal(p, rnd)) { did = true; moves++; break; }
        }
        if (!did) { idle++; await sleep(20); } else idle = 0;
        assert.ok(idle < 1500, 'nobody could act for 30 s');
      }
      assert.ok(survived, 'the match offered Ana a two-step plan at least once');
      await c.waitForSelector('#result', { timeout: 15000 });
      const [ra, rb, rc] = await Promise.all([a, b, c].map(async (p) => (await p.locator('#result').textContent()).trim()));
      t.diagnostic(`${moves} actions by clicks, result "${ra}", seed ${rnd.seed}`);
      assert.match(ra, RESULT_RE);
      assert.equal(rb, ra);
      assert.equal(rc, ra);
      const seen = await c.evaluate(() => window.quinteto.plies);
      assert.ok(seen.length >= 10, `the watcher saw intermediate states (${seen.length})`);
      assert.equal(await c.locator('.legal').count(), 0, 'a watcher gets nothing to click');
      await c.screenshot({ path: path.join(await artifactsDir(), 'laquet-watcher-phone.png'), fullPage: true });
      noProblems(a, b, c);
    } finally {
      await closeAll([a, b, c]);
    }
  });
});
