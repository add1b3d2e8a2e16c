// boards_touch.test.mjs: Ur, Laquet and Super 1 al 5 held in the hand (issue 23). For each game, on a
// desktop (1280x800), a phone upright (390x844) and a phone on its side (844x390), a person plays a match
// against a bot by tapping where a finger would (tests/lib/touch.mjs tapAction: every element clicksFor()
// names must already be wholly on the screen, with no scroll by the person, and at least 44x44 CSS px; the tap
// lands at its centre and must send exactly the action chosen), and at every turn nothing tappable in the game
// column is under 44x44 CSS px; after a few moves the person resigns. Then: Ur's Light pieces are drawn light
// (not black) in a replay, on the analysis board and in the rules page's legend; two of Ur's stacks that can
// move from one cell are chosen by tapping that cell once or twice on a touch screen (with a mouse each has its
// own half of the cell); Super 1 al 5 lights the pieces its hint
// names and says what to do once one is chosen, and its room has no axe-core violation mid-match; Laquet's
// last move and its movable men are marked by different shapes. Screenshots go to build-test/artifacts/.

import test from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import {
  withServer, newPlayerPage, artifactsDir, createRoom, legalActions, noProblems, rng, browserFor, closeAll,
  waitTurnOrResult, MANUAL, QUICK_BOTS,
} from './lib.mjs';
import { SCREENS, smallTargets, tapAction } from '../lib/touch.mjs';
import { axeClean } from '../lib/axe.mjs';
import { pick } from '../lib/util.mjs';

const browser = browserFor(test);
const GAMES = ['ur', 'laquet', 'super15'];
const MOVES = { desktop: 3, phone: 5, landscape: 5 }; // the person's actions per room before resigning
const LIGHT = 'rgb(251, 245, 230)'; // Ur's Light piece (ur.css --light-piece)
const DARK = 'rgb(42, 33, 28)';

// Resigns this page's seat and waits for the result.
async function resign(page) {
  page.once('dialog', (d) => d.accept());
  await page.locator('button.resign').click();
  await page.waitForSelector('#result');
}

// Plays up to `moves` of this page's turns by taps (random legal actions), checking the game column's targets at
// each turn; returns the room id and how many actions were tapped.
async function playByTaps(page, rnd, moves, what) {
  let done = 0;
  for (let turn = 0; done < moves && turn < moves * 4; turn++) {
    await waitTurnOrResult(page);
    if (await page.locator('#result').count()) break;
    assert.deepEqual(await smallTargets(page, '.game-column'), [], `${what}: targets under 44x44 at turn ${turn}`);
    const legal = await legalActions(page);
    if (!legal.length) continue;
    const ply = await page.evaluate(() => window.quinteto.state.ply);
    if (await tapAction(page, pick(legal, rnd))) {
      done++;
      await page.waitForFunction((p) => window.quinteto.state.ply > p || !document.querySelector('.sending'), ply);
    }
  }
  return done;
}

test('Ur, Laquet and Super 1 al 5 against a bot by taps on a desktop, a phone upright and a phone on its side',
  { timeout: 240000 }, async (t) => {
    await withServer(async (srv) => {
      const rnd = rng();
      const finished = {};
      for (const [screen, width, height] of SCREENS) {
        for (const game of GAMES) {
          const what = `${game} at ${width}x${height}`;
          // A touch screen at every size: the desktop's turns are tapped too.
          const page = await newPlayerPage(browser(), { width, height, touch: true, server: srv, label: what, ...MANUAL });
          try {
            await page.goto(`${srv.url}/?name=Tap#/`);
            const room = await createRoom(page, { game, vsBot: true });
            const done = await playByTaps(page, rnd, MOVES[screen], what);
            assert.ok(done >= Math.min(2, MOVES[screen]), `${what}: only ${done} actions tapped`);
            await page.screenshot({ path: path.join(await artifactsDir(), `boards-${game}-${screen}.png`) });
            if (game === 'laquet') await checkLaquetMarks(page, what);
            if (game === 'super15' && screen === 'desktop') await checkSuper15(page, rnd);
            if (!(await page.locator('#result').count())) await resign(page);
            finished[`${game}-${screen}`] = room;
            noProblems(page);
            t.diagnostic(`${what}: ${done} actions by taps`);
          } finally {
            await closeAll([page]);
          }
        }
      }
      t.diagnostic(`seed ${rnd.seed}`);

      // Ur's own colours wherever a board of Ur is drawn: a replay (its board, its seat tokens), the analysis
      // board, the rules page's legend.
      const page = await newPlayerPage(browser(), { server: srv, label: 'viewer' });
      try {
        await page.goto(`${srv.url}/?name=Viewer#/replay/${finished['ur-phone']}`);
        await page.waitForSelector('.ur-board .tray .piece-light .piece-body');
        const fills = () => page.evaluate(() => ['light', 'dark'].map((r) => {
          const el = document.querySelector(`.ur-board .piece-${r} .piece-body`);
          return el && getComputedStyle(el).fill;
        }));
        assert.deepEqual(await fills(), [LIGHT, DARK], 'a replay draws Light pieces light and Dark pieces dark');
        const tokens = await page.evaluate(() => [0, 1].map((s) => getComputedStyle(document.querySelector(`.seat-c${s} .token`)).backgroundColor));
        assert.deepEqual(tokens, [LIGHT, DARK], "the replay's seat tokens are Ur's colours");
        await page.locator('#replay-analyse').click();
        await page.waitForSelector('#analysis .ur-board .piece-light .piece-body');
        assert.deepEqual(await fills(), [LIGHT, DARK], 'the analysis board draws them so too');
        await page.goto(`${srv.url}/?name=Viewer#/rules/ur`);
        await page.waitForSelector('article.rules .legend-list');
        const legend = await page.evaluate(() => ['light', 'dark'].map((r) => {
          const el = document.querySelector(`.legend-list .piece-${r} .piece-body`);
          return el && getComputedStyle(el).fill;
        }));
        assert.deepEqual(legend, [LIGHT, DARK], "the rules page's legend draws them so too");
        await checkUrSharedCell(page, false);
        const touch = await newPlayerPage(browser(), { width: 390, height: 844, touch: true, server: srv, label: 'touch' });
        try {
          await touch.goto(`${srv.url}/?name=Viewer#/rules/ur`);
          await touch.waitForSelector('article.rules .legend-list');
          await checkUrSharedCell(touch, true);
          noProblems(touch);
        } finally {
          await closeAll([touch]);
        }
        noProblems(page);
      } finally {
        await closeAll([page]);
      }
    }, QUICK_BOTS);
  });

