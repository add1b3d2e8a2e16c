// bot_levels.test.mjs: the computer's levels in Chromium (issue 22). "Play against the computer" with Strong
// in each of the four games seats strong bots (each bot seat's badge says so) and a bot's move comes; the
// room's "Add bot" seats a bot of the level chosen beside it; the stand-ins' level chosen in the lobby is the
// room's option stand_in_level. The levels offered are those the game has (GET /api/games `levels`: the
// server's registry of bots), labelled, in the page's language.

import test from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import {
  withServer, newPlayerPage, artifactsDir, noProblems, browserFor, legalActions, playRandomLegal,
} from './lib.mjs';

const browser = browserFor(test);
const GAMES = { ur: 2, laquet: 2, super15: 2, quinteto: 6 };

// Plays this page's seat at random until the last action is a bot's (another seat's); returns that action.
async function untilABotMoved(page) {
  for (let i = 0; i < 400; i++) {
    const last = await page.evaluate(() => {
      const st = window.quinteto.state;
      return st && st.last && st.last.seat !== Number(document.body.dataset.mySeat) ? st.last : null;
    });
    if (last) return last;
    if ((await legalActions(page)).length) await playRandomLegal(page);
    else await page.waitForTimeout(100);
  }
  assert.fail('no bot moved');
}

test('Strong from the lobby, in every game: the bot seats say strong and a bot moves', { timeout: 400000 }, async () => {
  await withServer(async (srv) => {
    const page = await newPlayerPage(browser(), { server: srv, label: 'Lola', prefs: { forced: false } });
    const shots = await artifactsDir();
    try {
      for (const [game, seats] of Object.entries(GAMES)) {
        await page.goto(`${srv.url}/?name=Lola#/`);
        await page.locator('#create-room').waitFor();
        await page.selectOption('#new-game', game);
        // the levels this game has, as the server lists them; Strong among them
        await page.waitForSelector('#bot-level option[value="strong"]', { state: 'attached' });
        const offered = await page.$$eval('#bot-level option', (os) => os.map((o) => [o.value, o.textContent]));
        assert.deepEqual(offered, [['random', 'Easy'], ['greedy', 'Medium'], ['strong', 'Strong']], game);
        assert.equal(await page.locator('label[for="bot-level"]').innerText(), "Computer's level");
        await page.selectOption('#bot-level', 'strong');
        await page.click('#play-bot');
        await page.waitForSelector('body[data-status="playing"][data-my-seat="0"]');
        await page.waitForFunction((n) => document.querySelectorAll('.seats .badge.bot[data-level="strong"]').length === n,
          seats - 1);
        const names = await page.$$eval('.seats li.seat .name', (els) => els.map((e) => e.textContent));
        for (let s = 1; s < seats; s++) assert.equal(names[s], `Strong bot ${s + 1}`, `${game} seat ${s}`);
        assert.match(await page.locator('.seats .badge.bot').first().innerText(), /bot · Strong/);
        const last = await untilABotMoved(page);
        assert.ok(last.seat > 0, `${game}: a bot's move (${JSON.stringify(last)})`);
        await page.screenshot({ path: path.join(shots, `bot-level-strong-${game}.png`) });
        // leave the match for the next game (the room stays the player's: resign ends it)
        await page.evaluate(() => window.quinteto.app?.net?.request({ type: 'resign', room: location.hash.split('/')[2] })
          .catch(() => {}));
      }
      noProblems(page);
    } finally {
      await page.context().close();
    }
  });
});

test('a room adds bots of the level chosen in it, and the lobby sets the stand-ins\' level (Spanish, on a phone)', { timeout: 200000 }, async () => {
  await withServer(async (srv) => {
    const page = await newPlayerPage(browser(), { server: srv, label: 'Paz', locale: 'es-ES', width: 390, height: 800 });
    const shots = await artifactsDir();
    try {
      await page.goto(`${srv.url}/?name=Paz#/`);
      await page.locator('#create-room').waitFor();
      await page.selectOption('#new-game', 'laquet');
      await page.waitForSelector('#stand-in-level option[value="strong"]', { state: 'attached' });
      assert.deepEqual(await page.$$eval('#stand-in-level option', (os) => os.map((o) => o.textContent)),
        ['El del servidor', 'Fácil', 'Medio', 'Fuerte']);
      assert.equal(await page.locator('label[for="stand-in-level"]').innerText(), 'Nivel de los suplentes');
      // by keyboard: focus the choice and pick Fuerte
      await page.focus('#stand-in-level');
      await page.selectOption('#stand-in-level', 'strong');
      await page.click('#create-room');
      await page.waitForSelector('body[data-status="waiting"][data-my-seat="0"]');
      assert.equal(await page.evaluate(() => window.quinteto.state.options.stand_in_level), 'strong');
      // the room's own choice of level for "Añadir bot"
      await page.waitForSelector('#room-bot-level option[value="random"]', { state: 'attached' });
      assert.equal(await page.locator('label[for="room-bot-level"]').innerText(), 'Nivel de los bots que añadas');
      await page.selectOption('#room-bot-level', 'random');
      await page.screenshot({ path: path.join(shots, 'bot-level-room-es.png'), fullPage: true });
      await page.click('.add-bot[data-seat="1"]');
      await page.waitForSelector('body[data-status="playing"]');
      await page.waitForSelector('.seats li.seat[data-seat="1"] .badge.bot[data-level="random"]');
      // the server names it in English; the Spanish page says it in Spanish (levels.js botName)
      assert.equal(await page.evaluate(() => window.quinteto.state.seats[1].name), 'Random bot 2');
      assert.equal(await page.locator('.seats li.seat[data-seat="1"] .name').innerText(), 'Bot aleatorio 2');
      assert.match(await page.locator('.seats li.seat[data-seat="1"] .badge.bot').innerText(), /bot · Fácil/);
      assert.ok(await page.locator('#room-bot-level').isHidden(), 'no level to choose once every seat is taken');
      noProblems(page);
    } finally {
      await page.context().close();
    }
  });
});
