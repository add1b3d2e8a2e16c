// room_cues.test.mjs: the room's shell telling a player what matters (issue 23, points 6, 7, 10, 13), in
// Debian's Chromium against the real server, rooms against quick bots:
// - entering a room puts focus on the room's heading, not on the page body;
// - the arrow keys never bounce between two parts: every press goes further along its axis and stops at the
//   edge (the room's own nextAlong on parts laid out by hand, two drawn on one spot, and a real Laquet room);
// - your turn in a background tab (document.visibilityState emulated hidden): the title says so, and comes
//   back when the tab is seen; the sound and the notification are off by default, and once ticked (the
//   permission granted with context.grantPermissions) the notification is shown, once per turn;
// - Quinteto: a hunter who resigns while the match goes on is marked out of play in the seat list (in words),
//   has no Resign any more, and Q then does nothing; the live region never says the other seats' moves (they
//   are in the log) and tells a seat out of play whose turn it is at most once every five seconds;
// - a game without dice (Super 1 al 5) shows no dice seed and no "Fair dice".

import test from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import {
  withServer, newPlayerPage, createRoom, noProblems, browserFor, closeAll, MANUAL, QUICK_BOTS, waitTurnOrResult,
  playAction, artifactsDir,
} from './lib.mjs';

const browser = browserFor(test);

// The page says it is hidden (or seen again), as a background tab would.
function setHidden(page, hidden) {
  return page.evaluate((hid) => {
    Object.defineProperty(document, 'visibilityState', { value: hid ? 'hidden' : 'visible', configurable: true });
    Object.defineProperty(document, 'hidden', { value: hid, configurable: true });
    document.dispatchEvent(new Event('visibilitychange'));
  }, hidden);
}

// Presses `key` until focus stops moving (at most 60 presses): the data-click tokens visited, in order.
async function sweep(page, key) {
  const seen = [];
  for (let i = 0; i < 60; i++) {
    const tok = await page.evaluate(() => document.activeElement?.dataset?.click || document.activeElement?.id || '');
    if (seen.length && seen.at(-1) === tok) return seen.slice(0, -1).concat(tok);
    seen.push(tok);
    await page.keyboard.press(key);
  }
  return seen;
}

test('focus lands on the room heading; the arrow keys go further each press and stop at the edge', { timeout: 90000 }, async () => {
  await withServer(async (srv) => {
    const page = await newPlayerPage(browser(), { server: srv, label: 'kb', ...MANUAL });
    try {
      await page.goto(`${srv.url}/?name=Kim#/`);
      // By keyboard: Enter on "Play against the computer".
      await page.locator('#play-bot').waitFor();
      await page.waitForFunction(() => window.quinteto.connection === 'online');
      await page.selectOption('#new-game', 'laquet');
      await page.focus('#play-bot');
      await page.keyboard.press('Enter');
      await page.waitForSelector('body[data-status="playing"][data-my-seat="0"]');
      const focused = await page.evaluate(() => ({ tag: document.activeElement.tagName,
        cls: document.activeElement.className, text: document.activeElement.textContent }));
      assert.equal(focused.tag, 'H1', `focus after entering the room: ${JSON.stringify(focused)}`);
      assert.match(focused.text, /Laquet/);

      // The room's own arrow-key choice on parts laid out by hand: a 3x3 grid with two parts on the
      // centre spot (like two stones on one home). From every part, every direction: no part twice.
      const grid = await page.evaluate(async () => {
        const { nextAlong } = await import('./room.js');
        const box = document.createElement('div');
        box.style.cssText = 'position:fixed;left:0;top:0;width:300px;height:300px';
        const spots = [[0, 0], [1, 0], [2, 0], [0, 1], [1, 1], [1, 1], [2, 1], [0, 2], [1, 2], [2, 2], [1.02, 2.51]];
        const items = spots.map(([x, y], i) => {
          const b = document.createElement('button');
          b.textContent = String(i);
          b.style.cssText = `position:absolute;left:${x * 100}px;top:${y * 100}px;width:40px;height:40px`;
          box.append(b);
          return b;
        });
        document.body.append(box);
        const out = [];
        const reached = new Set();
        for (const dir of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
          for (const start of items) {
            const path = [items.indexOf(start)];
            let cur = start;
            for (let n = 0; n < 50; n++) {
              const next = nextAlong(items, cur, dir);
              if (!next) break;
              path.push(items.indexOf(next));
              reached.add(items.indexOf(next));
              cur = next;
            }
            if (new Set(path).size !== path.length) out.push(`${dir}: ${path.join('→')}`);
          }
        }
        box.remove();
        return { bounced: out, reached: reached.size, total: items.length };
      });
      assert.deepEqual(grid.bounced, [], 'an arrow key came back to a part it had left');
      assert.equal(grid.reached, grid.total, 'every part, the two on one spot too, is reached by some arrow');

      // A real room: Laquet on the player's turn, focus on its first part, each arrow pressed until focus
      // stops: it visits no part twice.
      await waitTurnOrResult(page);
      await page.waitForFunction(() => document.querySelectorAll('.game-column [data-click]').length >= 2);
      await page.keyboard.press('ArrowRight'); // from the heading to the board's first part
      assert.ok(await page.evaluate(() => !!document.activeElement?.dataset?.click), 'an arrow from the heading reaches the board');
      for (const key of ['ArrowRight', 'ArrowLeft', 'ArrowDown', 'ArrowUp', 'ArrowRight']) {
        const path = await sweep(page, key);
        assert.ok(path.length < 60, `${key} never stopped: ${path.join(' ')}`);
        assert.equal(new Set(path).size, path.length, `${key} came back to a part: ${path.join(' → ')}`);
      }
      noProblems(page);
    } finally {
      await closeAll([page]);
    }
  }, QUICK_BOTS);
});

