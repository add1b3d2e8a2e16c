// quinteto_six.test.mjs: six browser windows (six people) play one whole Quinteto match together by
// clicking, through the browser-test contract (window.quinteto.clicksFor), while a seventh window, a phone,
// watches; all seven see the same result. Every frame each page receives is schema-checked; screenshots go to
// build-test/artifacts/. Its own file: seven pages take most of the time a browser test file is given.

import test from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import {
  withServer, newPlayerPage, artifactsDir, createRoom, playRandomLegal, noProblems, rng, sleep, browserFor,
  closeAll, MANUAL,
} from './lib.mjs';

const RESULT_RE = /^(.+ wins (the duel|with a Quinteto \(5 and 5\))|Draw: the turn limit was reached)$/;

const browser = browserFor(test);

test('six browser windows play one Quinteto match by clicking while a seventh watches', { timeout: 560000 }, async (t) => {
  await withServer(async (srv) => {
    const names = ['Ana', 'Bea', 'Cid', 'Dru', 'Eli', 'Fay'];
    const pages = [];
    for (const n of names) pages.push(await newPlayerPage(browser(), { server: srv, label: n, ...MANUAL }));
    const w = await newPlayerPage(browser(), { width: 390, height: 844, server: srv, label: 'Wes' });
    const rnd = rng();
    try {
      for (const [i, p] of pages.entries()) await p.goto(`${srv.url}/?name=${names[i]}#/`);
      await w.goto(`${srv.url}/?name=Wes#/`);
      const room = await createRoom(pages[0], { game: 'quinteto', checks: { autoroll: true } });
      for (let s = 1; s < 6; s++) {
        const p = pages[s];
        const btn = p.locator(`.room-row[data-room="${room}"] button.join`);
        await btn.waitFor();
        await p.waitForFunction((id) => {
          const b = document.querySelector(`.room-row[data-room="${id}"] button.join`);
          return b && !b.disabled;
        }, room);
        await btn.click();
        await p.waitForSelector(`body[data-room="${room}"][data-my-seat]:not([data-my-seat=""])`);
      }
      const seats = await Promise.all(pages.map((p) => p.evaluate(() => Number(document.body.dataset.mySeat))));
      assert.deepEqual([...seats].sort(), [0, 1, 2, 3, 4, 5]);
      await w.locator(`.room-row[data-room="${room}"] button.watch`).click();
      await w.waitForSelector(`body[data-room="${room}"][data-status="playing"]`);
      const bySeat = new Map(seats.map((seat, i) => [seat, pages[i]]));
      const deadline = Date.now() + 500000;
      let moves = 0;
      let idle = 0;
      for (;;) {
        assert.ok(Date.now() < deadline, `no result after ${moves} actions`);
        // who is to act, as the watcher sees it; that seat's window clicks one of its legal actions
        const st = await w.evaluate(() => window.quinteto.state && { status: window.quinteto.state.status, to_act: window.quinteto.state.to_act });
        if (st && st.status === 'finished') break;
        let did = false;
        for (const seat of [...((st && st.to_act) || [])].sort(() => rnd() - 0.5)) {
          if (await playRandomLegal(bySeat.get(seat), rnd)) { did = true; moves++; break; }
        }
        if (!did) { idle++; await sleep(20); } else idle = 0;
        assert.ok(idle < 1500, 'nobody could act for 30 s');
      }
      await w.waitForSelector('#result', { timeout: 20000 });
      const results = await Promise.all([...pages, w].map(async (p) => {
        await p.waitForSelector('#result', { timeout: 20000 });
        return (await p.locator('#result').textContent()).trim();
      }));
      t.diagnostic(`${moves} actions by clicks in six windows, result "${results[0]}", seed ${rnd.seed}`);
      assert.match(results[0], RESULT_RE);
      for (const r of results) assert.equal(r, results[0]);
      assert.equal(await w.locator('.legal').count(), 0, 'a watcher gets nothing to click');
      const dir = await artifactsDir();
      await w.screenshot({ path: path.join(dir, 'quinteto-watcher-phone.png'), fullPage: true });
      await pages[5].screenshot({ path: path.join(dir, 'quinteto-six-finished.png'), fullPage: true });
      noProblems(...pages, w);
    } finally {
      await closeAll([...pages, w]);
    }
  });
});
