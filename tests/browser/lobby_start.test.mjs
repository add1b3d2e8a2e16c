// lobby_start.test.mjs: starting is the first thing the lobby offers (issue 23), in Debian's Chromium
// against the real server. Under seventeen rooms, "Play against the computer" is on a phone's first
// screen and a few Tabs from the top of a desktop page; a match created as Quinteto's arranger (seat 5)
// against bots of chosen levels seat by seat seats everyone as asked; #/?game=<id> opens the lobby
// with that game chosen; a game without dice asks for no client seed; a page opened without a name
// says it is not connected (never "connecting…" forever) and offers the name; the archive's player
// filter ignores case and accents, and its list names the winner. One server, one Chromium.

import test from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { Server, newPlayerPage, artifactsDir, noProblems, browserFor, QUICK_BOTS } from './lib.mjs';
import { createRoom, joinRoom } from '../lib/client.mjs';
import { smallTargets } from '../lib/touch.mjs';
import { axeClean } from '../lib/axe.mjs';

const browser = browserFor(test);
let srv;
test.before(async () => { srv = await Server.start(QUICK_BOTS); });
test.after(async () => { if (srv) await srv.stop(); });

const shot = async (page, name) => page.screenshot({ path: path.join(await artifactsDir(), `${name}.png`) });

const online = (page) => page.waitForFunction(() => window.quinteto && window.quinteto.connection === 'online');

test('under seventeen rooms, play against the computer is on a phone\'s first screen and five Tabs from the top', { timeout: 90000 }, async () => {
  const hosts = [await srv.player('Host'), await srv.player('Hostess')]; // ten waiting rooms at most each
  for (let i = 0; i < 17; i++) await createRoom(hosts[i % 2], ['ur', 'laquet', 'quinteto'][i % 3]);

  const phone = await newPlayerPage(browser(), { width: 390, height: 844, touch: true, server: srv, label: 'phone' });
  await phone.goto(`${srv.url}/?name=Pia`);
  await online(phone);
  await phone.waitForFunction(() => document.querySelectorAll('#room-list .room-row').length >= 17);
  const box = await phone.locator('#play-bot').boundingBox();
  assert.ok(box && box.y >= 0 && box.y + box.height <= 844, `#play-bot within the first screen: ${JSON.stringify(box)}`);
  assert.equal(await phone.evaluate(() => window.scrollY), 0);
  const list = await phone.locator('#room-list').boundingBox();
  assert.ok(list.y > box.y + box.height, 'the rooms come after the start panel');
  assert.deepEqual(await smallTargets(phone, '.new-room'), [], 'every target of the start panel is 44x44');
  await shot(phone, 'lobby-start-390x844');
  await axeClean(phone, 'the lobby on a phone');
  await phone.setViewportSize({ width: 844, height: 390 }); // the phone on its side
  const side = await phone.locator('#play-bot').boundingBox();
  assert.ok(side.y >= 0 && side.y + side.height <= 390, `#play-bot within the first screen on its side: ${JSON.stringify(side)}`);
  await shot(phone, 'lobby-start-844x390');

  const desk = await newPlayerPage(browser(), { width: 1280, height: 800, server: srv, label: 'desk' });
  await desk.goto(`${srv.url}/?name=Dora`);
  await online(desk);
  await desk.waitForFunction(() => document.querySelectorAll('#room-list .room-row').length >= 17);
  let tabs = 0;
  while (tabs < 20 && !(await desk.evaluate(() => document.activeElement?.id === 'play-bot'))) {
    await desk.keyboard.press('Tab');
    tabs++;
  }
  assert.ok(tabs <= 5, `Tabs from the top of the page to "Play against the computer": ${tabs}`);
  await shot(desk, 'lobby-start-1280x800');
  noProblems(phone, desk);
  await phone.context().close();
  await desk.context().close();
});

test('created as Quinteto\'s arranger against bots of chosen levels, seat by seat', { timeout: 90000 }, async () => {
  const page = await newPlayerPage(browser(), { width: 1280, height: 800, server: srv, label: 'arranger' });
  await page.goto(`${srv.url}/?name=Ana`);
  await online(page);
  await page.selectOption('#new-game', 'quinteto');
  const seats = await page.$$eval('#new-seat option', (os) => os.map((o) => [o.value, o.textContent]));
  assert.equal(seats.length, 6);
  assert.equal(seats[0][0], '0', 'the first seat is the default');
  assert.equal(await page.inputValue('#new-seat'), '0');
  assert.match(seats[5][1], /Arranger/);
  assert.equal(new Set(seats.map((s) => s[1])).size, 6, `every seat named apart: ${seats.map((s) => s[1])}`);
  await page.selectOption('#new-seat', '5');
  await page.selectOption('#bot-level', 'greedy');
  await page.click('#seat-levels-box summary');
  assert.equal(await page.locator('#seat-level-5').count(), 0, 'no level for the seat you take');
  assert.match(await page.locator('#seat-levels [data-seat="5"]').innerText(), /You/);
  await page.selectOption('#seat-level-0', 'strong');
  await page.selectOption('#seat-level-3', 'random');
  await shot(page, 'lobby-start-arranger-form');
  await page.click('#play-bot');
  await page.waitForSelector('body[data-view="room"][data-my-seat="5"][data-status="playing"]');
  const got = await page.evaluate(() => window.quinteto.state.seats.map((s) => [s.seat, s.name, !!s.bot]));
  assert.deepEqual(got, [
    [0, 'Strong bot 1', true], [1, 'Greedy bot 2', true], [2, 'Greedy bot 3', true],
    [3, 'Random bot 4', true], [4, 'Greedy bot 5', true], [5, 'Ana', false],
  ]);
  assert.equal(await page.evaluate(() => window.quinteto.mySeat), 5);
  noProblems(page);
  await page.context().close();
});

