// ur_play.test.mjs: the web client against the real server, in Debian's Chromium (playwright-core).
// People (and bots) play the Royal Game of Ur to the end by clicking the client's legal-action
// elements (class `legal`, data-action = the action's JSON); a watcher follows live; a dropped
// socket reconnects and resumes its seat; the lobby updates live. Each test starts its own server.

import test from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import {
  withServer, launchBrowser, newPlayerPage, artifactsDir, createRoom, checkLegalMarkup,
  clickRandomLegal, rng, sleep,
} from './lib.mjs';

const RESULT_RE = /^(Light|Dark) wins — race$/;

let browser;
test.before(async () => { browser = await launchBrowser(); });
test.after(async () => { if (browser) await browser.close(); });

async function closeAll(pages) {
  for (const p of pages) await p.context().close().catch(() => {});
}

function noProblems(...pages) {
  const all = pages.flatMap((p) => p.problems);
  assert.deepEqual(all, [], `browser errors:\n${all.join('\n')}`);
}

test('a person creates an Ur room, adds a bot and plays to the end by clicking', { timeout: 240000 }, async (t) => {
  await withServer(async (srv) => {
    const page = await newPlayerPage(browser);
    const rnd = rng();
    try {
      await page.goto(`${srv.url}/?name=Alice#/`);
      const room = await createRoom(page, { autoroll: false });
      await page.click('.add-bot[data-seat="1"]');
      await page.waitForSelector('.seat[data-seat="1"] .badge.bot');
      await page.click('.take-seat[data-seat="0"]');
      await page.waitForSelector('body[data-status="playing"][data-my-seat="0"]');
      assert.equal(await page.evaluate(() => window.quinteto.state.room), room);

      const deadline = Date.now() + 180000;
      let clicks = 0;
      let checked = 0;
      for (;;) {
        assert.ok(clicks < 2000, 'more than 2000 clicks without a result');
        assert.ok(Date.now() < deadline, `no result after ${clicks} clicks`);
        await page.waitForFunction(() => document.querySelector('#result') ||
          document.querySelector('.legal'), null, { timeout: 30000 });
        if (await page.locator('#result').count()) break;
        if (checked < 40) { await checkLegalMarkup(page); checked++; }
        if (await clickRandomLegal(page, rnd)) clicks++;
      }
      const result = (await page.locator('#result').textContent()).trim();
      t.diagnostic(`${clicks} clicks, result "${result}", seed ${rnd.seed}`);
      assert.match(result, RESULT_RE);
      const st = await page.evaluate(() => window.quinteto.state);
      assert.equal(st.status, 'finished');
      assert.equal(await page.evaluate(() => document.body.dataset.status), 'finished');
      const winner = st.result.winner;
      assert.ok(st.view.pieces[winner].every((p) => p === 24), 'the winner has borne off all seven');
      assert.match(st.server_seed || '', /^[0-9a-f]{64}$/, 'the server seed is revealed');
      assert.equal(await page.locator('#server-seed').textContent(), st.server_seed);
      assert.equal(await page.locator('.legal').count(), 0);
      await page.evaluate(() => { document.querySelector('details.fair').open = true; });
      const dir = await artifactsDir();
      await page.screenshot({ path: path.join(dir, 'ur-finished.png'), fullPage: true });
      noProblems(page);
    } finally {
      await closeAll([page]);
    }
  });
});

test('two browser windows play a full Ur match by clicking while a third watches live', { timeout: 300000 }, async (t) => {
  await withServer(async (srv) => {
    const a = await newPlayerPage(browser);
    const b = await newPlayerPage(browser);
    const c = await newPlayerPage(browser, { width: 390, height: 844 }); // the watcher is on a phone
    const rnd = rng();
    try {
      await a.goto(`${srv.url}/?name=Ana#/`);
      await b.goto(`${srv.url}/?name=Bea#/`);
      await c.goto(`${srv.url}/?name=Cy#/`);
      const room = await createRoom(a, { autoroll: true });
      await a.click('.take-seat[data-seat="0"]');
      await a.waitForSelector('body[data-my-seat="0"]');

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
      let clicks = 0;
      let idle = 0;
      for (;;) {
        assert.ok(clicks < 2000, 'more than 2000 clicks without a result');
        assert.ok(Date.now() < deadline, `no result after ${clicks} clicks`);
        if (await a.locator('#result').count() && await b.locator('#result').count()) break;
        let did = false;
        for (const p of rnd() < 0.5 ? [a, b] : [b, a]) {
          if (await clickRandomLegal(p, rnd)) { did = true; clicks++; break; }
        }
        if (clicks % 10 === 0) watcherPlies.add(await c.evaluate(() => window.quinteto.state?.ply));
        if (!did) { idle++; await sleep(20); } else idle = 0;
        assert.ok(idle < 1500, 'nobody could act for 30 s');
      }
      await c.waitForSelector('#result', { timeout: 15000 });
      const [ra, rb, rc] = await Promise.all([a, b, c].map(async (p) => (await p.locator('#result').textContent()).trim()));
      t.diagnostic(`${clicks} clicks, result "${ra}", seed ${rnd.seed}`);
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
      assert.equal(await c.locator('.legal').count(), 0, 'a watcher gets no legal actions');
      noProblems(a, b, c);
    } finally {
      await closeAll([a, b, c]);
    }
  });
});

