// archive_replay.test.mjs: the archive in Chromium. A finished match is found from the lobby's link to
// #/matches, opened, stepped through with the buttons and the arrow keys, opened again at
// ?ply=N; the board is the game's own module and shows each step's ply; the page re-derives the
// match itself from its record (a Web Worker with the rules module, replay-worker.js) and says so, and
// names the ply of a throw tampered with on the way to the browser (replay_derived.test.mjs tampers with
// everything else). A finished live room links to its replay, and the client seed a person types in
// the lobby before a match is the one the archive reveals. Screenshots go to build-test/artifacts/.

import test from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import {
  withServer, newPlayerPage, artifactsDir, noProblems, browserFor,
} from './lib.mjs';
import { readFile } from 'node:fs/promises';
import { playAgainstBots } from '../lib/match.mjs';
import { watchRoom } from '../lib/client.mjs';

// Nobody watches these matches being played (only their archives): the bots act at once.
const BOTS_AT_ONCE = { botDelayMs: 1 };

const browser = browserFor(test);

// Ana (a WebSocket client) plays seat 0 against a bot to the end; resolves with the archive.
async function playedMatch(srv) {
  const { id } = await playAgainstBots(srv, 'ur', { name: 'Ana', clientSeed: 'ana seed' });
  return srv.archive(id);
}

const stepOf = (page) => page.evaluate(() => ({ step: Number(document.body.dataset.replayStep),
  ply: Number(document.body.dataset.ply), hash: location.hash }));

test('a finished match is found from the lobby, replayed step by step, opened at ?ply=, its dice checked', { timeout: 240000 }, async () => {
  await withServer(async (srv) => {
    const arch = await playedMatch(srv);
    const id = arch.id;
    const page = await newPlayerPage(browser(), { server: srv, label: 'Viewer' });
    const shots = await artifactsDir();
    try {
      await page.goto(`${srv.url}/?name=Viewer#/`);
      await page.click('#archive-link');
      await page.waitForSelector(`[data-match="${id}"]`);
      assert.match(await page.locator(`[data-match="${id}"] .match-players`).innerText(), /Ana/);
      assert.match(await page.locator(`[data-match="${id}"] .match-length`).innerText(), new RegExp(`${arch.actions.length} moves`));
      await page.screenshot({ path: path.join(shots, 'archive-matches.png'), fullPage: true });
      // a player's name filters the list to their matches
      await page.click(`[data-match="${id}"] .player-link >> text=Ana`);
      await page.waitForFunction(() => location.hash.startsWith('#/matches?player=Ana'));
      await page.waitForSelector(`[data-match="${id}"]`);

      await page.click(`[data-match="${id}"] .replay-link`);
      await page.waitForSelector('body[data-replay-steps]');
      const steps = Number(await page.evaluate(() => document.body.dataset.replaySteps));
      assert.equal(steps, 1 + arch.actions.length + arch.events.length);
      assert.deepEqual(await stepOf(page), { step: 0, ply: 0, hash: `#/replay/${id}` });
      await page.waitForSelector('.ur-board-wrap'); // the live game's own board module
      // step forward by button and by arrow key, back by arrow key
      await page.click('#replay-next');
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('ArrowLeft');
      assert.deepEqual(await stepOf(page), { step: 2, ply: 2, hash: `#/replay/${id}?ply=2` });
      assert.equal(await page.locator('#replay-moves [aria-current="step"]').getAttribute('data-step'), '2');
      await page.keyboard.press('End');
      assert.equal((await stepOf(page)).ply, arch.actions.length);
      assert.match(await page.locator('#result').innerText(), /wins/);
      // the scrub bar
      await page.locator('#replay-scrub').fill('10');
      assert.equal((await stepOf(page)).ply, 10);
      // a link to a ply opens there
      const at = Math.min(37, arch.actions.length);
      await page.goto(`${srv.url}/replay/${id}?ply=${at}`); // the address people share: redirected to the route
      await page.waitForSelector('body[data-replay-steps]');
      assert.equal((await stepOf(page)).ply, at);
      assert.equal(await page.locator('#replay-moves [aria-current="step"]').getAttribute('data-step'), String(at));
      // autoplay moves on by itself
      await page.click('#replay-play');
      await page.waitForFunction((p) => Number(document.body.dataset.ply) > p, at, { timeout: 5000 });
      await page.click('#replay-play');
      // the whole match, re-derived in the browser
      await page.waitForSelector('body[data-replay-verify="ok"]');
      assert.match(await page.locator('#dice-verdict').innerText(), new RegExp(`all ${arch.actions.length} moves, every roll of the dice, every event and the result come out exactly as recorded`));
      await page.screenshot({ path: path.join(shots, 'archive-replay.png'), fullPage: true });

      // a throw changed on its way to the browser: caught, and its ply named
      const k = arch.actions.findIndex((a, i) => i > 10 && a.action.roll);
      const tampered = structuredClone(arch);
      tampered.actions[k].outcome.dice[0] = !tampered.actions[k].outcome.dice[0];
      await page.context().route(`**/api/matches/${id}`, (route) => route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(tampered) }));
      await page.goto(`${srv.url}/?name=Viewer#/replay/${id}`);
      await page.waitForSelector(`body[data-replay-verify="mismatch:${arch.actions[k].ply}"]`);
      assert.equal(await page.locator('#dice-verdict').getAttribute('data-ply'), String(arch.actions[k].ply));
      assert.match(await page.locator('#dice-verdict').innerText(), new RegExp(`at move ${arch.actions[k].ply}: .*the record says it gave .*"dice"`));
      await page.screenshot({ path: path.join(shots, 'archive-replay-tampered.png'), fullPage: true });
      await page.context().unroute(`**/api/matches/${id}`);

      noProblems(page);
      // an unknown id says so (the browser logs the 404 answer it had)
      await page.goto(`${srv.url}/?name=Viewer#/replay/nosuchmatch`);
      await page.waitForSelector('#replay-missing');
      assert.match(await page.locator('#replay-missing').innerText(), /No finished match has the id nosuchmatch/);
      page.problems = page.problems.filter((p) => !/status of 404/.test(p));
      noProblems(page);
    } finally {
      await page.context().close();
    }
  }, BOTS_AT_ONCE);
});

