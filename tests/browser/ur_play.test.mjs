// ur_play.test.mjs: the web client against the real server, in Debian's Chromium (playwright-core).
// People (and bots) play the Royal Game of Ur to the end through the browser-test contract: a
// random legal action, the clicks the game view names for it (window.quinteto.clicksFor), and a
// check that those clicks sent exactly that action. A half-made move (a selected piece) survives
// another seat's state; a watcher follows live; a dropped socket reconnects and resumes its seat;
// the lobby updates live; a resignation is answered and ends the match. Each test starts its own
// server, and every frame each page receives is schema-checked.

import test from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  Server, withServer, newPlayerPage, artifactsDir, createRoom, checkActionBuilders, playRandomLegal,
  playAction, legalActions, noProblems, rng, sleep, browserFor, closeAll, waitTurnOrResult, MANUAL,
  QUICK_BOTS, playToResult,
} from './lib.mjs';

const RESULT_RE = /^(Light|Dark) wins — all seven pieces borne off$/;

const browser = browserFor(test);

test('a person creates an Ur room, adds a bot and plays to the end by clicking', { timeout: 240000 }, async (t) => {
  await withServer(async (srv) => {
    const page = await newPlayerPage(browser(), { server: srv, label: 'Alice', ...MANUAL });
    const rnd = rng();
    try {
      await page.goto(`${srv.url}/?name=Alice#/`);
      const room = await createRoom(page, { checks: { autoroll: false } });
      await page.click('.add-bot[data-seat="1"]');
      await page.waitForSelector('.seat[data-seat="1"] .badge.bot');
      await page.waitForSelector('body[data-status="playing"][data-my-seat="0"]');
      assert.equal(await page.evaluate(() => window.quinteto.state.room), room);
      // The game's own stylesheet is loaded by its module, under the server's strict CSP.
      assert.equal(await page.evaluate(() => getComputedStyle(document.querySelector('.ur-board-wrap')).paddingTop), '6px');

      const { moves } = await playToResult(page, rnd, { maxMoves: 2000, deadlineMs: 180000 });
      const result = (await page.locator('#result').textContent()).trim();
      t.diagnostic(`${moves} actions by clicks, result "${result}", seed ${rnd.seed}`);
      assert.match(result, RESULT_RE);
      const st = await page.evaluate(() => window.quinteto.state);
      assert.equal(st.status, 'finished');
      assert.equal(await page.evaluate(() => document.body.dataset.status), 'finished');
      const winner = st.result.winner;
      assert.ok(st.view.pieces[winner].every((p) => p === 24), 'the winner has borne off all seven');
      assert.match(st.server_seed || '', /^[0-9a-f]{64}$/, 'the server seed is revealed');
      assert.equal(await page.locator('#server-seed').textContent(), st.server_seed);
      assert.equal(await page.locator('.legal').count(), 0, 'nothing is clickable once the match is over');
      await page.evaluate(() => { document.querySelector('details.fair').open = true; });
      const dir = await artifactsDir();
      await page.screenshot({ path: path.join(dir, 'ur-finished.png'), fullPage: true });
      noProblems(page);
    } finally {
      await closeAll([page]);
    }
  }, QUICK_BOTS);
});

// A selects a piece; B's socket drops and comes back, so A gets states of the same ply; the
// selection must still be there, and its target must make the move.
async function selectionSurvives(a, b, move) {
  await a.locator(`[data-click="piece:${move.move}"]`).click();
  await a.waitForSelector(`g.selected[data-click="piece:${move.move}"]`);
  await a.waitForSelector('[data-click="target"]');
  const n = await a.evaluate(() => window.quinteto.stateCount);
  const ply = await a.evaluate(() => window.quinteto.state.ply);
  await b.evaluate(() => window.quinteto.debugDropSocket());
  await a.waitForFunction((k) => window.quinteto.stateCount > k, n); // B shown disconnected (or back)
  assert.equal(await a.evaluate(() => window.quinteto.state.ply), ply, 'no action happened meanwhile');
  assert.equal(await a.locator(`g.selected[data-click="piece:${move.move}"]`).count(), 1, 'the selection survived');
  await a.screenshot({ path: path.join(await artifactsDir(), 'ur-selected.png') });
  const before = await a.evaluate(() => window.quinteto.sent.length);
  await a.locator('[data-click="target"]').click();
  await a.waitForFunction((k) => window.quinteto.sent.length > k, before);
  assert.deepEqual(await a.evaluate(() => window.quinteto.sent.at(-1)), move);
  await a.waitForFunction((p) => window.quinteto.state.ply > p, ply);
  await b.waitForFunction(() => window.quinteto && window.quinteto.connection === 'online');
}

