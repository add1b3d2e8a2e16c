// replay_derived.test.mjs: the replay page derives every replay itself (issue 21). With every request to
// GET /api/matches/{id}/replay aborted, a finished match replays in Chromium from its record alone: the page's
// Web Worker re-derives it with the rules module (rules.wasm), every step it draws equals the server's own
// replay of the match (fetched here by the test, never by the page), every ply is stepped through, and the
// verdict says ok. A record changed on its way to the browser (an outcome, an action, an event moved or
// given to the other seat, a client seed, the server seed, the result) is named at the ply that
// `quinteto verify` names for the same record, and the replay stops there. While a long record is derived
// (tests/lib/long_record.mjs), the progress bar moves and a control answers. Every game's record, changed the
// same ways, is named where `quinteto verify` names it. Screenshots go to build-test/artifacts/.

import test from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { withServer, newPlayerPage, artifactsDir, noProblems, browserFor } from './lib.mjs';
import { createRoom as wsCreate, joinRoom, autoplay, watchRoom } from '../lib/client.mjs';

const SOURCE = process.env.QUINTETO_SOURCE;
const { loadRules } = await import(path.join(SOURCE, 'clients/web/rules-core.js'));
const { derive, stepOrder } = await import(path.join(SOURCE, 'clients/web/derive.js'));
const { longRecord } = await import(path.join(SOURCE, 'tests/lib/long_record.mjs'));
const WASM = await readFile(path.join(process.env.QUINTETO_TEST_WASM, 'rules.wasm'));

const browser = browserFor(test);
const BOTS_AT_ONCE = { botDelayMs: 1 };

// An Ur match longer than one page of steps (200) with an event: Ana (seat 0) plays at random against a bot
// until ply 230, then resigns. Resolves with its archive.
async function matchWithEvent(srv) {
  for (let tries = 0; tries < 6; tries++) {
    const c = await srv.player(`Ana${tries}`);
    const { id } = await wsCreate(c, 'ur');
    let resign = false;
    const play = autoplay(c, id, { choose: (st) => {
      if (st.ply < 230) return st.legal[Math.floor(Math.random() * st.legal.length)];
      resign = true;
      return null;
    } });
    await joinRoom(c, id, { seat: 0, client_seed: 'ana seed' });
    await c.request({ type: 'add_bot', room: id });
    while (!resign) {
      if (await Promise.race([play.done.then(() => true), new Promise((r) => setTimeout(r, 50, false))])) break;
    }
    if (resign) {
      play.stop();
      assert.equal((await c.request({ type: 'resign', room: id })).type, 'resigned');
      const arch = await srv.archive(id);
      if (arch.events.length) return arch;
    }
  }
  throw new Error('no Ur match reached ply 230 in six tries');
}

// The server's own replay of the match, every page (the test asks; the page never does).
async function serverSteps(srv, id) {
  const steps = [];
  for (let from = 0; from !== null;) {
    const r = await fetch(`${srv.url}/api/matches/${id}/replay?from=${from}`);
    assert.equal(r.status, 200);
    const page = await r.json();
    steps.push(...page.steps);
    from = page.next;
  }
  return steps;
}

