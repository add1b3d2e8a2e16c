// clocks_web.test.mjs: clocks and stand-ins in the web client (issue 13), in Debian's Chromium against
// the real server. A room created from the lobby form with a clock per move shows each seat's time
// counting down on screen, warns (visually and once to the screen reader) when the player's own time
// runs low, and ends by forfeit; a player whose seat a stand-in took while she was away has it back
// when she returns (issue 19); idle in a room without a clock (the room says its idle limit), she sees
// a stand-in on her seat and takes the seat back with the button.

import test from 'node:test';
import assert from 'node:assert/strict';
import {
  withServer, newPlayerPage, createRoom, noProblems, browserFor, MANUAL,
} from './lib.mjs';
import { autoplay } from '../lib/client.mjs';

const LOW_RE = /^(Your time is running out|Se te acaba el tiempo|Seu tempo está acabando)/;

const browser = browserFor(test);

test('a clock runs down on screen, warns when low, and the seat out of time forfeits', { timeout: 60000 }, async () => {
  await withServer(async (srv) => {
    const page = await newPlayerPage(browser(), { server: srv, label: 'Alice', ...MANUAL });
    try {
      await page.goto(`${srv.url}/?name=Alice#/`);
      await page.locator('#create-room').waitFor();
      await page.selectOption('#clock-kind', 'per_action');
      await page.fill('#clock-per-action', '4');
      await createRoom(page, { checks: { autoroll: false } });
      assert.deepEqual(JSON.parse(await page.getAttribute('.room-options', 'data-options')).clock, { per_action_ms: 4000 });
      await page.waitForSelector('.room-options .tag:text("4 s per move")');
      await page.click('.add-bot[data-seat="1"]');
      await page.waitForSelector('body[data-status="playing"][data-my-seat="0"]');
      const me = await page.evaluate(() => window.quinteto.state.to_act[0]);
      assert.equal(me, 0, 'light starts');
      const clock = page.locator('.seat[data-seat="0"] .clock');
      await clock.waitFor();
      const read = async () => Number((await clock.textContent()).replace(/^(\d+):(\d\d)$/, (_, m, s) => String(m * 60 + Number(s))));
      const first = await read();
      // Waited for, not read once after a fixed sleep: a loaded machine may draw the next second late.
      let later;
      try {
        ({ later } = await (await page.waitForFunction((f) => {
          const el = document.querySelector('.seat[data-seat="0"] .clock');
          const v = el && Number(el.textContent.replace(/^(\d+):(\d\d)$/, (_, m, s) => String(m * 60 + Number(s))));
          return v < f ? { later: v } : null;
        }, first, { timeout: 10000 })).jsonValue());
      } catch {
        later = await read();
      }
      assert.ok(later < first, `the clock counts down on screen (${first} then ${later})`);
      assert.equal(await page.locator('.seat[data-seat="1"] .clock.running').count(), 0, 'the bot\'s clock does not run');
      await page.waitForSelector('.seat[data-seat="0"] .clock.low', { timeout: 10000 });
      await page.waitForSelector('#result', { timeout: 15000 });
      const said = (await page.evaluate(() => window.quinteto.announced)).filter((x) => LOW_RE.test(x));
      assert.equal(said.length, 1, `the low-time warning is announced once: ${JSON.stringify(said)}`);
      assert.equal(await page.evaluate(() => window.quinteto.state.result.reason), 'forfeit');
      noProblems(page);
    } finally {
      await page.context().close().catch(() => {});
    }
  });
});

test('a player who left gets her seat back on her return; idle, she gets a stand-in and takes the seat back with the button', { timeout: 90000 }, async () => {
  // Short grace period and idle limit (test-only --stand-in-min-ms, docs/HOSTING.md); the stand-in waits
  // 1 s before each action, so the match is still on when she clicks.
  await withServer(async (srv) => {
    const bruno = await srv.player('Bruno');
    const created = await bruno.request({ type: 'create', game: 'ur', options: { stand_in_after_ms: 400, stand_in_level: 'random' } });
    const room = created.room.id;
    const page = await newPlayerPage(browser(), { server: srv, label: 'Alice', ...MANUAL });
    const context = page.context();
    try {
      await page.goto(`${srv.url}/?name=Alice#/room/${room}`);
      await page.click('.take-seat[data-seat="0"]');
      await page.waitForSelector('body[data-my-seat="0"]');
      await bruno.request({ type: 'join', room, seat: 1 });
      await page.waitForSelector('body[data-status="playing"]');
      assert.match(await page.locator('#idle-limit').textContent(), /\b4 s\b/, 'the room says its idle limit');
      await page.close(); // Alice goes away; her identity stays in the browser's storage
      await bruno.nextState(room, (s) => s.seats[0].stand_in === true, 10000);
      autoplay(bruno, room, { since: 0 });
      const back = await context.newPage();
      back.problems = [];
      back.on('pageerror', (e) => back.problems.push(`pageerror: ${e.message}`));
      const sent = [];
      back.on('websocket', (ws) => ws.on('framesent', ({ payload }) => { try { sent.push(JSON.parse(payload)); } catch { /* not JSON */ } }));
      await back.goto(`${srv.url}/?name=Alice#/room/${room}`);
      // Her return (the hello with her token) takes the seat back: no badge, no button. The state and the
      // page are read in one step, so that the idle limit running out on a loaded machine cannot come between.
      const onReturn = await (await back.waitForFunction(() => {
        const s = window.quinteto && window.quinteto.state;
        return s && s.seats[0].connected === true
          ? { standIn: s.seats[0].stand_in, button: document.querySelectorAll('#take-back').length } : null;
      })).jsonValue();
      assert.deepEqual(onReturn, { standIn: false, button: 0 }, 'the seat is hers again at once');
      // She does not act: after the idle limit a stand-in plays for her, and the button is offered.
      await back.waitForSelector('.seat[data-seat="0"] .badge.stand-in', { timeout: 15000 });
      // (issue 22) the badge says the room's stand-in level
      assert.equal(await back.getAttribute('.seat[data-seat="0"] .badge.stand-in', 'data-level'), 'random');
      assert.equal(await back.locator('.seat[data-seat="0"] .badge.stand-in').innerText(), 'stand-in · Easy');
      await back.click('#take-back');
      await back.waitForFunction(() => window.quinteto && window.quinteto.state && window.quinteto.state.seats[0].stand_in === false);
      await back.waitForSelector('.seat[data-seat="0"] .badge.stand-in', { state: 'detached' });
      assert.equal(await back.locator('#take-back').count(), 0, 'the button goes with the stand-in');
      assert.ok(sent.some((m) => m.type === 'join' && m.room === room && m.seat === undefined), 'the button sent a join of the room');
      noProblems(back);
    } finally {
      await context.close().catch(() => {});
    }
  }, { botDelayMs: 1000, args: ['--stand-in-min-ms', '0', '--idle-limit-ms', '4000'] });
});
