// replay_long.mjs: how long Chromium takes to derive a very long replay from its record (issue 21;
// docs/BENCHMARKS.md, "Issue 21: an 80,000-ply replay derived in the browser"), and whether the page stays
// responsive meanwhile.
//
// 1. Builds a valid archived record with the rules module in Node (tests/lib/long_record.mjs: careful seats, a
//    real server seed and commit; with Quinteto and --max-turns 40000 the match runs to max_turns, drawn, about
//    80,000 plies).
// 2. Starts the real server (a temporary database), opens #/replay/<id> in Debian's Chromium with GET
//    /api/matches/<id> answered through the context's route with the record (the server has never seen it),
//    and measures, --runs times: deriveMs, from the page asking its worker to derive to the answer
//    (ReplayView.deriveMs: the worker fetching and parsing the record and loading the module, then deriving
//    every step and keeping snapshots; of which recordMs, the worker's fetch and parse of the record, and
//    stepsMs, derive() itself); okMs, from the navigation to data-verify="ok"; gapMs, the longest the
//    page's own thread went without running a 10 ms timer while the worker derived (from the progress bar's
//    first move to the verdict: its responsiveness); clickMs, how long a choice in the speed selector took
//    while the worker derived; endMs and seekMs, stepping to the last ply and scrubbing back to the middle;
//    idleGapMs, the timer's longest gap on the same page doing nothing for as long as the derivation took
//    (what the machine's load alone costs). For scale, nodeDeriveMs: derive() on the same record in Node.
//
// Usage (from the source tree, after a build with clang and lld):
//   node tests/bench/replay_long.mjs --build build-test [--game quinteto] [--max-turns 40000] [--runs 5]
//        [--seed 1] [--record out.json: keep the record] [--from-record file.json: skip step 1]
//        [--wasm rules.wasm: this module, in Node and (through page.route) in the page, instead of the build's]
// Not a test: nothing is asserted; it prints a JSON report (medians over the runs).

import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const SOURCE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const args = Object.fromEntries(process.argv.slice(2).reduce((acc, a, i, all) => {
  if (a.startsWith('--')) acc.push([a.slice(2), all[i + 1] && !all[i + 1].startsWith('--') ? all[i + 1] : true]);
  return acc;
}, []));
const BUILD = path.resolve(args.build || 'build-test');
const GAME = args.game || 'quinteto';
const MAX_TURNS = Number(args['max-turns'] || 40000);
const RUNS = Number(args.runs || 5);
const SEED = String(args.seed || 1);

const { loadRules } = await import(path.join(SOURCE, 'clients/web/rules-core.js'));
const { longRecord } = await import(path.join(SOURCE, 'tests/lib/long_record.mjs'));
const WASM = await readFile(args.wasm || path.join(BUILD, 'protocol/wasm/rules.wasm'));
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };

// Step 1: the record.
async function buildRecord() {
  const core = await loadRules(WASM);
  const roles = JSON.parse(await readFile(path.join(SOURCE, 'protocol/games', GAME, 'schema/game.json'), 'utf8')).roles;
  return longRecord(core, { game: GAME, roles, maxTurns: MAX_TURNS, seed: SEED,
    onProgress: (ply, s) => process.stderr.write(`record: ${ply} plies, ${s.toFixed(0)} s\n`) });
}

const freePort = () => new Promise((resolve) => {
  const s = createServer();
  s.listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)); });
});