// Super 1 al 5 mid-match: the pieces that can move glow (the hint's "glowing piece" is true), once one is
// chosen the hint says where to tap next, and axe-core finds nothing, before and after choosing.
async function checkSuper15(page, rnd) {
  await waitTurnOrResult(page);
  if (await page.locator('#result').count()) return;
  await axeClean(page, 'a Super 1 al 5 room mid-match');
  const legal = await legalActions(page);
  const froms = [...new Set(legal.map((a) => a.from))].sort();
  const glowing = await page.locator('.s15-square.s15-movable').evaluateAll((els) => els.map((e) => e.dataset.square).sort());
  assert.deepEqual(glowing, froms, 'the pieces that can move, and only they, glow');
  assert.match(await page.locator('.s15-hint').textContent(), /^Choose a glowing piece/);
  const from = pick(froms, rnd);
  await page.locator(`[data-click="piece:${from}"]`).click();
  await page.locator('[data-click^="to:"]').first().waitFor();
  assert.match(await page.locator('.s15-hint').textContent(), /^(Now choose where it stops|A Super must capture)/);
  await axeClean(page, 'a Super 1 al 5 room with a piece chosen');
  await page.locator(`[data-click="piece:${from}"]`).click(); // chosen no more
}

// Laquet: the last move is marked by corners (paths), the men that can move by a full outline and a ring, and the
// legend shows both.
async function checkLaquetMarks(page, what) {
  const marks = await page.evaluate(() => ({
    last: [...document.querySelectorAll('.lq-board .lq-last-to, .lq-board .lq-last-from')].map((e) => e.tagName),
    legend: [...document.querySelectorAll('.legend-list .lq-last-to')].map((e) => e.tagName),
    movable: [...document.querySelectorAll('.legend-list .lq-from-hit, .legend-list .lq-from-ring')].map((e) => e.tagName),
  }));
  if (marks.last.length) assert.deepEqual([...new Set(marks.last)], ['path'], `${what}: the last move's marks are corners`);
  assert.deepEqual(marks.legend, ['path'], `${what}: the legend's last move is corners`);
  assert.deepEqual(marks.movable, ['rect', 'circle'], `${what}: the legend's movable men: an outline and a ring`);
}

// Ur: two Light stacks that can move share M3 (one going up on its square 7, one coming back on its 21). On a
// touch screen the cell is one target: a tap chooses the stack going up, the next tap the other, and clicksFor()
// counts the taps; with a mouse each stack has its own target, its half of the cell. Drawn by Ur's own view on
// the page (a rules page: no room), from a state made here.
async function checkUrSharedCell(page, coarse) {
  const out = await page.evaluate(async () => {
    const { default: ur } = await import('/games/ur/ur.js');
    const root = document.createElement('div');
    document.body.append(root);
    const [board, side, panel] = [0, 1, 2].map(() => root.appendChild(document.createElement('div')));
    const sent = [];
    const view = ur.createView({ board, side, panel, mySeat: () => 0, act: (a) => sent.push(a), reducedMotion: () => true });
    const state = { game: 'ur', status: 'playing', ply: 9, to_act: [0], legal: [{ move: 7 }, { move: 21 }],
      view: { dice: [true, true, false], value: 1, pieces: [[0, 0, 0, 0, 0, 7, 21], [0, 0, 0, 0, 0, 0, 0]], bonus: false, again: false } };
    view.update(state);
    const tap = (sel) => board.querySelector(sel).dispatchEvent(new MouseEvent('click', { bubbles: true }));
    const res = { picks: [...board.querySelectorAll('g.piece-pick')].map((g) => g.dataset.click), clicks: ur.clicksFor({ move: 21 }, state) };
    for (const sel of res.clicks) tap(sel);
    res.sent = sent.slice();
    view.update(state);
    tap('[data-click="piece:7"]');
    res.first = board.querySelector('[data-click="target"]')?.dataset.target;
    view.destroy();
    root.remove();
    return res;
  });
  assert.deepEqual(out.sent, [{ move: 21 }], 'the clicks for the stack coming back moved it');
  assert.equal(out.first, 'M4', 'a first tap on piece:7 chooses the stack going up (7 + 1: M4)');
  if (coarse) {
    assert.deepEqual(out.picks, ['piece:7'], 'on a touch screen, one target for the cell');
    assert.equal(out.clicks.length, 3, 'two taps on the cell, then the target');
    assert.match(out.clicks[0], /^\[data-click="piece\\?:7"\]$/, 'the cell is named by the stack going up');
    assert.equal(out.clicks[1], out.clicks[0], 'the same cell, tapped again');
  } else {
    assert.deepEqual(out.picks.sort(), ['piece:21', 'piece:7'], 'with a mouse, a target for each stack');
    assert.equal(out.clicks.length, 2, 'its own target, then the target');
  }
}
