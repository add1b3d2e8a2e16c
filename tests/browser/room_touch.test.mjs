// room_touch.test.mjs: a room held in the hand (issue 23). For each of the four games, a room against
// bots mid-match, on the player's turn, on a phone upright (390x844) and on its side (844x390) with touch:
// every tappable part of the whole page (the header's brand, language and name button, the room's head links, seats, buttons, invite, preferences,
// summaries, log moves, chat, and the game's own board and panel) is at least 44x44 CSS px
// (tests/lib/touch.mjs smallTargets). The failure lists the shell's parts and the game's apart.
// Screenshots go to build-test/artifacts/room-touch-<game>-<screen>.png.

import test from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import {
  withServer, newPlayerPage, artifactsDir, createRoom, noProblems, browserFor, closeAll, MANUAL, QUICK_BOTS,
  waitTurnOrResult,
} from './lib.mjs';
import { SCREENS, smallTargets } from '../lib/touch.mjs';

const browser = browserFor(test);
const GAMES = ['ur', 'laquet', 'super15', 'quinteto'];
const PHONES = SCREENS.filter(([, , , touch]) => touch);

test('every tappable part of every game\'s room is at least 44x44 on a phone, upright and on its side', { timeout: 120000 }, async (t) => {
  await withServer(async (srv) => {
    const dir = await artifactsDir();
    const failures = [];
    for (const [screen, width, height] of PHONES) {
      const page = await newPlayerPage(browser(), { server: srv, label: screen, width, height, touch: true, ...MANUAL });
      try {
        await page.goto(`${srv.url}/?name=Tess&profile=${screen}#/`);
        for (const game of GAMES) {
          // In Quinteto the bots may take the person's hunter before it ever has a choice (its throws are
          // made for it) and play the match out: then another room, up to three.
          for (let tries = 1; ; tries++) {
            await createRoom(page, { game, vsBot: true });
            const result = await waitTurnOrResult(page).then(() => page.locator('#result').count());
            if (!result) break;
            assert.ok(tries < 3, `${game} ended before the player's first turn, ${tries} times`);
            await page.goto(`${srv.url}/?name=Tess&profile=${screen}#/`);
          }
          await page.evaluate(() => window.scrollTo(0, 0));
          const all = await smallTargets(page, 'body'); // the room and the page's header above it
          const inGame = new Set([...await smallTargets(page, 'section.room .game-column'),
            ...await smallTargets(page, 'section.room .game-side')].map((x) => x.what));
          const fmt = (xs) => xs.map((x) => `${x.what} ${x.w}x${x.h}`).join('; ');
          const shell = all.filter((x) => !inGame.has(x.what));
          const gamePart = all.filter((x) => inGame.has(x.what));
          t.diagnostic(`${game} at ${width}x${height}: shell ${shell.length} small, game ${gamePart.length} small`);
          if (all.length) failures.push(`${game} at ${width}x${height}: shell [${fmt(shell)}] game [${fmt(gamePart)}]`);
          await page.screenshot({ path: path.join(dir, `room-touch-${game}-${screen}.png`), fullPage: true });
          // Resign (the match ends at once in two-seat games; in Quinteto the hunters play on) and go on.
          page.once('dialog', (d) => d.accept());
          await page.locator('button.resign').click();
          await page.waitForFunction(() => !document.querySelector('button.resign:not([hidden])'));
          await page.goto(`${srv.url}/?name=Tess&profile=${screen}#/`);
        }
        noProblems(page);
      } finally {
        await closeAll([page]);
      }
    }
    assert.deepEqual(failures, [], `targets under 44x44 CSS px:\n${failures.join('\n')}`);
  }, QUICK_BOTS);
});