test('your turn in a background tab: the title says it; sound and notification off until ticked, then once per turn', { timeout: 90000 }, async () => {
  await withServer(async (srv) => {
    const page = await newPlayerPage(browser(), { server: srv, label: 'cue', ...MANUAL });
    const context = page.context();
    await context.grantPermissions(['notifications'], { origin: srv.url });
    await context.addInitScript(() => {
      window.__notes = [];
      window.__asked = 0;
      const Real = window.Notification;
      if (typeof Real !== 'function') return;
      const ask = Real.requestPermission.bind(Real);
      class Recorded extends Real {
        constructor(title, opts) {
          super(title, opts);
          window.__notes.push({ title, body: opts && opts.body });
        }
      }
      Recorded.requestPermission = (...a) => { window.__asked++; return ask(...a); };
      window.Notification = Recorded;
    });
    try {
      await page.goto(`${srv.url}/?name=Cleo#/`);
      const room = await createRoom(page, { game: 'ur', vsBot: true });
      await waitTurnOrResult(page);
      const prefs = await page.evaluate(() => ['pref-sound', 'pref-notify'].map((id) => document.getElementById(id).checked));
      assert.deepEqual(prefs, [false, false], 'sound and notification are off by default');
      const seen = await page.title(); // the game and the room: "Royal Game of Ur #…"
      assert.doesNotMatch(seen, /Your turn/, `the title of a room seen: ${seen}`);
      assert.match(seen, new RegExp(`Ur #${room}$`));
      const cue = `● Your turn · ${seen}`;
      // The tab goes to the background during the turn: the title says so; nothing else by default.
      await setHidden(page, true);
      assert.equal(await page.title(), cue);
      assert.deepEqual(await page.evaluate(() => window.quinteto.app.cues), ['title']);
      await setHidden(page, false);
      assert.equal(await page.title(), seen, 'the title comes back when the tab is seen');
      assert.equal(await page.evaluate(() => window.__asked), 0, 'no permission asked before the box is ticked');

      // Tick both: the notification's box asks (granted here), the sound's unlocks the audio.
      await page.check('#pref-sound');
      await page.check('#pref-notify');
      await page.waitForFunction(() => window.quinteto.app.prefs.turnNotify === true);
      assert.equal(await page.isChecked('#pref-notify'), true, 'granted: the box stays ticked');
      assert.ok(await page.evaluate(() => window.__asked) <= 1, 'the permission asked at most once, on the tick');

      // In the background, play one action at a time until the bot has played and the next turn is cued:
      // a title, the tone and one notification, once.
      await setHidden(page, true);
      await page.evaluate(() => { window.quinteto.app.cues.length = 0; });
      for (let i = 0; i < 30; i++) {
        if (await page.locator('#result').count()) break;
        const { legal, ply } = await page.evaluate(() => ({ legal: window.quinteto.state.legal, ply: window.quinteto.state.ply }));
        await playAction(page, legal[0]);
        await page.waitForFunction((p) => window.quinteto.state.ply > p && (document.querySelector('#result') ||
          (window.quinteto.state.legal.length && !document.querySelector('.sending'))), ply);
        if ((await page.evaluate(() => window.quinteto.app.cues.length)) > 0) break;
      }
      assert.equal(await page.locator('#result').count(), 0, 'the match went on to a next turn');
      const cues = await page.evaluate(() => window.quinteto.app.cues);
      assert.deepEqual(cues, ['title', 'sound', 'notification'], 'one cue of each kind for the turn');
      const notes = await page.evaluate(() => window.__notes);
      assert.equal(notes.length, 1);
      assert.equal(notes[0].title, cue);
      assert.equal(await page.title(), cue);
      await setHidden(page, false);
      assert.equal(await page.title(), seen, 'the title comes back when the tab is seen');
      noProblems(page);
    } finally {
      await closeAll([page]);
    }
  }, QUICK_BOTS);
});

