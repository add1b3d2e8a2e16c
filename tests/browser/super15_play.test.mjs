// super15_play.test.mjs: the web client plays Super 1 al 5 against the real server, in Debian's
// Chromium (playwright-core). A person plays a whole match against a bot by clicking: for a random
// legal move, the clicks the game view names for it (window.quinteto.clicksFor: the piece, then the
// square where it stops), and a check that those clicks sent exactly that move. Then two people
// play by clicking while a third watches live, until one resigns. The board shows every piece with its value and
// points, the forbidden squares, the last move; the finished match is archived. Screenshots are
// kept in build-test/artifacts/.

import test from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import {
  withServer, newPlayerPage, artifactsDir, createRoom, checkActionBuilders, playRandomLegal, legalActions,
  noProblems, rng, sleep, browserFor, closeAll, waitTurnOrResult, MANUAL, QUICK_BOTS,
  playToResult,
} from './lib.mjs';

const RESULT_RE = /^((Light|Dark) wins( — the other side has one piece left| on points| — the other side cannot move)|Draw on points)$/;

const browser = browserFor(test);

// What the board shows agrees with the state's view: every piece on its square with its value.
async function checkBoard(page) {
  const bad = await page.evaluate(() => {
    const out = [];
    const pieces = window.quinteto.state.view.pieces;
    for (const p of pieces) {
      const cell = document.querySelector(`[data-square="${p.square}"] .s15-piece`);
      if (!cell) out.push(`no piece drawn on ${p.square}`);
      else if (cell.querySelector('.s15-value').textContent !== String(p.value)) out.push(`wrong value on ${p.square}`);
      else if (cell.classList.contains('s15-super') !== p.super) out.push(`Super mark on ${p.square}`);
    }
    if (document.querySelectorAll('.s15-piece').length !== pieces.length + document.querySelectorAll('.s15-legend-cell .s15-piece').length)
      out.push('extra pieces drawn');
    for (const sq of ['d5', 'e5', 'd6', 'e6'])
      if (!document.querySelector(`[data-square="${sq}"]`).classList.contains('s15-forbidden')) out.push(`${sq} not marked forbidden`);
    return out;
  });
  assert.deepEqual(bad, []);
}

test('a person plays a whole Super 1 al 5 match against a bot by clicking', { timeout: 400000 }, async (t) => {
  await withServer(async (srv) => {
    const page = await newPlayerPage(browser(), { server: srv, label: 'Alice', ...MANUAL });
    const rnd = rng();
    try {
      await page.goto(`${srv.url}/?name=Alice#/`);
      const room = await createRoom(page, { game: 'super15' });
      await page.click('.add-bot[data-seat="1"]');
      await page.waitForSelector('.seat[data-seat="1"] .badge.bot');
      await page.waitForSelector('body[data-status="playing"][data-my-seat="0"]');
      assert.equal(await page.evaluate(() => getComputedStyle(document.querySelector('.s15-board-wrap')).paddingTop), '6px');
      assert.equal(await page.locator('.s15-square').count(), 80);
      await checkBoard(page);
      // Selecting a piece lights every square it may stop on, and nothing else.
      await waitTurnOrResult(page);
      const legal = await legalActions(page);
      assert.equal(legal.length, 36);
      await page.locator('[data-click="piece:c2"]').click();
      const lit = (await page.locator('[data-click^="to:"]').evaluateAll((els) => els.map((e) => e.dataset.click))).sort();
      assert.deepEqual(lit, legal.filter((a) => a.from === 'c2').map((a) => `to:${a.to}`).sort());
      await page.screenshot({ path: path.join(await artifactsDir(), 'super15-selected.png') });
      await page.locator('[data-click="piece:c2"]').click(); // unselect

      const { moves } = await playToResult(page, rnd, {
        checks: 10, check: checkBoard, maxMoves: 1500, deadlineMs: 360000, what: 'moves',
      });
      const result = (await page.locator('#result').textContent()).trim();
      t.diagnostic(`${moves} moves by clicks, result "${result}", seed ${rnd.seed}`);
      assert.match(result, RESULT_RE);
      const st = await page.evaluate(() => window.quinteto.state);
      assert.equal(st.status, 'finished');
      await checkBoard(page);
      assert.equal(await page.locator('.legal').count(), 0, 'nothing is clickable once the match is over');
      if (st.last) assert.equal(await page.locator(`[data-square="${st.last.action.to}"].s15-last-to`).count(), 1, 'the last move is marked');
      const arch = await srv.archive(room);
      assert.equal(arch.actions.length, st.ply, 'the whole match is archived');
      assert.deepEqual(arch.result, st.result);
      await page.screenshot({ path: path.join(await artifactsDir(), 'super15-finished.png'), fullPage: true });
      noProblems(page);
    } finally {
      await closeAll([page]);
    }
  }, QUICK_BOTS);
});

test('two people play Super 1 al 5 by clicking while a third watches; a resignation ends it', { timeout: 300000 }, async (t) => {
  await withServer(async (srv) => {
    const a = await newPlayerPage(browser(), { server: srv, label: 'Ana', ...MANUAL });
    const b = await newPlayerPage(browser(), { server: srv, label: 'Bea', ...MANUAL });
    const c = await newPlayerPage(browser(), { width: 390, height: 844, server: srv, label: 'Cy' });
    const rnd = rng();
    try {
      await a.goto(`${srv.url}/?name=Ana#/`);
      await b.goto(`${srv.url}/?name=Bea#/`);
      await c.goto(`${srv.url}/?name=Cy#/`);
      const room = await createRoom(a, { game: 'super15' });
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

      // Forty moves by clicks (a whole match by clicks is the first test's), then Bea resigns.
      let moves = 0;
      let idle = 0;
      while (moves < 40) {
        let did = false;
        for (const p of [a, b]) {
          if (await playRandomLegal(p, rnd)) { did = true; moves++; break; }
        }
        if (!did) { idle++; await sleep(20); } else idle = 0;
        assert.ok(idle < 1500, 'nobody could act for 30 s');
      }
      const mid = await c.evaluate(() => window.quinteto.state.ply);
      assert.ok(mid >= 39, `the watcher follows live (ply ${mid})`);
      await checkBoard(c);
      b.once('dialog', (d) => d.accept());
      await b.click('button.resign');
      await c.waitForSelector('#result', { timeout: 15000 });
      const [ra, rb, rc] = await Promise.all([a, b, c].map(async (p) => (await p.locator('#result').textContent()).trim()));
      t.diagnostic(`${moves} moves by clicks, result "${ra}", seed ${rnd.seed}`);
      assert.equal(ra, 'Light wins — the other side resigned');
      assert.equal(rb, ra);
      assert.equal(rc, ra);
      const [pa, pc] = await Promise.all([a, c].map((p) => p.evaluate(() => window.quinteto.state.ply)));
      assert.equal(pc, pa, 'the watcher saw the final ply');
      const seen = await c.evaluate(() => window.quinteto.plies);
      assert.ok(seen.some((p) => p > 0 && p < pa), 'the watcher saw the match in between');
      assert.equal(await c.locator('.legal').count(), 0, 'a watcher gets nothing to click');
      await checkBoard(c);
      await c.screenshot({ path: path.join(await artifactsDir(), 'super15-watcher-phone.png'), fullPage: true });
      noProblems(a, b, c);
    } finally {
      await closeAll([a, b, c]);
    }
  });
});