test('two browser windows play a full Ur match by clicking while a third watches live', { timeout: 300000 }, async (t) => {
  await withServer(async (srv) => {
    const a = await newPlayerPage(browser(), { server: srv, label: 'Ana', ...MANUAL });
    const b = await newPlayerPage(browser(), { server: srv, label: 'Bea', ...MANUAL });
    const c = await newPlayerPage(browser(), { width: 390, height: 844, server: srv, label: 'Cy' }); // a phone
    const rnd = rng();
    try {
      await a.goto(`${srv.url}/?name=Ana#/`);
      await b.goto(`${srv.url}/?name=Bea#/`);
      await c.goto(`${srv.url}/?name=Cy#/`);
      const room = await createRoom(a, { checks: { autoroll: true } });

      // B joins from the lobby list, C watches from it.
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
      assert.equal(await c.evaluate(() => document.body.dataset.mySeat), '');

      const watcherPlies = new Set();
      const deadline = Date.now() + 240000;
      let moves = 0;
      let idle = 0;
      let survived = false;
      for (;;) {
        assert.ok(moves < 2000, 'more than 2000 actions without a result');
        assert.ok(Date.now() < deadline, `no result after ${moves} actions`);
        if (await a.locator('#result').count() && await b.locator('#result').count()) break;
        if (!survived) {
          const move = (await legalActions(a)).find((x) => 'move' in x);
          if (move) { await selectionSurvives(a, b, move); survived = true; moves++; continue; }
        }
        let did = false;
        for (const p of rnd() < 0.5 ? [a, b] : [b, a]) {
          if (await playRandomLegal(p, rnd)) { did = true; moves++; break; }
        }
        if (moves % 10 === 0) watcherPlies.add(await c.evaluate(() => window.quinteto.state?.ply));
        if (!did) { idle++; await sleep(20); } else idle = 0;
        assert.ok(idle < 1500, 'nobody could act for 30 s');
      }
      assert.ok(survived, 'the match offered Ana a move at least once');
      await c.waitForSelector('#result', { timeout: 15000 });
      const [ra, rb, rc] = await Promise.all([a, b, c].map(async (p) => (await p.locator('#result').textContent()).trim()));
      t.diagnostic(`${moves} actions by clicks, result "${ra}", seed ${rnd.seed}`);
      assert.match(ra, RESULT_RE);
      assert.equal(rb, ra);
      assert.equal(rc, ra);
      const [pa, pb, pc] = await Promise.all([a, b, c].map((p) => p.evaluate(() => window.quinteto.state.ply)));
      assert.equal(pb, pa);
      assert.equal(pc, pa, 'the watcher saw the final ply');
      const seen = await c.evaluate(() => window.quinteto.plies);
      t.diagnostic(`the watcher saw ${seen.length} states, final ply ${pc}`);
      assert.ok(seen.length >= 10, `the watcher saw intermediate states (${seen.length})`);
      assert.ok(seen.some((p) => p > 0 && p < pa), 'the watcher saw a ply between the first and the last');
      for (let i = 1; i < seen.length; i++) assert.ok(seen[i] > seen[i - 1], `watcher plies increase: ${seen}`);
      assert.ok([...watcherPlies].filter((p) => p > 0 && p < pa).length >= 1, 'the watcher advanced while the match was played');
      assert.equal(await c.locator('.legal').count(), 0, 'a watcher gets nothing to click');
      const dir = await artifactsDir();
      await c.screenshot({ path: path.join(dir, 'ur-watcher-phone.png'), fullPage: true });
      noProblems(a, b, c);
    } finally {
      await closeAll([a, b, c]);
    }
  });
});

