// lib.mjs: helpers for the browser tests. Starts the real server binary ($QUINTETO_SERVER) on a free
// loopback port with a temporary database and the web client from $QUINTETO_SOURCE/clients/web,
// stops it with SIGTERM (it must exit 0), and launches Debian's Chromium through playwright-core
// with the flags from platform-notes.md. Nothing here knows a game's rules.

import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { mkdtemp, mkdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';

export const CHROMIUM_FLAGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

// Starts the server; resolves once it logs "listening on http://". Returns
// {url, port, dir, proc, log(), stop()}; stop() sends SIGTERM and resolves with {code, signal}.
export async function startServer({ botDelayMs = 50, timeoutMs = 20000 } = {}) {
  const bin = process.env.QUINTETO_SERVER;
  const source = process.env.QUINTETO_SOURCE;
  assert.ok(bin, 'QUINTETO_SERVER must name the server binary');
  assert.ok(source, 'QUINTETO_SOURCE must name the source tree');
  const dir = await mkdtemp(path.join(tmpdir(), 'quinteto-browser-'));
  const port = await freePort();
  const args = ['--listen', `127.0.0.1:${port}`, '--db', path.join(dir, 'q.db'),
    '--web', path.join(source, 'clients', 'web'), '--bot-delay-ms', String(botDelayMs)];
  const proc = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const exited = new Promise((resolve) => proc.on('exit', (code, signal) => resolve({ code, signal })));
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start in ${timeoutMs} ms:\n${output}`)), timeoutMs);
    const onData = (buf) => {
      output += buf.toString();
      if (output.includes('listening on http://')) { clearTimeout(timer); resolve(); }
    };
    proc.stdout.on('data', onData);
    proc.stderr.on('data', onData);
    proc.on('error', (e) => { clearTimeout(timer); reject(e); });
    exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`server exited early (code ${code}, signal ${signal}):\n${output}`));
    });
  });
  let stopped = null;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    dir,
    proc,
    log: () => output,
    stop() {
      if (stopped) return stopped;
      stopped = (async () => {
        if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGTERM');
        const killer = setTimeout(() => proc.kill('SIGKILL'), 10000);
        const res = await exited;
        clearTimeout(killer);
        await rm(dir, { recursive: true, force: true });
        return res;
      })();
      return stopped;
    },
  };
}

// Runs body(server) against a fresh server, then stops it and checks that it exits 0.
// An error from the body wins over the exit check (with the server log attached).
export async function withServer(body, opts) {
  const srv = await startServer(opts);
  let failure = null;
  try {
    await body(srv);
  } catch (e) {
    failure = e;
  }
  const { code, signal } = await srv.stop();
  if (failure) {
    failure.message += `\n--- server log (tail) ---\n${srv.log().slice(-4000)}`;
    throw failure;
  }
  assert.equal(signal, null, `server killed by ${signal}:\n${srv.log().slice(-4000)}`);
  assert.equal(code, 0, `server exit code ${code}:\n${srv.log().slice(-4000)}`);
}

export function launchBrowser() {
  return chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_FLAGS, headless: true });
}

// A page in a fresh context (its own localStorage: its own identity). Browser console errors and
// page errors are collected in page.problems for the test to report.
export async function newPlayerPage(browser, { width = 1280, height = 800 } = {}) {
  const context = await browser.newContext({ viewport: { width, height } });
  const page = await context.newPage();
  page.problems = [];
  page.on('pageerror', (e) => page.problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => { if (m.type() === 'error') page.problems.push(`console: ${m.text()}`); });
  page.setDefaultTimeout(15000);
  return page;
}

export async function artifactsDir() {
  const dir = process.env.QUINTETO_ARTIFACTS || path.join(tmpdir(), 'quinteto-artifacts');
  await mkdir(dir, { recursive: true });
  return dir;
}

// The room id from a page's location (#/room/<id>).
export async function roomIdOf(page) {
  const hash = await page.evaluate(() => location.hash);
  const m = /^#\/room\/([^/?#]+)/.exec(hash);
  assert.ok(m, `not in a room: ${hash}`);
  return decodeURIComponent(m[1]);
}

// Creates a room from the lobby form and waits for the room view; returns its id.
export async function createRoom(page, { game = 'ur', autoroll = false } = {}) {
  await page.locator('#create-room').waitFor();
  await page.selectOption('#new-game', game);
  await page.setChecked('#autoroll', autoroll);
  await page.click('#create-room');
  await page.waitForSelector('body[data-view="room"] section.room');
  await page.waitForSelector('body[data-status="waiting"]');
  return roomIdOf(page);
}

// Checks that the clickable legal elements are exactly the state's legal actions, as JSON.
export async function checkLegalMarkup(page) {
  const { marks, legal } = await page.evaluate(() => ({
    marks: [...document.querySelectorAll('.legal')].map((e) => e.getAttribute('data-action')),
    legal: ((window.quinteto.state && window.quinteto.state.legal) || []).map((a) => JSON.stringify(a)),
  }));
  for (const m of marks) assert.ok(legal.includes(m), `clickable ${m} is not in legal ${legal.join(' ')}`);
  for (const l of legal) assert.ok(marks.includes(l), `legal ${l} has no clickable element`);
  return marks;
}

// Clicks one random legal element; returns the action's JSON, or null if none was clickable.
export async function clickRandomLegal(page, rnd = Math.random) {
  const loc = page.locator('.legal');
  const n = await loc.count();
  if (!n) return null;
  const el = loc.nth(Math.floor(rnd() * n));
  try {
    const action = await el.getAttribute('data-action', { timeout: 2000 });
    await el.click({ timeout: 3000 });
    return action;
  } catch {
    return null; // re-rendered under us; the caller looks again
  }
}

// A small seeded generator, so a failing run can be repeated (QUINTETO_TEST_SEED).
export function rng(seed = Number(process.env.QUINTETO_TEST_SEED) || Date.now()) {
  let x = seed >>> 0 || 1;
  const f = () => {
    x ^= x << 13; x >>>= 0; x ^= x >>> 17; x ^= x << 5; x >>>= 0;
    return x / 4294967296;
  };
  f.seed = seed;
  return f;
}