test('#/?game=laquet chooses Laquet; a game without dice asks for no client seed', { timeout: 60000 }, async () => {
  const page = await newPlayerPage(browser(), { width: 390, height: 844, touch: true, server: srv, label: 'laquet' });
  await page.goto(`${srv.url}/?name=Lia#/?game=laquet`);
  await online(page);
  await page.waitForSelector('#new-game');
  assert.equal(await page.inputValue('#new-game'), 'laquet');
  assert.match(await page.locator('#rules-link').innerText(), /Laquet/);
  // Another game by its link, from the lobby itself.
  await page.evaluate(() => { location.hash = '#/?game=ur'; });
  await page.waitForFunction(() => document.querySelector('#new-game')?.value === 'ur');
  // Each game: the seed field shows exactly when its module throws dice (module.dice !== false).
  const games = await page.$$eval('#new-game option', (os) => os.map((o) => o.value));
  for (const g of games) {
    await page.selectOption('#new-game', g);
    const dice = await page.evaluate(async (id) => (await import('./games/registry.js')).gameModule(id).dice !== false, g);
    assert.equal(await page.locator('#new-room-seed').isVisible(), dice, `${g}: the seed field ${dice ? 'shown' : 'hidden'}`);
  }
  // A learn link for every module with a tutorial, to #/learn/<id>, and none for the others.
  const learn = await page.evaluate(async () => (await import('./games/registry.js')).GAMES
    .filter((g) => typeof g.tutorial === 'function').map((g) => `#/learn/${g.id}`));
  assert.deepEqual(await page.$$eval('a.learn-link', (as) => as.map((a) => a.getAttribute('href'))), learn);
  noProblems(page);
  await page.context().close();
});

test('without a name the header never says "connecting…" and offers the name', { timeout: 60000 }, async () => {
  const page = await newPlayerPage(browser(), { width: 390, height: 844, touch: true, server: srv, label: 'anon' });
  await page.goto(`${srv.url}/#/rules/ur`);
  await page.waitForSelector('body[data-view]');
  await page.waitForTimeout(1500); // long enough for a connection to have started, had one been made
  assert.equal(await page.evaluate(() => document.body.dataset.connection), 'idle');
  assert.equal((await page.locator('#conn').innerText()).trim(), 'not connected');
  // The archive needs no name: the header offers one, and the page stays where it was once it is given.
  await page.goto(`${srv.url}/#/matches`);
  await page.waitForSelector('body[data-view="matches"]');
  assert.notEqual((await page.locator('#conn').innerText()).trim(), 'connecting…');
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth), 'the header fits the phone');
  const pick = await page.locator('#pick-name').boundingBox();
  assert.ok(pick && pick.height >= 44 && pick.x + pick.width <= 390, `"Your name" is a whole 44 px target: ${JSON.stringify(pick)}`);
  await shot(page, 'lobby-start-no-name-390x844');
  await page.click('#pick-name');
  await page.fill('#name-input', 'Nadia');
  await page.click('#name-form button[type="submit"]');
  await online(page);
  await page.waitForSelector('body[data-view="matches"]');
  assert.equal((await page.locator('#conn').innerText()).trim(), 'online');
  assert.ok(await page.locator('#pick-name').isHidden());
  noProblems(page);
  await page.context().close();
});

// A match of `name` (seat 0) against a bot that she resigns at once: the bot wins.
async function resignedMatch(name) {
  const c = await srv.player(name);
  const room = await createRoom(c, 'ur');
  await joinRoom(c, room.id, { seat: 0 });
  await c.request({ type: 'add_bot', room: room.id, seat: 1 });
  await c.nextState(room.id, (s) => s.status === 'playing', 10000);
  await c.request({ type: 'resign', room: room.id });
  await c.nextState(room.id, (s) => s.status === 'finished', 10000);
  return room.id;
}

test('the archive\'s player filter ignores case and accents; the list names the winner', { timeout: 60000 }, async () => {
  const ids = [await resignedMatch('Ána'), await resignedMatch('ANA'), await resignedMatch('Anabel')];
  const page = await newPlayerPage(browser(), { width: 1280, height: 800, server: srv, label: 'archive' });
  await page.goto(`${srv.url}/#/matches`);
  await page.waitForSelector('body[data-view="matches"]');
  await page.fill('#filter-player', 'ana');
  await page.click('#match-filters button[type="submit"]');
  await page.waitForFunction(() => /player=ana/.test(location.hash) && document.body.dataset.matches !== undefined);
  await page.waitForFunction(() => document.querySelectorAll('#match-list [data-match]').length === 2);
  const listed = await page.$$eval('#match-list [data-match]', (rs) => rs.map((r) => r.dataset.match));
  assert.deepEqual(listed.sort(), [ids[0], ids[1]].sort(), '"ana" finds Ána and ANA, not Anabel');
  const row = page.locator(`[data-match="${ids[0]}"]`);
  const bot = await row.locator('.player-link').nth(1).innerText(); // the bot, as the page names it
  const result = await row.locator('.match-result').innerText();
  assert.ok(result.startsWith(`${bot} (Dark) wins`), `the result names the winner and the seat: ${result}`);
  await shot(page, 'lobby-start-archive-filter');
  await axeClean(page, 'the filtered archive');
  noProblems(page);
  await page.context().close();
});