test('the client reconnects after the server drops it and resumes its seat', { timeout: 120000 }, async () => {
  await withServer(async (srv) => {
    const page = await newPlayerPage(browser(), { server: srv, label: 'Dora', ...MANUAL });
    try {
      await page.goto(`${srv.url}/?name=Dora#/`);
      const room = await createRoom(page, { checks: { autoroll: false } });
      await page.click('.add-bot[data-seat="1"]');
      await page.waitForSelector('body[data-status="playing"][data-my-seat="0"]');
      await waitTurnOrResult(page);
      const ply0 = await page.evaluate(() => window.quinteto.state.ply);

      // Drop the socket under the app; it must reconnect, say hello with its token and resume.
      const before = await page.evaluate(() => window.quinteto.welcomes);
      await page.evaluate(() => window.quinteto.debugDropSocket());
      await page.waitForFunction((n) => window.quinteto.welcomes > n && window.quinteto.connection === 'online', before);
      await page.waitForSelector(`body[data-room="${room}"][data-my-seat="0"][data-status="playing"]`);
      await page.waitForSelector('.seat[data-seat="0"] .dot-on');
      await waitTurnOrResult(page);
      assert.ok(await playAction(page, { roll: true }), 'rolls after the reconnect');
      await page.waitForFunction((p) => window.quinteto.state.ply > p, ply0);

      // A reload is a new socket too, and this time the page has forgotten its seat: the token
      // resumes the player and welcome.seats alone says which seat it holds.
      await page.evaluate(() => {
        for (const k of Object.keys(localStorage)) {
          const x = JSON.parse(localStorage.getItem(k));
          if (x && x.seats) { x.seats = {}; localStorage.setItem(k, JSON.stringify(x)); }
        }
      });
      await page.reload();
      await page.waitForSelector(`body[data-room="${room}"][data-my-seat="0"][data-status="playing"]`);
      await page.waitForFunction(() => window.quinteto && window.quinteto.state && window.quinteto.state.ply > 0);
      await waitTurnOrResult(page, 20000);
      const ply1 = await page.evaluate(() => window.quinteto.state.ply);
      await checkActionBuilders(page);
      assert.ok(await playRandomLegal(page), 'can act after the reload');
      await page.waitForFunction((p) => window.quinteto.state.ply > p, ply1);
      noProblems(page);
    } finally {
      await closeAll([page]);
    }
  });
});

test('a resignation is answered, ends the match and the room shows its options', { timeout: 60000 }, async () => {
  await withServer(async (srv) => {
    const page = await newPlayerPage(browser(), { server: srv, label: 'Eve' });
    try {
      await page.goto(`${srv.url}/?name=Eve#/`);
      await createRoom(page, { checks: { autoroll: true } });
      // state.options (r2) names the room's options, defaults filled in.
      await page.waitForSelector('.room-options .tag:text-is("dice rolled for you")');
      assert.deepEqual(await page.evaluate(() => window.quinteto.state.options), { autoroll: true, clock: null, stand_in_after_ms: 30000, stand_in_level: null, idle_after_ms: 300000 });
      await page.click('.add-bot[data-seat="1"]');
      await page.waitForSelector('body[data-status="playing"][data-my-seat="0"]');
      page.once('dialog', (d) => d.accept());
      await page.click('button.resign');
      await page.waitForSelector('.toast[data-code="resigned"]'); // the r2 `resigned` reply
      await page.waitForSelector('#result');
      assert.equal((await page.locator('#result').textContent()).trim(), 'Dark wins — the other side resigned');
      assert.match(await page.locator('.result-you').textContent(), /You lose\./);
      assert.equal(await page.locator('.legal').count(), 0);
      noProblems(page);
    } finally {
      await closeAll([page]);
    }
  });
});

