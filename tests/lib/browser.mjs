// browser.mjs: the browser tests' part of the shared harness: Debian's Chromium through
// playwright-core (flags from platform-notes.md), pages that check every WebSocket frame the server
// sends them against protocol/schema (like the Node client does), and the browser-test contract of
// the web client's game modules (clients/web/games/registry.js): a test picks one of the state's
// legal actions, asks the page which elements make it (window.quinteto.clicksFor) and clicks them
// like a person would; window.quinteto.sent then tells which action those clicks built. Nothing
// here knows a game's rules.

import { mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import assert from 'node:assert/strict';
import { isDeepStrictEqual } from 'node:util';
import { chromium } from 'playwright-core';
import { pick } from './util.mjs';

export const CHROMIUM_FLAGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

export function launchBrowser() {
  return chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_FLAGS, headless: true });
}

// A page in a fresh context (its own localStorage: its own identity). Browser console errors and
// page errors are collected in page.problems for the test to report. With `server` (a Server of
// server.mjs), every frame the page receives on a WebSocket is schema-checked by server.check().
// `locale` is the browser's language (the client picks es, pt or en from it); `prefs` are the web
// client's preferences set before it loads (e.g. {forced: false}: it does not play a seat's only
// possible action by itself, so a test's clicks never race it); `reducedMotion` emulates the setting;
// `touch` makes it a phone's page (touch events, a mobile viewport: tests/lib/touch.mjs taps on it).
export async function newPlayerPage(browser, {
  width = 1280, height = 800, server, label = 'page', locale = 'en-US', prefs, reducedMotion, touch = false,
} = {}) {
  const context = await browser.newContext({ viewport: { width, height }, locale,
    hasTouch: touch, isMobile: touch, reducedMotion: reducedMotion ? 'reduce' : 'no-preference' });
  if (prefs) {
    await context.addInitScript((p) => {
      const profile = (new URLSearchParams(location.search).get('profile') || 'default').slice(0, 40);
      localStorage.setItem(`quinteto.prefs.${profile}`, JSON.stringify(p));
    }, prefs);
  }
  const page = await context.newPage();
  page.problems = [];
  page.on('pageerror', (e) => page.problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => { if (m.type() === 'error') page.problems.push(`console: ${m.text()}`); });
  if (server) {
    page.on('websocket', (ws) => ws.on('framereceived', ({ payload }) => {
      server.check(`${label} (browser) received`, typeof payload === 'string' ? payload : payload.toString());
    }));
  }
  page.setDefaultTimeout(15000);
  return page;
}

export async function artifactsDir() {
  const dir = process.env.QUINTETO_ARTIFACTS || path.join(tmpdir(), 'quinteto-artifacts');
  await mkdir(dir, { recursive: true });
  return dir;
}

// Asserts that no page logged an error.
export function noProblems(...pages) {
  const all = pages.flatMap((p) => p.problems);
  assert.deepEqual(all, [], `browser errors:\n${all.join('\n')}`);
}

// The room id from a page's location (#/room/<id>).
export async function roomIdOf(page) {
  const hash = await page.evaluate(() => location.hash);
  const m = /^#\/room\/([^/?#]+)/.exec(hash);
  assert.ok(m, `not in a room: ${hash}`);
  return decodeURIComponent(m[1]);
}

// Creates a room from the lobby form and waits for the room view, the creator seated in seat 0 (the
// client joins right after `create`); returns its id. `options` are set through the game's own
// inputs: {checkboxId: bool}. With `vsBot` it uses "Play against the computer" instead (every
// other seat gets a bot) and waits for the match to start.
export async function createRoom(page, { game = 'ur', checks = {}, vsBot = false } = {}) {
  await page.locator('#create-room').waitFor();
  await page.selectOption('#new-game', game);
  for (const [id, on] of Object.entries(checks)) await page.setChecked(`#${id}`, on);
  await page.click(vsBot ? '#play-bot' : '#create-room');
  await page.waitForSelector('body[data-view="room"] section.room');
  await page.waitForSelector(vsBot ? 'body[data-status="playing"][data-my-seat="0"]' : 'body[data-status="waiting"][data-my-seat="0"]');
  return roomIdOf(page);
}

// The current room state's legal actions for this page; [] when none, or while an action it sent
// waits for its answer (the game view is inert then).
export function legalActions(page) {
  return page.evaluate(() => (!document.querySelector('.sending') && window.quinteto.state &&
    window.quinteto.state.legal) || []);
}