// Step 2: the browser.
async function measure(record) {
  const dir = await mkdtemp(path.join(tmpdir(), 'replay-long-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const srv = spawn(path.join(BUILD, 'server/quinteto-server'), ['--listen', `127.0.0.1:${port}`, '--db', path.join(dir, 'q.db'),
    '--web', path.join(SOURCE, 'clients/web'), '--migrations', path.join(SOURCE, 'migrations')],
  { stdio: ['ignore', 'ignore', 'inherit'] });
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true,
    args: ['--no-sandbox', '--disable-dev-shm-usage'] });
  const body = JSON.stringify(record);
  const runs = [];
  try {
    for (let i = 0; i < 50; i++) {
      try { if ((await fetch(`${url}/healthz`)).ok) break; } catch { /* not yet */ }
      await new Promise((r) => setTimeout(r, 100));
    }
    for (let run = 0; run < RUNS; run++) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();
      await context.route(`**/api/matches/${record.id}`, (route) => route.fulfill({ status: 200, contentType: 'application/json', body }));
      if (args.wasm) await context.route('**/wasm/rules.wasm', (route) => route.fulfill({ status: 200, contentType: 'application/wasm', body: WASM }));
      // The page's thread: the longest gap between two runs of a 10 ms timer, from the start.
      await page.addInitScript(() => {
        window.benchGap = 0;
        window.benchLast = performance.now();
        // counted while the worker derives (the progress bar moved, no verdict yet), or always once benchIdle
        const deriving = () => {
          const bar = document.querySelector('#replay-progress');
          return document.querySelector('section.room.replay')?.dataset.verify === 'pending' &&
            Number(bar?.getAttribute('aria-valuenow')) > 0;
        };
        setInterval(() => {
          const now = performance.now();
          if (window.benchIdle || deriving()) window.benchGap = Math.max(window.benchGap, now - window.benchLast);
          window.benchLast = now;
        }, 10);
      });
      const t0 = Date.now();
      await page.goto(`${url}/#/replay/${record.id}`);
      await page.waitForFunction(() => Number(document.querySelector('#replay-progress')?.getAttribute('aria-valuenow')) > 0);
      // a click while the worker derives: the speed selector answers
      const c0 = Date.now();
      await page.selectOption('#replay-speed', '2', { timeout: 5000 });
      const clickMs = Date.now() - c0;
      const during = await page.evaluate(() => document.querySelector('section.room.replay').dataset.verify);
      await page.waitForSelector('section.room.replay:not([data-verify="pending"])', { timeout: 600000 });
      const verdict = await page.evaluate(() => document.querySelector('section.room.replay').dataset.verify);
      if (verdict !== 'ok') throw new Error(`the page says ${verdict}: ${await page.locator('#dice-verdict').innerText()}`);
      const okMs = Date.now() - t0;
      const deriveMs = await page.evaluate(() => window.quinteto.replay.deriveMs);
      const ms = await page.evaluate(() => window.quinteto.replay.derived.ms);
      const gapMs = await page.evaluate(() => window.benchGap);
      const e0 = Date.now();
      await page.keyboard.press('End');
      await page.waitForFunction((n) => document.querySelector('section.room.replay').dataset.ply === String(n), record.actions.length);
      const endMs = Date.now() - e0;
      const mid = Math.floor(record.actions.length / 2);
      const m0 = Date.now();
      await page.locator('#replay-scrub').fill(String(mid));
      await page.waitForFunction((n) => document.body.dataset.replayStep === String(n), mid);
      const seekMs = Date.now() - m0;
      // the same measure on the same page doing nothing for as long as the derivation took: what the machine's
      // load alone costs the page's timer (the baseline of gapMs)
      await page.evaluate(() => { window.benchGap = 0; window.benchIdle = true; window.benchLast = performance.now(); });
      await new Promise((r) => setTimeout(r, deriveMs));
      const idleGapMs = await page.evaluate(() => window.benchGap);
      runs.push({ deriveMs: Math.round(deriveMs), recordMs: Math.round(ms.record), stepsMs: Math.round(ms.derive), okMs, gapMs: Math.round(gapMs), idleGapMs: Math.round(idleGapMs), clickMs,
        clickWhile: during, endMs, seekMs });
      process.stderr.write(`run ${run + 1}: ${JSON.stringify(runs.at(-1))}\n`);
      await context.close();
    }
  } finally {
    await browser.close();
    srv.kill('SIGTERM');
    await new Promise((r) => srv.on('exit', r));
    await rm(dir, { recursive: true, force: true });
  }
  const med = (k) => median(runs.map((r) => r[k]));
  return { runs, median: { deriveMs: med('deriveMs'), recordMs: med('recordMs'), stepsMs: med('stepsMs'), okMs: med('okMs'), gapMs: med('gapMs'), idleGapMs: med('idleGapMs'), clickMs: med('clickMs'),
    endMs: med('endMs'), seekMs: med('seekMs') } };
}

const r0 = Date.now();
const record = args['from-record'] ? JSON.parse(await readFile(args['from-record'], 'utf8')) : await buildRecord();
const recordS = (Date.now() - r0) / 1000;
if (args.record) await writeFile(args.record, JSON.stringify(record));
// derive() on the same record in Node, for scale (the same module, no worker, no page)
const { derive } = await import(path.join(SOURCE, 'clients/web/derive.js'));
const nodeCore = await loadRules(WASM);
const d0 = Date.now();
const nodeOk = derive(nodeCore, record).ok;
const nodeDeriveMs = Date.now() - d0;
const m = await measure(record);
console.log(JSON.stringify({ game: record.game, options: record.options, plies: record.actions.length,
  result: record.result, recordBytes: JSON.stringify(record).length, recordSeconds: recordS, nodeDeriveMs, nodeOk,
  runs: RUNS, ...m }, null, 1));
