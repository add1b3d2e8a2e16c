// replay_long.mjs: how long Chromium takes to derive a very long replay from its record (issue 21;
// docs/BENCHMARKS.md, "Issue 21: an 80,000-ply replay derived in the browser"), and whether the page stays
// responsive meanwhile.
//
// 1. Builds a valid archived record with the rules module in Node (clients/web/rules-core.js): a real server
//    seed and its commit, client seeds, the match seed from them, every action and its outcome as the module
//    gives them, and the result. Random play ends a match in a few hundred plies, so the seats play
//    carefully, as tests/bench/long_match.c does in C: each takes, in a random order, the first legal action
//    whose outcome captures, kills, eliminates, bears off, rolls a Quinteto or wins nothing, backing up to an
//    earlier choice when a position offers none (the dice are the seed's whatever the choices, so the future
//    is known), and gives in after 20,000 backtracks. With Quinteto and a large max_turns the match runs to
//    max_turns and ends drawn: --max-turns 40000 is about 80,000 plies.
// 2. Starts the real server (a temporary database), opens #/replay/<id> in Debian's Chromium with GET
//    /api/matches/<id> answered by page.route with the record (the server has never seen it), and measures,
//    --runs times: the time from the page asking the worker to derive to its answer (ReplayView.deriveMs:
//    the worker fetching and parsing the record and loading the module, then deriving every step and keeping
//    snapshots), the time from the
//    navigation to data-verify="ok", the longest the page's own thread went without running a 10 ms timer
//    from the progress bar's appearance to the verdict (its responsiveness while the worker derives), and how long a click on the speed selector took to answer while the
//    worker derived. Then it steps to the last ply and back to the middle and times both, and measures the
//    timer's longest gap again on the idle page for as long (idleGapMs: what the machine's load alone costs).
//
// Usage (from the source tree, after a build with clang and lld):
//   node tests/bench/replay_long.mjs --build build-test [--game quinteto] [--max-turns 40000] [--runs 5]
//        [--seed 1] [--record out.json: keep the record] [--from-record file.json: skip step 1]
//        [--wasm rules.wasm: this module, in Node and (through page.route) in the page, instead of the build's]
// Not a test: nothing is asserted; it prints a JSON report (medians over the runs).

import { createHash } from 'node:crypto';
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
const BACKTRACK = 20000;

const { loadRules } = await import(path.join(SOURCE, 'clients/web/rules-core.js'));
const WASM = await readFile(args.wasm || path.join(BUILD, 'protocol/wasm/rules.wasm'));
const sha256 = (b) => createHash('sha256').update(b).digest();
const hex = (b) => Buffer.from(b).toString('hex');
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };

let rng = 0x2545f4914f6cdd1dn;
function rnd(n) {
  rng ^= (rng << 13n) & 0xffffffffffffffffn; rng ^= rng >> 7n; rng ^= (rng << 17n) & 0xffffffffffffffffn;
  return Number((rng >> 11n) % BigInt(n));
}

// What careful players avoid: an outcome that takes something off the board or ends the match.
function harmful(o) {
  for (const k of ['captured', 'killed', 'eliminated', 'quinteto', 'won', 'borne_off']) {
    const v = o[k];
    if (Array.isArray(v) ? v.length : v) return true;
  }
  return false;
}