test('the lobby lists a new room live', { timeout: 60000 }, async () => {
  await withServer(async (srv) => {
    const creator = await newPlayerPage(browser(), { server: srv, label: 'Cora' });
    const viewer = await newPlayerPage(browser(), { server: srv, label: 'Viv' });
    try {
      await viewer.goto(`${srv.url}/?name=Viv#/`);
      await viewer.waitForSelector('#room-list');
      await viewer.waitForFunction(() => window.quinteto && window.quinteto.connection === 'online');
      await viewer.evaluate(() => { window.__noReload = true; });
      assert.equal(await viewer.locator('.room-row').count(), 0);

      await creator.goto(`${srv.url}/?name=Cora#/`);
      const room = await createRoom(creator, { checks: { autoroll: true } });
      const row = viewer.locator(`.room-row[data-room="${room}"]`);
      await row.waitFor({ timeout: 10000 });
      assert.match(await row.textContent(), /Royal Game of Ur/);
      assert.match(await row.textContent(), /dice rolled for you/);
      assert.match(await row.getAttribute('data-status'), /^waiting$/);

      // The creator's seat (taken at once) shows up in the list too.
      await viewer.waitForFunction((id) => {
        const li = document.querySelector(`.room-row[data-room="${id}"] .room-seats li[data-seat="0"]`);
        return li && li.textContent.includes('Cora');
      }, room, { timeout: 10000 });
      assert.equal(await viewer.evaluate(() => window.__noReload), true, 'the lobby did not reload');
      assert.ok(srv.checked >= 6, `the pages' frames were schema-checked (${srv.checked})`);

      // Every registered game module has the whole contract (clients/web/games/registry.js).
      const bad = await viewer.evaluate(async () => {
        const { GAMES, CONTRACT } = await import('./games/registry.js');
        return GAMES.flatMap((g) => [
          ...CONTRACT.strings.filter((k) => typeof g[k] !== 'string').map((k) => `${g.id}: ${k}`),
          ...CONTRACT.objects.filter((k) => !g[k] || ['en', 'es', 'pt'].some((l) => !g[k][l])).map((k) => `${g.id}: ${k}`),
          ...CONTRACT.arrays.filter((k) => !Array.isArray(g[k])).map((k) => `${g.id}: ${k}`),
          ...CONTRACT.functions.filter((f) => typeof g[f] !== 'function').map((f) => `${g.id}: ${f}`)]);
      });
      assert.deepEqual(bad, []);
      const csp = (await srv.http('/')).headers.get('content-security-policy') || '';
      assert.match(csp, /script-src 'self'/, 'the web client is served with a strict CSP');
      assert.doesNotMatch(csp, /unsafe-inline/);
      const dir = await artifactsDir();
      await viewer.screenshot({ path: path.join(dir, 'lobby.png'), fullPage: true });
      noProblems(creator, viewer);
    } finally {
      await closeAll([creator, viewer]);
    }
  });
});

// SIGTERM (a restart, an upgrade): the server closes the page's socket with 1012; the page keeps
// retrying by itself, finds the next server on the same address and database, says hello with its
// token and lands back in its room, at the same ply, and plays on.
test('the client rides a server restart (SIGTERM, 1012): it reconnects to the next server and resumes its seat', { timeout: 120000 }, async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'quinteto-browser-restart-'));
  const first = await Server.start({ dir, botDelayMs: 50 });
  let srv = first;
  // every frame the page receives, from either server, is checked in first's record
  const page = await newPlayerPage(browser(), { server: first, label: 'Rita', ...MANUAL });
  try {
    await page.goto(`${srv.url}/?name=Rita#/`);
    const room = await createRoom(page, { checks: { autoroll: false } });
    await page.click('.add-bot[data-seat="1"]');
    await page.waitForSelector('body[data-status="playing"][data-my-seat="0"]');
    await waitTurnOrResult(page);
    assert.ok(await playAction(page, { roll: true }), 'rolls before the restart');
    await page.waitForFunction(() => window.quinteto && window.quinteto.state.ply > 0);
    await waitTurnOrResult(page);
    const ply0 = await page.evaluate(() => window.quinteto.state.ply);
    const before = await page.evaluate(() => window.quinteto.welcomes);

    await srv.stop({ keepClients: true }); // SIGTERM, exit 0 required
    assert.match(srv.stderr, /SIGTERM: stopping; telling 1 connections the server restarts \(1012\)/);
    await page.waitForFunction(() => window.quinteto && window.quinteto.connection !== 'online');
    srv = await Server.start({ dir, botDelayMs: 50, port: srv.port });
    await page.waitForFunction((n) => window.quinteto.welcomes > n && window.quinteto.connection === 'online',
      before, { timeout: 30000 });
    await page.waitForSelector(`body[data-room="${room}"][data-my-seat="0"][data-status="playing"]`);
    await waitTurnOrResult(page, 20000);
    assert.equal(await page.evaluate(() => window.quinteto.state.ply), ply0, 'the same ply: nothing was lost');
    assert.ok(await playRandomLegal(page), 'plays on after the restart');
    await page.waitForFunction((p) => window.quinteto.state.ply > p, ply0);
    // The page's retries while no server listened are the only browser errors allowed.
    page.problems = page.problems.filter((p) => !/WebSocket connection to .* failed/.test(p));
    noProblems(page);
    first.assertValid();
  } finally {
    await closeAll([page]);
    await srv.stop().catch(() => {});
    await rm(dir, { recursive: true, force: true });
  }
});
