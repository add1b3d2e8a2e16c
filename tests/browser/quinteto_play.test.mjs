// quinteto_play.test.mjs: Quinteto's web module against the real server, in Debian's Chromium. A person
// takes the arranger's seat with five bots, arranges the circle by clicking hunters in slot order, places
// and duels to the end; another plays a hunter's seat to the end (watching the rest once eliminated); six
// browser windows play one match together by clicking while a seventh watches (quinteto_six.test.mjs).
// Every action goes through
// the browser-test contract (window.quinteto.clicksFor) and is checked to be exactly the one sent; every
// frame each page receives is schema-checked. Screenshots go to build-test/artifacts/.

import test from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import {
  withServer, newPlayerPage, artifactsDir, createRoom, checkActionBuilders, playRandomLegal, legalActions,
  noProblems, rng, browserFor, closeAll, waitTurnOrResult, MANUAL, QUICK_BOTS,
  playToResult,
} from './lib.mjs';

const RESULT_RE = /^(.+ wins (the duel|with a Quinteto \(5 and 5\))|Draw: the turn limit was reached)$/;

const browser = browserFor(test);

// Plays this page's seat to the end by random legal clicks; returns {moves, kinds} once #result shows.
const playToEnd = (page, rnd, { checks = 30, deadlineMs = 400000 } = {}) =>
  playToResult(page, rnd, { checks, deadlineMs, turnTimeout: 60000 });

// The lobby's room for `game`, the creator then moved from seat 0 to `seat`, bots in every other seat.
async function roomWithBots(page, seat) {
  const room = await createRoom(page, { game: 'quinteto', checks: { autoroll: false } });
  if (seat !== 0) {
    await page.click('button.leave'); // frees seat 0 and goes back to the lobby
    await page.waitForSelector('#create-room');
    await page.goto(`${page.url().split('#')[0]}#/room/${encodeURIComponent(room)}`);
    await page.waitForSelector(`.take-seat[data-seat="${seat}"]`);
    await page.click(`.take-seat[data-seat="${seat}"]`);
    await page.waitForSelector(`body[data-my-seat="${seat}"]`);
  }
  for (let s = 0; s < 6; s++) {
    if (s === seat) continue;
    await page.click(`.add-bot[data-seat="${s}"]`);
    await page.waitForSelector(`.seat[data-seat="${s}"] .badge.bot`);
  }
  await page.waitForSelector(`body[data-status="playing"][data-my-seat="${seat}"]`);
  return room;
}

test('a person arranges, places and duels as the arranger against five bots, by clicking', { timeout: 480000 }, async (t) => {
  await withServer(async (srv) => {
    const page = await newPlayerPage(browser(), { server: srv, label: 'Ari', ...MANUAL });
    const rnd = rng();
    try {
      await page.goto(`${srv.url}/?name=Ari#/`);
      await roomWithBots(page, 5);
      // The circle is built hunter by hunter, the chain shown as it grows.
      await waitTurnOrResult(page, 60000);
      const legal = await legalActions(page);
      assert.equal(legal.length, 120, 'every order of five hunters');
      assert.equal(await page.locator('[data-click^="arr:"]').count(), 5);
      await page.click('[data-click="arr:3"]');
      await page.waitForSelector('[data-marker="3"]');
      assert.equal(await page.locator('[data-click^="arr:"]').count(), 4);
      await page.click('[data-click="arrange-clear"]');
      await page.waitForFunction(() => document.querySelectorAll('[data-click^="arr:"]').length === 5);
      await page.screenshot({ path: path.join(await artifactsDir(), 'quinteto-arrange.png') });
      const { moves, kinds } = await playToEnd(page, rnd);
      const result = (await page.locator('#result').textContent()).trim();
      t.diagnostic(`${moves} actions by clicks (${[...kinds].join(', ')}), result "${result}", seed ${rnd.seed}`);
      assert.match(result, RESULT_RE);
      assert.ok(kinds.has('arrange'), 'the person arranged');
      const st = await page.evaluate(() => window.quinteto.state);
      assert.equal(st.status, 'finished');
      if (st.result.reason === 'duel' || st.result.reason === 'quinteto') {
        assert.ok(kinds.has('place'), 'the person placed for the duel');
        assert.ok(kinds.has('plan') || st.result.reason === 'quinteto', 'the person played plans in the duel');
      }
      assert.equal(await page.locator('.legal').count(), 0, 'nothing is clickable once the match is over');
      await page.screenshot({ path: path.join(await artifactsDir(), 'quinteto-arranger-finished.png'), fullPage: true });
      noProblems(page);
    } finally {
      await closeAll([page]);
    }
  }, QUICK_BOTS);
});

test('a person plays a hunter against bots to the end, by clicking plans', { timeout: 480000 }, async (t) => {
  await withServer(async (srv) => {
    const page = await newPlayerPage(browser(), { server: srv, label: 'Hana', ...MANUAL });
    const rnd = rng();
    try {
      await page.goto(`${srv.url}/?name=Hana#/`);
      await roomWithBots(page, 0);
      // a half-built plan: a stone chosen shows where it lands before anything is sent
      let shot = false;
      const deadline = Date.now() + 400000;
      let moves = 0;
      let checked = 0;
      // The arranger's bot may take the hunter before it is ever offered a two-step plan: then the match is
      // watched to its end (its result checked) and another room played, up to three.
      for (let rooms = 1; ; ) {
        assert.ok(Date.now() < deadline, 'no result');
        await waitTurnOrResult(page, 60000);
        if (await page.locator('#result').count()) {
          if (shot || rooms >= 3) break;
          assert.match((await page.locator('#result').textContent()).trim(), RESULT_RE);
          t.diagnostic(`room ${rooms} ended without a two-step plan for the hunter: another`);
          rooms++;
          await page.goto(`${srv.url}/?name=Hana#/`);
          await roomWithBots(page, 0);
          continue;
        }
        const legal = await legalActions(page);
        const plan = legal.find((a) => a.plan && a.plan.length === 2 && 'stone' in a.plan[0]);
        if (!shot && plan) {
          const sent = await page.evaluate(() => window.quinteto.sent.length);
          await page.click(`[data-click="stone:${plan.plan[0].stone}"]`);
          await page.waitForSelector('.q-target');
          await page.waitForSelector('[data-click^="opt:"]');
          await page.screenshot({ path: path.join(await artifactsDir(), 'quinteto-plan-builder.png') });
          assert.equal(await page.evaluate(() => window.quinteto.sent.length), sent, 'choosing a stone sends nothing');
          shot = true;
        }
        if (checked < 30) { checked++; await checkActionBuilders(page).catch(() => {}); } // the view may move on
        const ply = await page.evaluate(() => window.quinteto.state.ply);
        if (await playRandomLegal(page, rnd)) {
          moves++;
          await page.waitForFunction((p) => window.quinteto.state.ply > p || !document.querySelector('.sending'), ply);
        }
      }
      const result = (await page.locator('#result').textContent()).trim();
      t.diagnostic(`${moves} actions by clicks, result "${result}", seed ${rnd.seed}`);
      assert.match(result, RESULT_RE);
      assert.ok(shot, 'the hunter built a two-step plan at least once (in three rooms)');
      assert.equal(await page.locator('.legal').count(), 0);
      await page.screenshot({ path: path.join(await artifactsDir(), 'quinteto-hunter-finished.png'), fullPage: true });
      noProblems(page);
    } finally {
      await closeAll([page]);
    }
  }, QUICK_BOTS);
});