// What `quinteto verify` says of a record: 'ok', or the ply it names ("ply N:").
async function cliVerify(record) {
  const dir = await mkdtemp(path.join(tmpdir(), 'qverify-'));
  try {
    const file = path.join(dir, 'match.json');
    await writeFile(file, JSON.stringify(record));
    return await new Promise((resolve, reject) => {
      execFile(process.env.QUINTETO_CLI, ['verify', file], (err, stdout, stderr) => {
        if (!err) { resolve('ok'); return; }
        const m = /ply (\d+):/.exec(`${stdout}\n${stderr}`);
        if (err.code === 1 && m) resolve(Number(m[1]));
        else reject(new Error(`quinteto verify: exit ${err.code}: ${stdout}${stderr}`));
      });
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

// The page's view of the replay: the root element's marks.
const marks = (page) => page.evaluate(() => {
  const el = document.querySelector('section.room.replay');
  return { ply: el?.dataset.ply ?? null, verify: el?.dataset.verify ?? null, steps: document.body.dataset.replaySteps ?? null };
});

// Every request for /replay aborted and counted (the page must make none).
async function prepare(page, srv) {
  const replayAsked = [];
  await page.context().route(/\/api\/matches\/[^/]+\/replay/, (route) => { replayAsked.push(route.request().url()); route.abort(); });
  page.context().on('request', (q) => { if (/\/api\/matches\/[^/]+\/replay/.test(q.url())) replayAsked.push(q.url()); });
  return replayAsked;
}

test('with /replay blocked, a finished match replays every ply from its record, as the server derives it, and says ok', { timeout: 300000 }, async () => {
  await withServer(async (srv) => {
    const arch = await matchWithEvent(srv);
    const id = arch.id;
    const expected = await serverSteps(srv, id);
    assert.equal(expected.length, 1 + arch.actions.length + arch.events.length);
    const page = await newPlayerPage(browser(), { server: srv, label: 'Viewer' });
    const shots = await artifactsDir();
    const replayAsked = await prepare(page, srv);
    try {
      await page.goto(`${srv.url}/?name=Viewer#/replay/${id}`);
      await page.waitForSelector('section.room.replay[data-verify="ok"]');
      await page.waitForSelector('body[data-replay-steps]');
      assert.deepEqual(await marks(page), { ply: '0', verify: 'ok', steps: String(expected.length) });
      assert.equal(await page.getAttribute('#replay-progress', 'aria-valuenow'), '100');
      assert.match(await page.locator('#dice-verdict').innerText(),
        new RegExp(`all ${arch.actions.length} moves, every roll of the dice, every event and the result come out exactly as recorded`));
      assert.match(await page.locator('#result').innerText(), /resign/i);
      // every step the page derived is the server's, byte for byte as JSON
      for (let p = 0; p * 200 < expected.length; p++) {
        const got = await page.evaluate((q) => window.quinteto.replay.page(q).then((r) => r.steps), p);
        assert.deepEqual(got, expected.slice(p * 200, (p + 1) * 200), `page ${p} of the derived steps`);
      }
      // every step drawn, one arrow key at a time
      await page.focus('.game-board');
      for (let i = 1; i < expected.length; i++) {
        await page.keyboard.press('ArrowRight');
        await page.waitForFunction((k) => document.body.dataset.replayStep === String(k), i);
        assert.equal((await marks(page)).ply, String(expected[i].ply), `step ${i}`);
      }
      assert.match(await page.locator('#replay-moves [aria-current="step"]').innerText(), /resigns/);
      // opened at a ply of the second page, and the analysis board's entry: the match at a step
      await page.goto(`${srv.url}/?name=Viewer#/replay/${id}?ply=210`);
      await page.waitForFunction(() => document.querySelector('section.room.replay')?.dataset.ply === '210');
      const at = await page.evaluate(async () => {
        const v = window.quinteto.replay;
        const m = await v.matchAt(v.i);
        return { ply: m.ply, view: m.view(), toAct: m.toAct() };
      });
      const step = expected.findLastIndex((s) => s.ply <= 210);
      assert.deepEqual(at, { ply: 210, view: expected[step].view, toAct: expected[step].to_act });
      await page.screenshot({ path: path.join(shots, 'replay-derived.png'), fullPage: true });
      assert.deepEqual(replayAsked, [], 'the page asked nothing of /replay');
      noProblems(page);
    } finally {
      await page.context().close();
    }
  }, BOTS_AT_ONCE);
});

// Another legal action than the recorded one at step k, found with the rules module in Node.
async function otherLegal(arch, k) {
  const core = await loadRules(WASM);
  const r = derive(core, arch, { until: k - 1 });
  const a = arch.actions[stepOrder(arch)[k].i];
  const other = r.match.legal(a.seat).find((x) => JSON.stringify(x) !== JSON.stringify(a.action));
  return other || null;
}

test('a record changed on its way is named at the ply quinteto verify names, and the replay stops there', { timeout: 300000 }, async () => {
  await withServer(async (srv) => {
    const arch = await matchWithEvent(srv);
    const id = arch.id;
    const order = stepOrder(arch);
    const rollAt = arch.actions.findIndex((a, i) => i > 10 && a.action.roll);
    const moveAt = arch.actions.findIndex((a, i) => i > 20 && a.action.move !== undefined);
    let otherAt = -1;
    let other = null;
    for (let i = 30; i < arch.actions.length && !other; i++) {
      other = await otherLegal(arch, order.findIndex((s) => s.kind === 'action' && s.i === i));
      otherAt = i;
    }
    assert.ok(other, 'a ply with a choice');
    const cases = [
      ['an outcome', (r) => { r.actions[rollAt].outcome.dice[0] = !r.actions[rollAt].outcome.dice[0]; }, arch.actions[rollAt].ply, /the record says it gave .*but the rules and the dice give/],
      ['an illegal action', (r) => { r.actions[moveAt].action = { roll: true }; }, arch.actions[moveAt].ply, /played \{"roll":true\}, but the rules do not allow it there/],
      ['another legal action', (r) => { r.actions[otherAt].action = other; }, null, /Does not check out at move/],
      ['an event moved', (r) => { r.events[0].ply -= 7; }, null, /Does not check out at move/],
      ['an event given to the other seat', (r) => { r.events[0].seat = 1 - r.events[0].seat; }, null, /Does not check out/, true],
      // (the first roll of the other stream may come out the same: one Ur throw in eight does, so the ply is
      // quinteto verify's, a roll's, not always the first roll's)
      ['a client seed', (r) => { r.client_seeds[0] += '!'; }, null, /the rules and the dice give/],
      ['the server seed', (r) => { r.server_seed = (r.server_seed[0] === '0' ? '1' : '0') + r.server_seed.slice(1); }, 0, /does not hash to the commitment/],
      ['the result', (r) => { r.result.winner = 1 - r.result.winner; }, arch.actions.length, /the record’s result .* is not the one the rules give/, true],
    ];
    const page = await newPlayerPage(browser(), { server: srv, label: 'Viewer' });
    const shots = await artifactsDir();
    const replayAsked = await prepare(page, srv);
    let body = null;
    await page.context().route(`**/api/matches/${id}`, (route) => route.fulfill({ status: 200, contentType: 'application/json', body }));
    try {
      for (const [i, [what, change, ply, words, whole = false]] of cases.entries()) {
        const rec = structuredClone(arch);
        change(rec);
        body = JSON.stringify(rec);
        const named = await cliVerify(rec);
        assert.notEqual(named, 'ok', `${what}: quinteto verify refuses it`);
        if (ply !== null) assert.equal(named, ply, `${what}: the ply quinteto verify names`);
        if (what === 'a client seed') assert.ok(arch.actions.some((a) => a.ply === named && a.action.roll), `${what}: named at a roll (${named})`);
        await page.goto(`${srv.url}/?name=Viewer&case=${i}#/replay/${id}`);
        await page.waitForSelector('section.room.replay[data-verify^="mismatch:"]');
        const m = await marks(page);
        assert.equal(m.verify, `mismatch:${named}`, what);
        const verdict = await page.locator('#dice-verdict').innerText();
        assert.match(verdict, words, what);
        if (named > 0 && !whole) assert.match(verdict, new RegExp(`at move ${named}:`), what);
        assert.doesNotMatch(await page.locator('#result').innerText(), /wins|resign/i, `${what}: no result claimed`);
        // the replay stops at the last step derived before the disagreement
        if (what === 'the server seed') {
          await page.waitForSelector('#replay-nothing');
          assert.equal(m.steps, null);
        } else {
          await page.waitForSelector('body[data-replay-steps]');
          const steps = Number(await page.evaluate(() => document.body.dataset.replaySteps));
          if (whole) assert.equal(steps, order.length, `${what}: every step derived, only the result differs`);
          else assert.ok(steps < order.length, `${what}: ${steps} steps of ${order.length} drawn`);
          await page.keyboard.press('End');
          await page.waitForFunction((s) => document.body.dataset.replayStep === String(s - 1), steps);
          assert.equal((await marks(page)).ply, String(whole ? arch.actions.length : named), what);
        }
        await page.screenshot({ path: path.join(shots, `replay-derived-mismatch-${i}.png`), fullPage: true });
      }
      assert.deepEqual(replayAsked, [], 'the page asked nothing of /replay');
      noProblems(page);
    } finally {
      await page.context().close();
    }
  }, BOTS_AT_ONCE);
});

// A long record (a careful Quinteto match of about 40,000 plies, built here with the rules module: the server
// has never seen it): while the worker derives it, the progress bar moves and the page's controls answer; then
// it says ok and the last ply is there.
test('a long record: progress is shown and the page answers while its worker derives', { timeout: 300000 }, async () => {
  const core = await loadRules(WASM);
  const roles = JSON.parse(await readFile(path.join(SOURCE, 'protocol/games/quinteto/schema/game.json'), 'utf8')).roles;
  const rec = longRecord(core, { game: 'quinteto', roles, maxTurns: 20000, seed: 'browser' });
  assert.ok(rec.actions.length > 39000, `${rec.actions.length} plies`);
  assert.equal(derive(core, rec).ok, true, 'the record is valid');
  const body = JSON.stringify(rec);
  await withServer(async (srv) => {
    const page = await newPlayerPage(browser(), { server: srv, label: 'Viewer' });
    const replayAsked = await prepare(page, srv);
    await page.context().route(`**/api/matches/${rec.id}`, (route) => route.fulfill({ status: 200, contentType: 'application/json', body }));
    await page.addInitScript(() => {
      window.progressSeen = [];
      window.changedWhile = null; // the verdict when the speed selector's change was handled
      document.addEventListener('change', (ev) => {
        if (ev.target.id === 'replay-speed') window.changedWhile = document.querySelector('section.room.replay')?.dataset.verify;
      }, true);
      new MutationObserver(() => {
        const bar = document.querySelector('#replay-progress');
        if (!bar) return;
        const v = Number(bar.getAttribute('aria-valuenow'));
        window.progressSeen.push(v);
        // A control is used at the first progress the page shows, the way selectOption does it (the value set,
        // then input and change dispatched): a round trip from the test could come after a fast derivation.
        const speed = document.querySelector('#replay-speed');
        if (v > 0 && v < 100 && speed && !window.speedChosen) {
          window.speedChosen = true;
          speed.value = '4';
          speed.dispatchEvent(new Event('input', { bubbles: true }));
          speed.dispatchEvent(new Event('change', { bubbles: true }));
        }
      }).observe(document, { subtree: true, attributes: true, attributeFilter: ['aria-valuenow'] });
    });
    try {
      await page.goto(`${srv.url}/?name=Viewer#/replay/${rec.id}`);
      // a control answers while the worker is still at it
      await page.waitForFunction(() => window.changedWhile !== null);
      assert.equal(await page.evaluate(() => window.changedWhile), 'pending', 'the page handled the choice while still deriving');
      await page.waitForSelector('section.room.replay[data-verify="ok"]', { timeout: 120000 });
      assert.equal(await page.inputValue('#replay-speed'), '4');
      const seen = await page.evaluate(() => window.progressSeen);
      assert.ok(new Set(seen.filter((v) => v > 0 && v < 100)).size >= 3, `the bar moved: ${seen.join(' ')}`);
      assert.equal(seen.at(-1), 100);
      await page.keyboard.press('End');
      await page.waitForFunction((n) => document.querySelector('section.room.replay').dataset.ply === String(n), rec.actions.length);
      assert.match(await page.locator('#dice-verdict').innerText(), new RegExp(`all ${rec.actions.length.toLocaleString('en-US')} moves`));
      assert.deepEqual(replayAsked, []);
      noProblems(page);
    } finally {
      await page.context().close();
    }
  });
});

// The first boolean or number in a value (depth first), flipped or moved by one; false when it has none.
function flipLeaf(v) {
  for (const k of Object.keys(v)) {
    if (typeof v[k] === 'boolean') { v[k] = !v[k]; return true; }
    if (typeof v[k] === 'number') { v[k] += 1; return true; }
    if (v[k] && typeof v[k] === 'object' && flipLeaf(v[k])) return true;
  }
  return false;
}

// Every game this server has: a match of bots, then an outcome changed, an action swapped for another of the
// record, and a client seed changed, each named where `quinteto verify` names it (or ok where it says ok).
test('every game: a changed outcome, action or client seed is named at the ply quinteto verify names', { timeout: 300000 }, async () => {
  await withServer(async (srv) => {
    const common = JSON.parse(await readFile(path.join(process.env.QUINTETO_TEST_SCHEMA, 'common.json'), 'utf8'));
    const w = await srv.player('Watcher');
    const page = await newPlayerPage(browser(), { server: srv, label: 'Viewer' });
    const replayAsked = await prepare(page, srv);
    let body = null;
    try {
      for (const game of common.$defs.game.enum) {
        let r = await w.request({ type: 'create', game, options: { max_turns: 30 } });
        if (r.type === 'error' && r.code === 'bad_options') r = await w.request({ type: 'create', game });
        if (r.type === 'error' && r.code === 'unknown_game') continue;
        const id = r.room.id;
        await watchRoom(w, id);
        for (const s of r.room.seats) await w.request({ type: 'add_bot', room: id, seat: s.seat });
        await w.nextState(id, (st) => st.status === 'finished', 180000);
        const arch = await srv.archive(id);
        const n = arch.actions.length;
        const late = (pred) => { for (let i = Math.floor(n / 2); i < n; i++) if (pred(arch.actions[i])) return i; return -1; };
        const o = late((a) => flipLeaf(structuredClone(a.outcome)));
        const a = late((x) => JSON.stringify(x.action) !== JSON.stringify(arch.actions[0].action));
        const cases = [
          ['an outcome', (rec) => flipLeaf(rec.actions[o].outcome), o >= 0],
          ['an action', (rec) => { rec.actions[a].action = structuredClone(arch.actions[0].action); }, a >= 0],
          ['a client seed', (rec) => { rec.client_seeds[0] += '!'; }, true],
        ];
        await page.context().route(`**/api/matches/${id}`, (route) => route.fulfill({ status: 200, contentType: 'application/json', body }));
        for (const [what, change, possible] of cases) {
          assert.ok(possible, `${game}: ${what} to change`);
          const rec = structuredClone(arch);
          change(rec);
          body = JSON.stringify(rec);
          const named = await cliVerify(rec);
          await page.goto(`${srv.url}/?name=Viewer&game=${game}&what=${encodeURIComponent(what)}#/replay/${id}`);
          await page.waitForSelector('section.room.replay:not([data-verify="pending"])');
          assert.equal((await marks(page)).verify, named === 'ok' ? 'ok' : `mismatch:${named}`, `${game}: ${what}`);
        }
        await page.context().unroute(`**/api/matches/${id}`);
      }
      assert.deepEqual(replayAsked, []);
      noProblems(page);
    } finally {
      await page.context().close();
    }
  }, BOTS_AT_ONCE);
});
