// rematch.test.mjs: the web client's rematch, spectator count, chat mutes (shown again after a reload) and reconnection with
// `since`, in Debian's Chromium against the real server: two people in two browser contexts finish
// an Ur match, one offers a rematch, the other accepts, and both land in the new room in their seats.

import test from 'node:test';
import assert from 'node:assert/strict';
import {
  withServer, newPlayerPage, createRoom, noProblems, roomIdOf, browserFor,
} from './lib.mjs';

const browser = browserFor(test);

test('a rematch accepted by both players: both land in the new room, in the same seats', { timeout: 120000 }, async () => {
  await withServer(async (srv) => {
    const a = await newPlayerPage(browser(), { server: srv, label: 'Alice', prefs: { forced: false } });
    const b = await newPlayerPage(browser(), { server: srv, label: 'Bob', prefs: { forced: false } });
    const w = await newPlayerPage(browser(), { server: srv, label: 'Wes' });
    const hellos = []; // Bob's hello frames: the second one says what he saw (`since`)
    b.on('websocket', (ws) => ws.on('framesent', ({ payload }) => {
      const m = JSON.parse(String(payload));
      if (m.type === 'hello') hellos.push(m);
    }));
    try {
      await a.goto(`${srv.url}/?name=Alice#/`);
      const room = await createRoom(a);
      await b.goto(`${srv.url}/?name=Bob#/room/${room}`);
      await b.click('.take-seat[data-seat="1"]');
      await a.waitForSelector('body[data-status="playing"][data-my-seat="0"]');
      await b.waitForSelector('body[data-status="playing"][data-my-seat="1"]');
      // a spectator is counted on the room
      await w.goto(`${srv.url}/?name=Wes#/room/${room}`);
      await a.waitForSelector('#spectators[data-count="1"]');
      assert.match(await a.locator('#spectators').textContent(), /1 spectator/);
      // a seated player can mute the spectators in chat: a toggle button
      await a.click('#mute-spectators');
      await a.waitForSelector('#mute-spectators[aria-pressed="true"]');
      // (r3) and a reload shows it still muted: welcome.mutes says so
      await a.reload();
      await a.waitForSelector('body[data-status="playing"][data-my-seat="0"]');
      await a.waitForSelector('#mute-spectators[aria-pressed="true"]');
      // a dropped socket comes back with `since` and catches up
      await b.evaluate(() => window.quinteto.debugDropSocket());
      await b.waitForFunction(() => window.quinteto && window.quinteto.welcomes >= 2 && window.quinteto.connection === 'online');
      assert.equal(hellos.length, 2);
      assert.equal(typeof hellos[1].since?.[room], 'number', `the second hello: ${JSON.stringify(hellos[1])}`);

      // Bob resigns: the match is over; Alice offers a rematch
      b.once('dialog', (d) => d.accept());
      await b.click('button.resign');
      await a.waitForSelector('body[data-status="finished"]');
      await a.click('#rematch-offer');
      await b.waitForSelector('#rematch[data-status="offered"] #rematch-accept');
      assert.match(await b.locator('#rematch-offered').textContent(), /Alice offers a rematch/);
      await w.waitForSelector('#rematch[data-status="offered"]');
      assert.equal(await w.locator('#rematch-accept').count(), 0, 'a spectator cannot accept');
      await b.focus('#rematch-accept');
      await b.keyboard.press('Enter'); // keyboard works like a click
      // both move to the new room, seated as before, and the match starts there
      for (const [p, seat] of [[a, 0], [b, 1]]) {
        await p.waitForFunction((old) => document.body.dataset.room && document.body.dataset.room !== old, room);
        await p.waitForSelector(`body[data-status="playing"][data-my-seat="${seat}"]`);
      }
      const na = await roomIdOf(a);
      assert.equal(await roomIdOf(b), na);
      assert.notEqual(na, room);
      const sa = await a.evaluate(() => window.quinteto.state);
      assert.deepEqual(sa.seats.map((s) => s.name), ['Alice', 'Bob']);
      // the spectator stays, and is shown the way to the new room
      await w.waitForSelector('#rematch[data-status="accepted"] #rematch-go');
      assert.equal(await w.getAttribute('#rematch-go', 'href'), `#/room/${na}`);
      noProblems(a, b, w);
    } finally {
      for (const p of [a, b, w]) await p.context().close().catch(() => {});
    }
  });
});