test('the client seed typed in the lobby is the archive\'s; the finished room links to its replay', { timeout: 120000 }, async () => {
  await withServer(async (srv) => {
    const page = await newPlayerPage(browser(), { server: srv, label: 'Bea', prefs: { forced: false } });
    try {
      await page.goto(`${srv.url}/?name=Bea#/`);
      await page.locator('#new-room-seed').waitFor();
      assert.match(await page.inputValue('#new-room-seed'), /^[0-9a-f]{24}$/, 'a random seed by default');
      await page.fill('#new-room-seed', 'Bea’s own seed');
      await page.click('#create-room');
      await page.waitForSelector('body[data-status="waiting"][data-my-seat="0"]');
      const id = await page.evaluate(() => document.body.dataset.room);
      // the commitment is shown before the match starts
      assert.match(await page.locator('#commit').textContent(), /^[0-9a-f]{64}$/);
      await page.click('.add-bot[data-seat="1"]');
      await page.waitForSelector('body[data-status="playing"]');
      page.once('dialog', (d) => d.accept());
      await page.click('button.resign');
      await page.waitForSelector('#replay-link');
      const arch = await srv.archive(id);
      assert.deepEqual(arch.client_seeds, ['Bea’s own seed', '']);
      await page.click('#replay-link');
      await page.waitForSelector('body[data-replay-verify="ok"]');
      assert.equal(await page.evaluate(() => location.hash), `#/replay/${id}`);
      noProblems(page);
    } finally {
      await page.context().close();
    }
  });
});