// Step 1: the record.
async function buildRecord() {
  const core = await loadRules(WASM);
  const game = core.game(GAME);
  const roles = JSON.parse(await readFile(path.join(SOURCE, 'protocol/games', GAME, 'schema/game.json'), 'utf8')).roles;
  // One role per seat; Quinteto's six seats are five hunters and the arranger (its README), its schema's two roles.
  const roleOf = (seat) => (roles.length === game.seats ? roles[seat] : roles[seat === game.seats - 1 ? roles.length - 1 : 0]);
  const serverSeed = sha256(`replay_long ${SEED}`);
  const clientSeeds = Array.from({ length: game.seats }, (_, i) => (i === 0 ? `bench ${SEED}` : ''));
  const options = GAME === 'quinteto' ? { autoroll: false, max_turns: MAX_TURNS } : {};
  const start = core.newMatch(GAME, core.matchSeed(serverSeed, clientSeeds), { max_turns: options.max_turns || 0 });
  // A depth-first search over snapshots: frames[p] is the match before ply p and the next candidate to try.
  const frames = [{ bytes: start.snapshot(), order: null, next: 0 }];
  const chosen = [];
  const m = start.clone();
  let ply = 0;
  let tries = 0;
  let furthest = 0;
  const t0 = Date.now();
  for (;;) {
    const f = frames[ply];
    m.restore(f.bytes);
    const toAct = m.toAct();
    if (!toAct.length) break;
    const seat = toAct[0];
    if (!f.order) {
      const n = m.legal(seat).length;
      f.order = Array.from({ length: n }, (_, i) => i);
      for (let i = n - 1; i > 0; i--) { const j = rnd(i + 1); [f.order[i], f.order[j]] = [f.order[j], f.order[i]]; }
    }
    let pick = -1;
    let played = null;
    for (; f.next < f.order.length && pick < 0; f.next++) {
      const c = m.clone();
      const r = c.applyIndex(seat, f.order[f.next]);
      if (!r.error && !harmful(r.outcome)) { pick = f.order[f.next]; played = c; }
    }
    if (pick < 0 && ply > 0 && tries < BACKTRACK) { tries++; ply--; continue; }
    if (pick < 0) { pick = f.order[0]; played = m.clone(); played.applyIndex(seat, pick); }
    chosen[ply] = { seat, index: pick };
    frames[ply + 1] = { bytes: played.snapshot(), order: null, next: 0 };
    if (++ply > furthest) { furthest = ply; tries = 0; }
    if (ply % 10000 === 0) process.stderr.write(`record: ${ply} plies, ${((Date.now() - t0) / 1000).toFixed(0)} s\n`);
  }
  // Replayed once more to write the record (the search's last path is the match).
  const w = core.newMatch(GAME, core.matchSeed(serverSeed, clientSeeds), { max_turns: options.max_turns || 0 });
  const actions = [];
  const at0 = Date.UTC(2026, 11, 1);
  for (let p = 0; p < ply; p++) {
    const { seat, index } = chosen[p];
    const action = w.legal(seat)[index];
    const r = w.applyIndex(seat, index);
    actions.push({ ply: p, seat, action, outcome: r.outcome, at: at0 + p * 1000 });
  }
  return {
    id: 'longbench', game: GAME, options, started_at: at0, ended_at: at0 + ply * 1000,
    seats: Array.from({ length: game.seats }, (_, seat) => ({ seat, role: roleOf(seat), name: `Careful ${seat + 1}`, bot: true })),
    commit: hex(sha256(serverSeed)), server_seed: hex(serverSeed), client_seeds: clientSeeds,
    actions, events: [], result: w.result(),
  };
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
        setInterval(() => {
          const now = performance.now();
          window.benchGap = Math.max(window.benchGap, now - window.benchLast);
          window.benchLast = now;
        }, 10);
      });
      const t0 = Date.now();
      await page.goto(`${url}/#/replay/${record.id}`);
      await page.waitForSelector('#replay-progress[aria-valuenow]', { state: 'attached' });
      await page.evaluate(() => { window.benchGap = 0; window.benchLast = performance.now(); }); // the page loaded: from here on
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
      await page.evaluate(() => { window.benchGap = 0; window.benchLast = performance.now(); });
      await new Promise((r) => setTimeout(r, deriveMs));
      const idleGapMs = await page.evaluate(() => window.benchGap);
      runs.push({ deriveMs: Math.round(deriveMs), okMs, gapMs: Math.round(gapMs), idleGapMs: Math.round(idleGapMs), clickMs,
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
  return { runs, median: { deriveMs: med('deriveMs'), okMs: med('okMs'), gapMs: med('gapMs'), idleGapMs: med('idleGapMs'), clickMs: med('clickMs'),
    endMs: med('endMs'), seekMs: med('seekMs') } };
}

const r0 = Date.now();
const record = args['from-record'] ? JSON.parse(await readFile(args['from-record'], 'utf8')) : await buildRecord();
const recordS = (Date.now() - r0) / 1000;
if (args.record) await writeFile(args.record, JSON.stringify(record));
const m = await measure(record);
console.log(JSON.stringify({ game: record.game, options: record.options, plies: record.actions.length,
  result: record.result, recordBytes: JSON.stringify(record).length, recordSeconds: recordS, runs: RUNS, ...m }, null, 1));