// Checks the contract for every legal action: the game view names the clicks that make it, and
// the first of them is on the page now (the later ones may appear only after the first).
// The clicks are CSS selectors (games/common.js clickSelector), so the page counts the elements
// that match each first click in the same evaluation: one round trip for the whole state, however
// many actions are legal.
export async function checkActionBuilders(page) {
  const rows = await page.evaluate(() => ((window.quinteto.state && window.quinteto.state.legal) || [])
    .map((a) => {
      const clicks = window.quinteto.clicksFor(a);
      const first = Array.isArray(clicks) && clicks.length ? document.querySelectorAll(clicks[0]).length : 0;
      return { a, clicks, first };
    }));
  for (const { a, clicks, first } of rows) {
    assert.ok(Array.isArray(clicks) && clicks.length, `no clicks for legal ${JSON.stringify(a)}`);
    assert.ok(first >= 1, `${clicks[0]} (for ${JSON.stringify(a)}) is not on the page`);
  }
  return rows.length;
}

// Makes `action` by clicking what clicksFor() names, and checks that the page sent exactly that
// action. Returns false (nothing asserted) when the view changed under us before it was sent.
export async function playAction(page, action, { timeout = 5000 } = {}) {
  const { clicks, before } = await page.evaluate((a) => ({ clicks: window.quinteto.clicksFor(a),
    before: window.quinteto.sent.length }), action);
  assert.ok(Array.isArray(clicks) && clicks.length, `no clicks for ${JSON.stringify(action)}`);
  try {
    for (const sel of clicks) await page.locator(sel).first().click({ timeout });
    await page.waitForFunction((n) => window.quinteto.sent.length > n, before, { timeout });
  } catch (e) {
    if (await page.evaluate((n) => window.quinteto.sent.length > n, before)) throw e;
    return false; // a state moved the view on between our clicks
  }
  const sent = await page.evaluate(() => window.quinteto.sent.at(-1));
  assert.ok(isDeepStrictEqual(sent, action), `clicks ${clicks.join(' then ')} sent ${JSON.stringify(sent)}, not ${JSON.stringify(action)}`);
  return true;
}

// Plays one random legal action through the clicks; returns it, or null when none was legal.
export async function playRandomLegal(page, rnd = Math.random) {
  const legal = await legalActions(page);
  if (!legal.length) return null;
  const action = pick(legal, rnd);
  return (await playAction(page, action)) ? action : null;
}

// --- The page preamble every browser test file shares.

// Page options for a page whose clicks the test drives: the client does not play a forced action by itself.
export const MANUAL = { prefs: { forced: false } };

// Server options for a person against bots: the bots answer at once (5 ms, as in the integration
// tests) rather than after the 50 ms the other browser tests give them; the person's every action
// is still made by clicking.
export const QUICK_BOTS = { botDelayMs: 5 };

// One Chromium for a test file: launched before its first test (node:test's `test`), closed after
// its last. Returns a function that gives it.
export function browserFor(test) {
  let browser;
  test.before(async () => { browser = await launchBrowser(); });
  test.after(async () => { if (browser) await browser.close(); });
  return () => browser;
}

// Closes the pages' contexts (each page has its own), ignoring those already gone.
export async function closeAll(pages) {
  for (const p of pages) await p.context().close().catch(() => {});
}

// Waits until the page can act (legal actions, nothing in flight) or the match has a result.
export function waitTurnOrResult(page, timeout = 30000) {
  return page.waitForFunction(() => document.querySelector('#result') ||
    (window.quinteto.state && window.quinteto.state.legal.length && !document.querySelector('.sending')),
  null, { timeout });
}

// Plays this page's seat by random legal clicks (rnd) until #result shows; checks the action
// builders (and check(page), if given) on the first `checks` turns; fails after maxMoves actions
// (`what` names them) or deadlineMs. Resolves {moves, kinds}: kinds are the actions' first keys.
export async function playToResult(page, rnd, {
  checks = 40, check, maxMoves = Infinity, deadlineMs = 180000, turnTimeout, what = 'actions',
} = {}) {
  const deadline = Date.now() + deadlineMs;
  const kinds = new Set();
  let moves = 0;
  let checked = 0;
  for (;;) {
    if (maxMoves !== Infinity) assert.ok(moves < maxMoves, `more than ${maxMoves} ${what} without a result`);
    assert.ok(Date.now() < deadline, `no result after ${moves} ${what}`);
    await waitTurnOrResult(page, turnTimeout);
    if (await page.locator('#result').count()) return { moves, kinds };
    if (checked < checks) { await checkActionBuilders(page); if (check) await check(page); checked++; }
    const ply = await page.evaluate(() => window.quinteto.state.ply);
    const a = await playRandomLegal(page, rnd);
    if (a) {
      moves++;
      kinds.add(Object.keys(a)[0]);
      await page.waitForFunction((p) => window.quinteto.state.ply > p || !document.querySelector('.sending'), ply);
    }
  }
}