// Every game this server has: a match of bots (short where the game has a turn limit) replays in the
// page through that game's own board module, to the end and back, re-derived by the rules module.
test('every game: a match of bots replays with its own board, re-derived in the browser', { timeout: 240000 }, async () => {
  await withServer(async (srv) => {
    const common = JSON.parse(await readFile(path.join(process.env.QUINTETO_TEST_SCHEMA, 'common.json'), 'utf8'));
    const w = await srv.player('Watcher');
    const page = await newPlayerPage(browser(), { server: srv, label: 'Viewer' });
    const shots = await artifactsDir();
    try {
      for (const game of common.$defs.game.enum) {
        let r = await w.request({ type: 'create', game, options: { max_turns: 10 } });
        if (r.type === 'error' && r.code === 'bad_options') r = await w.request({ type: 'create', game });
        if (r.type === 'error' && r.code === 'unknown_game') continue;
        const id = r.room.id;
        await watchRoom(w, id);
        for (const s of r.room.seats) await w.request({ type: 'add_bot', room: id, seat: s.seat });
        await w.nextState(id, (st) => st.status === 'finished', 180000);
        const arch = await srv.archive(id);
        await page.goto(`${srv.url}/#/replay/${id}`); // no name needed to look
        await page.waitForSelector('body[data-replay-steps]');
        assert.equal(await page.evaluate(() => document.body.dataset.replayVerify), 'ok', `${game}: re-derived`);
        await page.keyboard.press('End');
        assert.equal(await page.evaluate(() => Number(document.body.dataset.ply)), arch.actions.length);
        await page.keyboard.press('Home');
        for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowRight');
        assert.equal(await page.evaluate(() => Number(document.body.dataset.replayStep)), Math.min(5, Number(await page.evaluate(() => document.body.dataset.replaySteps)) - 1));
        await page.screenshot({ path: path.join(shots, `archive-replay-${game}.png`), fullPage: true });
        noProblems(page);
      }
    } finally {
      await page.context().close();
    }
  }, BOTS_AT_ONCE);
});

// A replay longer than a page (the worker answers 200 steps a request): the page asks for the pages it
// shows, scrubs to the last ply and steps back across a page's edge, opens at a ply of a later page, and
// never asks the server's /replay for anything.
test('a replay longer than one page is scrubbed to its last ply, a page at a time', { timeout: 240000 }, async () => {
  await withServer(async (srv) => {
    const w = await srv.player('Watcher');
    let arch = null;
    for (let tries = 0; tries < 8 && !(arch?.actions.length > 400); tries++) { // three pages or more
      const r = await w.request({ type: 'create', game: 'ur' });
      await watchRoom(w, r.room.id);
      for (const s of r.room.seats) await w.request({ type: 'add_bot', room: r.room.id, seat: s.seat });
      await w.nextState(r.room.id, (st) => st.status === 'finished', 180000);
      const a = await srv.archive(r.room.id);
      if (!arch || a.actions.length > arch.actions.length) arch = a;
    }
    const id = arch.id;
    const total = 1 + arch.actions.length + arch.events.length;
    assert.ok(total > 400, `an Ur match of bots spans three pages or more (${total} steps)`);
    const page = await newPlayerPage(browser(), { server: srv, label: 'Viewer' });
    const asked = [];
    page.on('request', (q) => { if (/\/api\/matches\/[^/]+\/replay/.test(q.url())) asked.push(new URL(q.url()).searchParams); });
    const at = (k, v) => page.waitForFunction(([k2, v2]) => document.body.dataset[k2] === String(v2), [k, v]);
    try {
      await page.goto(`${srv.url}/#/replay/${id}`);
      await page.waitForSelector('body[data-replay-steps]');
      assert.equal(Number(await page.evaluate(() => document.body.dataset.replaySteps)), total);
      await page.waitForSelector('.ur-board-wrap');
      // the scrub bar to the very end: the last page's last step, the final position and the result
      await page.locator('#replay-scrub').fill(String(total - 1));
      await at('ply', arch.actions.length);
      assert.equal(await page.locator('#replay-moves [aria-current="step"]').getAttribute('data-step'), String(total - 1));
      assert.match(await page.locator('#replay-step').innerText(), new RegExp(`${arch.actions.length}.*${arch.actions.length}`));
      // to the first step of the second page, then back across the page's edge
      await page.locator('#replay-scrub').fill('200');
      await at('replayStep', 200);
      await page.keyboard.press('ArrowLeft');
      await at('replayStep', 199);
      assert.equal(await page.locator('#replay-moves [aria-current="step"]').getAttribute('data-step'), '199');
      // opened at a ply on a later page
      const ply = arch.actions.length - 3;
      await page.goto(`${srv.url}/replay/${id}?ply=${ply}`);
      await at('ply', ply);
      await page.keyboard.press('End');
      await at('ply', arch.actions.length);
      assert.equal(asked.length, 0, 'nothing asked of /replay');
      noProblems(page);
    } finally {
      await page.context().close();
    }
  }, BOTS_AT_ONCE);
});