test('Quinteto: a hunter who resigns is out of play while the match goes on; the live region keeps to what concerns the seat', { timeout: 90000 }, async () => {
  await withServer(async (srv) => {
    const page = await newPlayerPage(browser(), { server: srv, label: 'q', ...MANUAL });
    let dialogs = 0;
    page.on('dialog', (d) => { dialogs++; d.accept(); });
    try {
      await page.goto(`${srv.url}/?name=Rosa#/`);
      await page.evaluate(() => {
        window.__said = [];
        new MutationObserver(() => window.__said.push({ at: Date.now(), text: document.getElementById('announcer').textContent }))
          .observe(document.getElementById('announcer'), { childList: true, characterData: true, subtree: true });
      });
      await createRoom(page, { game: 'quinteto', vsBot: true });
      assert.equal(await page.locator('.seat[data-seat="0"] .badge.out').count(), 0, 'not out before resigning');
      await page.locator('button.resign').click();
      assert.equal(dialogs, 1);
      await page.waitForSelector('.seat[data-seat="0"][data-out="true"] .badge.out');
      // Where the bots' moves to check begin: as soon as the hunter is out, not after the checks below (on a
      // busy machine the bots finished the match while those ran, and no move was left to check).
      const ply0 = await page.evaluate(() => window.quinteto.state.ply);
      assert.equal(await page.evaluate(() => window.quinteto.state.status), 'playing', 'the match goes on');
      assert.match(await page.locator('.seat[data-seat="0"] .badge.out').textContent(), /out of play/);
      assert.equal(await page.locator('button.resign').isVisible(), false, 'no Resign once out');
      assert.ok(await page.locator('#out-note').isVisible(), 'the room says the player is out');
      await page.locator('section.card.players').screenshot({ path: path.join(await artifactsDir(), 'room-out-of-play.png') });
      // Q: nothing asked, nothing sent, no error.
      const toastsBefore = await page.locator('.toast[data-code="game_over"]').count();
      await page.locator('body').press('q');
      await page.keyboard.press('q');
      assert.equal(dialogs, 1, 'Q asks nothing once out');
      assert.equal(await page.locator('.toast[data-code="game_over"]').count(), toastsBefore, 'no "match is over" error');

      // The bots play on; some moves later, no other seat's move was said (they are in the log), and a
      // seat out of play heard whose turn it is at most once every five seconds.
      const from = await page.evaluate(() => window.__said.length);
      await page.waitForFunction((p) => window.quinteto.state.status === 'finished' || window.quinteto.state.ply >= p + 25, ply0, { timeout: 60000 });
      const { moves, said } = await page.evaluate(({ p, f }) => ({
        moves: [...document.querySelectorAll('.log-action:not(.seat-c0) .log-move')].filter((b) => Number(b.dataset.ply) > p)
          .map((b) => b.textContent.replace(/^\s*\d+\s+/, '').trim()),
        said: window.__said.slice(f).filter((x) => x.text),
      }), { p: ply0, f: from });
      const now = await page.evaluate(() => ({ status: window.quinteto.state.status, ply: window.quinteto.state.ply, result: window.quinteto.state.result }));
      // (A busy machine may get some states late, in one: those moves are a gap in the log, not entries.)
      assert.ok(moves.length >= 1, `the bots moved (${moves.length} in the log after ply ${ply0}; now ${JSON.stringify(now)})`);
      for (const m of moves) {
        assert.ok(!said.some((x) => x.text.includes(m)), `another seat's move was said: "${m}"`);
      }
      const turns = said.filter((x) => /to play$/.test(x.text));
      for (let i = 1; i < turns.length; i++) {
        assert.ok(turns[i].at - turns[i - 1].at >= 4500, `turns said ${turns[i].at - turns[i - 1].at} ms apart`);
      }
      noProblems(page);
    } finally {
      await closeAll([page]);
    }
  }, { botDelayMs: 150 }); // bots slower than the usual 50 ms: quick ones can finish the match before the checks
});

test('a game without dice: no dice seed, no "Fair dice"', { timeout: 60000 }, async () => {
  await withServer(async (srv) => {
    const page = await newPlayerPage(browser(), { server: srv, label: 's15', ...MANUAL });
    try {
      await page.goto(`${srv.url}/?name=Sol#/`);
      await createRoom(page, { game: 'super15', vsBot: true });
      await page.waitForSelector('.seat[data-seat="1"]');
      assert.equal(await page.locator('details.fair').isVisible(), false, 'no "Fair dice" for Super 1 al 5');
      assert.equal(await page.locator('#commit, .seed-field, #client-seed').count(), 0, 'no seed shown or asked');
      // A game with dice keeps them.
      await page.goto(`${srv.url}/?name=Sol#/`);
      await createRoom(page, { game: 'ur', vsBot: true });
      assert.equal(await page.locator('details.fair').isVisible(), true, 'Ur has its "Fair dice"');
      noProblems(page);
    } finally {
      await closeAll([page]);
    }
  }, QUICK_BOTS);
});