test('the client reconnects after the server drops it and resumes its seat', { timeout: 120000 }, async () => {
  await withServer(async (srv) => {
    const page = await newPlayerPage(browser);
    try {
      await page.goto(`${srv.url}/?name=Dora#/`);
      const room = await createRoom(page, { autoroll: false });
      await page.click('.add-bot[data-seat="1"]');
      await page.click('.take-seat[data-seat="0"]');
      await page.waitForSelector('body[data-status="playing"][data-my-seat="0"]');
      await page.waitForSelector('.legal[data-action=\'{"roll":true}\']');
      const ply0 = await page.evaluate(() => window.quinteto.state.ply);

      // Drop the socket under the app; it must reconnect, say hello with its token and resume.
      const before = await page.evaluate(() => window.quinteto.welcomes);
      await page.evaluate(() => window.quinteto.debugDropSocket());
      await page.waitForFunction((n) => window.quinteto.welcomes > n && window.quinteto.connection === 'online', before);
      await page.waitForSelector(`body[data-room="${room}"][data-my-seat="0"][data-status="playing"]`);
      await page.waitForSelector('.seat[data-seat="0"] .dot-on');
      const roll = page.locator('.legal[data-action=\'{"roll":true}\']');
      await roll.waitFor();
      await roll.click();
      await page.waitForFunction((p) => window.quinteto.state.ply > p, ply0);

      // A reload is a new socket too: the token from localStorage resumes the same seat.
      await page.reload();
      await page.waitForSelector(`body[data-room="${room}"][data-my-seat="0"][data-status="playing"]`);
      await page.waitForFunction(() => window.quinteto.state && window.quinteto.state.ply > 0);
      await page.waitForFunction(() => document.querySelector('.legal'), null, { timeout: 20000 });
      const ply1 = await page.evaluate(() => window.quinteto.state.ply);
      await checkLegalMarkup(page);
      assert.ok(await clickRandomLegal(page), 'can act after the reload');
      await page.waitForFunction((p) => window.quinteto.state.ply > p, ply1);
      noProblems(page);
    } finally {
      await closeAll([page]);
    }
  });
});

test('the lobby lists a new room live', { timeout: 60000 }, async () => {
  await withServer(async (srv) => {
    const creator = await newPlayerPage(browser);
    const viewer = await newPlayerPage(browser);
    try {
      await viewer.goto(`${srv.url}/?name=Viv#/`);
      await viewer.waitForSelector('#room-list');
      await viewer.waitForFunction(() => window.quinteto.connection === 'online');
      await viewer.evaluate(() => { window.__noReload = true; });
      assert.equal(await viewer.locator('.room-row').count(), 0);

      await creator.goto(`${srv.url}/?name=Cora#/`);
      const room = await createRoom(creator, { autoroll: true });
      const row = viewer.locator(`.room-row[data-room="${room}"]`);
      await row.waitFor({ timeout: 10000 });
      assert.match(await row.textContent(), /Royal Game of Ur/);
      assert.match(await row.getAttribute('data-status'), /^waiting$/);

      // A seat taken in the room shows up in the list too.
      await creator.click('.take-seat[data-seat="0"]');
      await viewer.waitForFunction((id) => {
        const li = document.querySelector(`.room-row[data-room="${id}"] .room-seats li[data-seat="0"]`);
        return li && li.textContent.includes('Cora');
      }, room, { timeout: 10000 });
      assert.equal(await viewer.evaluate(() => window.__noReload), true, 'the lobby did not reload');
      noProblems(creator, viewer);
    } finally {
      await closeAll([creator, viewer]);
    }
  });
});
