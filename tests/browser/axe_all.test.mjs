// axe_all.test.mjs: axe-core finds no violation, of any impact (tests/lib/axe.mjs), on every page of the web
// client in its three languages (issue 23): the lobby, each game's rules page, each game's room mid-match
// (on the player's turn) and finished, Quinteto's room with the player's hunter out of play while the match
// goes on, the archive and a replay; (issue 26) the create-account dialog, the account page, the player pages
// (an account's, a name's) and a leaderboard. One server and one Chromium; rooms against quick bots, ended by resigning.

import test from 'node:test';
import assert from 'node:assert/strict';
import {
  withServer, newPlayerPage, createRoom, noProblems, browserFor, closeAll, MANUAL, QUICK_BOTS, waitTurnOrResult,
} from './lib.mjs';
import { axeViolations } from '../lib/axe.mjs';

const browser = browserFor(test);
const GAMES = ['ur', 'laquet', 'super15', 'quinteto'];
const LANGS = [['en', 'en-US'], ['es', 'es-ES'], ['pt', 'pt-BR']];

test('axe-core: no violation on any page, in English, Spanish and Portuguese', { timeout: 240000 }, async (t) => {
  await withServer(async (srv) => {
    const found = [];
    const check = async (page, what) => {
      const v = await axeViolations(page);
      if (v.length) found.push(`${what}: ${v.join('; ')}`);
    };
    for (const [lang, locale] of LANGS) {
      const page = await newPlayerPage(browser(), { server: srv, label: lang, locale, ...MANUAL });
      page.on('dialog', (d) => d.accept());
      const base = `${srv.url}/?name=Axe${lang}&profile=${lang}`;
      try {
        await page.goto(`${base}#/`);
        await page.locator('#create-room').waitFor();
        assert.equal(await page.evaluate(() => document.documentElement.lang), lang);
        await check(page, `${lang} lobby`);
        for (const game of GAMES) {
          await page.goto(`${base}#/rules/${game}`);
          await page.waitForSelector('.rules h1');
          await check(page, `${lang} rules of ${game}`);
        }
        let finishedRoom = null;
        for (const game of GAMES) {
          await page.goto(`${base}#/`);
          const room = await createRoom(page, { game, vsBot: true });
          await waitTurnOrResult(page);
          await check(page, `${lang} ${game} room mid-match`);
          // Resign (if a quick match has not ended by itself already).
          await page.waitForFunction(() => document.querySelector('#result') || document.querySelector('button.resign:not([hidden])'))
            .catch(async (e) => {
              const st = await page.evaluate(() => ({ status: window.quinteto.state?.status, seat: window.quinteto.mySeat, out: document.querySelector('.seat.out')?.dataset.seat }));
              throw new Error(`${lang} ${game}: no Resign and no result: ${JSON.stringify(st)} (${e.message})`);
            });
          if (!(await page.locator('#result').count())) await page.locator('button.resign:not([hidden])').click();
          if (game === 'quinteto') {
            // The hunter is out; the bots play on (checked while the match still goes on, if it does).
            await page.waitForFunction(() => !document.querySelector('button.resign:not([hidden])'));
            if (await page.evaluate(() => window.quinteto.state.status === 'playing')) await check(page, `${lang} quinteto room, hunter out`);
          }
          await page.waitForSelector('#result', { timeout: 90000 });
          await check(page, `${lang} ${game} room finished`);
          finishedRoom = room;
        }
        await page.goto(`${base}#/matches`);
        await page.waitForSelector(`[data-match="${finishedRoom}"]`);
        await check(page, `${lang} archive`);
        await page.goto(`${base}#/replay/${finishedRoom}`);
        await page.waitForSelector('body[data-replay-steps]');
        await check(page, `${lang} replay`);
        // Issue 26: the create-account dialog (open), the account page, a player page (an account's, and the
        // name record of a name no account has) and a leaderboard.
        await page.goto(`${base}#/`);
        await page.click('#header-claim');
        await page.waitForSelector('#claim-dialog[open]');
        await check(page, `${lang} create-account dialog`);
        await page.fill('#claim-handle', `Axe_${lang}`);
        await page.fill('#claim-password', 'axe password 26');
        await page.fill('#claim-confirm', 'axe password 26');
        await page.click('#claim-submit');
        await page.waitForSelector('#account-link');
        await page.goto(`${base}#/account`);
        await page.waitForSelector('#account-sessions');
        await check(page, `${lang} account page`);
        await page.goto(`${base}#/players/Axe_${lang}`);
        await page.waitForSelector(`.player-page[data-handle="Axe_${lang}"] .player-results`);
        await check(page, `${lang} player page`);
        await page.goto(`${base}#/players/Axe${lang}`);
        await page.waitForSelector('#player-name-record');
        await check(page, `${lang} player page of a name`);
        await page.goto(`${base}#/leaderboard?game=ur`);
        await page.waitForSelector('#leaderboard:not([aria-busy])');
        await check(page, `${lang} leaderboard`);
        noProblems(page);
      } finally {
        await closeAll([page]);
      }
    }
    t.diagnostic(`${found.length} pages with violations`);
    assert.deepEqual(found, [], `axe-core violations:\n${found.join('\n')}`);
  }, { ...QUICK_BOTS, args: ['--pwhash-mem-kib', '19456'] }); // the least Argon2id memory: three claims under ASan
});
