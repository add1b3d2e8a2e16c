// live_preview.test.mjs: the live room previews a move with the rules module (clients/web/preview.js), in
// Debian's Chromium against the real server and a bot. A person plays Ur by clicking; whenever the state gives
// them moves, every piece that can move is given keyboard focus and its landing mark (and the pieces it would
// capture) must be the one the rules module gives in Node for that very state (the module the server serves,
// loaded by rules-core.js: fromView, the move applied to a clone), with nothing sent meanwhile; then a piece is
// selected, its target must say the same, still before any frame leaves the page (the WebSocket frames are
// watched); its target is clicked, and once the server's state arrives the board shows the server's pieces and
// nothing of the preview. The module is fetched once, and not before a state wants it.

import test from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import {
  withServer, newPlayerPage, createRoom, playRandomLegal, playAction, noProblems, rng, browserFor, closeAll,
  waitTurnOrResult, MANUAL, QUICK_BOTS,
} from './lib.mjs';

const { loadRules } = await import(path.join(process.env.QUINTETO_SOURCE, 'clients/web/rules-core.js'));

const browser = browserFor(test);

// The elements of `b` that `a` lacks, as multisets.
function added(a, b) {
  const left = [...a];
  return b.filter((x) => {
    const i = left.indexOf(x);
    if (i < 0) return true;
    left.splice(i, 1);
    return false;
  });
}

// What the rules module says each of the state's moves does: Map(square -> {to, captured: 'sq sq' | null}).
function expectedLandings(core, st, seat) {
  const m = core.fromView('ur', { view: st.view, to_act: st.to_act, legal: st.legal, ply: st.ply });
  assert.ok(m, `the rules module rebuilds the state of ply ${st.ply}`);
  const out = new Map();
  for (const a of st.legal.filter((x) => 'move' in x)) {
    const c = m.clone();
    const r = c.apply(seat, a);
    assert.ok(!r.error, `the rules module takes the legal ${JSON.stringify(a)}`);
    const after = c.view().pieces;
    const [to] = added(st.view.pieces[seat], after[seat]);
    const captured = [...new Set(added(after[1 - seat], st.view.pieces[1 - seat]))];
    out.set(a.move, { to: String(to), captured: captured.length ? captured.join(' ') : null });
  }
  return out;
}

// The pieces the board draws and those of the state it shows, read together (the bot answers in
// milliseconds: two reads could see two states): "seat:square" for each stack on a cell, sorted; the ply.
function boardAndState(page) {
  return page.evaluate(() => {
    const st = window.quinteto.state;
    const board = [...document.querySelectorAll('.ur-board .piece[data-seat]')]
      .map((el) => `${el.dataset.seat}:${el.dataset.square}`).sort();
    const want = new Set();
    st.view.pieces.forEach((list, seat) => { for (const sq of list) if (sq >= 1 && sq <= 23) want.add(`${seat}:${sq}`); });
    const left = document.querySelectorAll('.move-target, .preview-capture').length;
    return { ply: st.ply, board, state: [...want].sort(), left };
  });
}

test('Ur against a bot: a selected or focused piece shows where the local rules land it, before anything is sent',
  { timeout: 240000 }, async (t) => {
    await withServer(async (srv) => {
      const core = await loadRules(new Uint8Array(await (await fetch(`${srv.url}/wasm/rules.wasm`)).arrayBuffer()));
      const page = await newPlayerPage(browser(), { server: srv, label: 'Alice', ...MANUAL });
      const rnd = rng();
      const frames = []; // every frame the page sent, parsed
      const wasmFetches = [];
      page.on('websocket', (ws) => ws.on('framesent', ({ payload }) => frames.push(JSON.parse(String(payload)))));
      page.on('request', (r) => { if (new URL(r.url()).pathname === '/wasm/rules.wasm') wasmFetches.push(r.url()); });
      try {
        await page.goto(`${srv.url}/?name=Alice#/`);
        await page.locator('#create-room').waitFor();
        assert.equal(wasmFetches.length, 0, 'the lobby does not load the rules module');
        await createRoom(page, { checks: { autoroll: false }, vsBot: true });
        let previewed = 0;
        let captures = 0;
        let rooms = 1;
        for (let n = 0; n < 1500 && (previewed < 6 || !captures); n++) {
          await waitTurnOrResult(page);
          if (await page.locator('#result').count()) {
            // The match ended before a capture was previewed (the dice and the bot decide whether this seat
            // ever has one): another room, as many as it takes, each a whole match of previews.
            if (rooms++ >= 5) break;
            await page.evaluate(() => { location.hash = '#/'; });
            await createRoom(page, { checks: { autoroll: false }, vsBot: true });
            continue;
          }
          const st = await page.evaluate(() => window.quinteto.state);
          const seat = await page.evaluate(() => window.quinteto.mySeat);
          const moves = st.legal.filter((a) => 'move' in a);
          if (!moves.length) { await playRandomLegal(page, rnd); continue; }
          const want = expectedLandings(core, st, seat);
          // The page has its local position once the module is in: the target says where it came from.
          const sentBefore = frames.length;
          for (const [sq, w] of want) {
            await page.focus(`[data-click="piece:${sq}"]`);
            const peek = page.locator(`.peek[data-square="${sq}"]`);
            await peek.waitFor();
            await page.waitForFunction((s) => document.querySelector(`.peek[data-square="${s}"]`)?.dataset.preview === 'rules', sq);
            assert.equal(await peek.getAttribute('data-to'), w.to, `focus on piece ${sq}: where it lands (ply ${st.ply})`);
            assert.equal(await peek.getAttribute('data-captures'), w.captured, `focus on piece ${sq}: what it captures`);
            if (w.captured) captures++;
          }
          const move = moves[Math.floor(rnd() * moves.length)];
          await page.locator(`[data-click="piece:${move.move}"]`).click();
          const target = page.locator('[data-click="target"]');
          await target.waitFor();
          assert.equal(await target.getAttribute('data-preview'), 'rules', 'the target comes from the local rules');
          assert.equal(await target.getAttribute('data-to'), want.get(move.move).to, `piece ${move.move}: the target`);
          assert.equal(await target.getAttribute('data-captures'), want.get(move.move).captured, `piece ${move.move}: captures`);
          assert.equal(frames.length, sentBefore, `nothing was sent while previewing: ${JSON.stringify(frames.slice(sentBefore))}`);
          assert.equal(await page.evaluate(() => window.quinteto.state.ply), st.ply, 'no state moved the match on meanwhile');
          previewed++;
          await target.click();
          await page.waitForFunction((p) => window.quinteto.state.ply > p, st.ply);
          const acts = frames.slice(sentBefore).filter((f) => f.type === 'act');
          assert.deepEqual(acts.map((f) => f.action), [move], 'the target sent that move, once');
          // The server's state replaced the preview: its pieces are the board's, the target is gone.
          const now = await boardAndState(page);
          assert.deepEqual(now.board, now.state, `the board is the server's (ply ${now.ply})`);
          assert.equal(now.left, 0, 'no preview left over');
        }
        t.diagnostic(`${previewed} moves previewed, ${captures} captures in ${rooms} rooms, seed ${rnd.seed}`);
        assert.ok(previewed >= 6, 'enough moves previewed');
        assert.ok(captures > 0, 'a capture was previewed');
        assert.equal(wasmFetches.length, 1, 'the rules module is fetched once');
        noProblems(page);
      } finally {
        await closeAll([page]);
      }
    }, QUICK_BOTS);
  });

// A page in a room against bots, the frames it sends counted: {page, frames, core, rnd, again()}; again()
// starts another such room (a match may end, or leave this seat out, before the test has seen enough).
// null when the served module cannot rebuild the game's positions.
async function botRoom(srv, game, label, checks = {}) {
  const core = await loadRules(new Uint8Array(await (await fetch(`${srv.url}/wasm/rules.wasm`)).arrayBuffer()));
  if (!previewable(core, game)) return null;
  const page = await newPlayerPage(browser(), { server: srv, label, ...MANUAL });
  const frames = [];
  page.on('websocket', (ws) => ws.on('framesent', ({ payload }) => frames.push(JSON.parse(String(payload)))));
  await page.goto(`${srv.url}/?name=${label}#/`);
  const again = async () => {
    await page.evaluate(() => { location.hash = '#/'; });
    await createRoom(page, { game, checks, vsBot: true });
  };
  await createRoom(page, { game, checks, vsBot: true });
  return { page, frames, core, rnd: rng(), again };
}

// Whether the served module can rebuild a position of `game` (it has the game's text codec): a new match's
// own view read back.
function previewable(core, game) {
  let m;
  try { m = core.newMatch(game, new Uint8Array(32), {}); } catch { return false; } // no codec: no_game
  const toAct = m.toAct();
  return !!core.fromView(game, { view: m.view(), to_act: toAct, legal: toAct.length ? m.legal(toAct[0]) : null, ply: m.ply });
}

// Plays random legal actions by clicks until `want(state)` holds for a state that lets this page act; returns
// that state (and the page's seat), or null when the match ended first (or left this seat nothing to do).
async function playUntil(page, rnd, want, max = 400) {
  for (let n = 0; n < max; n++) {
    try { await waitTurnOrResult(page, 20000); } catch { return null; }
    if (await page.locator('#result').count()) return null;
    const st = await page.evaluate(() => window.quinteto.state);
    if (want(st)) return { st, seat: await page.evaluate(() => window.quinteto.mySeat) };
    const ply = st.ply;
    if (await playRandomLegal(page, rnd)) await page.waitForFunction((p) => window.quinteto.state.ply > p, ply);
  }
  return null;
}

test('Laquet against a bot: a picked man shows the points the local rules land it on, before anything is sent',
  { timeout: 240000 }, async (t) => {
    await withServer(async (srv) => {
      const room = await botRoom(srv, 'laquet', 'Lia', { autoroll: true });
      if (!room) { t.skip('the rules module has no text codec for laquet'); return; }
      const { page, frames, core, rnd } = room;
      try {
        let previewed = 0;
        for (let round = 0; round < 6; round++) {
          const got = await playUntil(page, rnd, (st) => st.legal.some((a) => Array.isArray(a.plan) && a.plan.length));
          if (!got) break;
          const { st, seat } = got;
          const m = core.fromView('laquet', { view: st.view, to_act: st.to_act, legal: st.legal, ply: st.ply });
          assert.ok(m, `the rules module rebuilds the state of ply ${st.ply}`);
          const plans = st.legal.filter((a) => Array.isArray(a.plan) && a.plan.length);
          const from = plans[Math.floor(rnd() * plans.length)].plan[0].from;
          const want = new Set();
          for (const a of plans.filter((x) => x.plan[0].from === from)) {
            const r = m.clone().apply(seat, a);
            assert.ok(!r.error, `the module takes ${JSON.stringify(a)}`);
            want.add(String(Math.min(r.outcome.moves[0].to, 19)));
          }
          const before = frames.length;
          await page.locator(`[data-click="from:${from}"]`).click();
          await page.locator('[data-click^="to:"]').first().waitFor();
          const shown = await page.evaluate(() => [...document.querySelectorAll('[data-click^="to:"]')]
            .map((el) => ({ route: el.dataset.route, source: el.dataset.preview })));
          assert.deepEqual(shown.map((x) => x.source), shown.map(() => 'rules'), 'the landings come from the local rules');
          assert.deepEqual(shown.map((x) => x.route).sort(), [...want].sort(), `the man on route ${from}: its landings (ply ${st.ply})`);
          assert.equal(frames.length, before, 'nothing was sent while previewing');
          previewed++;
          // A plan of the picked man (another man's point may lie under its landings).
          const mine = plans.filter((x) => x.plan[0].from === from);
          const action = mine[Math.floor(rnd() * mine.length)];
          if (!(await playAction(page, action))) continue;
          await page.waitForFunction((p) => window.quinteto.state.ply > p, st.ply);
          const now = await page.evaluate(() => {
            const s = window.quinteto.state;
            const board = [...document.querySelectorAll('.lq-stack')].map((el) => `${el.dataset.seat}:${el.dataset.route}:${el.dataset.count}`).sort();
            const want = [];
            s.view.points.forEach((p, i) => ['white', 'black'].forEach((r, seat) => { if (p[r]) want.push(`${seat}:${i + 1}:${p[r]}`); }));
            return { ply: s.ply, board, state: want.sort(), staged: document.querySelectorAll('.lq-staged-from, .lq-staged-to').length };
          });
          assert.deepEqual(now.board, now.state, `the board is the server's (ply ${now.ply})`);
          assert.equal(now.staged, 0, 'no step of the preview is left on the board');
        }
        t.diagnostic(`${previewed} picks previewed`);
        assert.ok(previewed >= 3, 'enough picks previewed');
        noProblems(page);
      } finally {
        await closeAll([page]);
      }
    }, QUICK_BOTS);
  });

// The rooms the local rules land each step of `stone` on, after no step yet, and how many stones each captures:
// the shortest legal plan that begins with the step, applied to the position; its outcome's captures that stood
// in that room. Map(room -> captures).
function quintetoLandings(m, st, seat, stone) {
  const out = new Map();
  const plans = st.legal.filter((a) => Array.isArray(a.plan));
  const firsts = plans.map((a) => a.plan[0]).filter((x) => x.stone === stone && !('kill' in x));
  for (const step of firsts) {
    const key = JSON.stringify(step);
    const plan = plans.filter((a) => JSON.stringify(a.plan[0]) === key).sort((a, b) => a.plan.length - b.plan.length)[0];
    const c = m.clone();
    const r = c.apply(seat, plan);
    assert.ok(!r.error, `the module takes ${JSON.stringify(plan)}`);
    const place = c.view().stones[stone];
    if (place.where !== 'room') continue;
    const caught = r.outcome.captured.filter((j) => st.view.stones[j].where === 'room' && st.view.stones[j].room === place.room);
    out.set(String(place.room), String(caught.length));
  }
  return out;
}

test('Quinteto against bots: a selected stone shows the rooms the local rules land it in, before anything is sent',
  { timeout: 300000 }, async (t) => {
    await withServer(async (srv) => {
      const room = await botRoom(srv, 'quinteto', 'Quin', { autoroll: true });
      if (!room) { t.skip('the rules module has no text codec for quinteto'); return; }
      const { page, frames, core, rnd } = room;
      try {
        let previewed = 0;
        let rooms = 1;
        for (let round = 0; round < 12 && previewed < 5; round++) {
          const got = await playUntil(page, rnd, (st) => st.legal.some((a) => Array.isArray(a.plan) && a.plan.some((x) => 'stone' in x && !x.enter)), 2000);
          if (!got) { // this seat's match is over (a hunter may be out early): another room
            if (rooms++ < 4) await room.again();
            continue;
          }
          const { st, seat } = got;
          const m = core.fromView('quinteto', { view: st.view, to_act: st.to_act, legal: st.legal, ply: st.ply });
          assert.ok(m, `the rules module rebuilds the state of ply ${st.ply}`);
          const firsts = st.legal.filter((a) => Array.isArray(a.plan) && a.plan[0] && 'stone' in a.plan[0] && !a.plan[0].enter);
          const stone = firsts[Math.floor(rnd() * firsts.length)].plan[0].stone;
          const want = quintetoLandings(m, st, seat, stone);
          const before = frames.length;
          await page.locator(`[data-click="stone:${stone}"]`).click();
          if (want.size) await page.locator('.q-target').first().waitFor();
          const shown = await page.evaluate(() => [...document.querySelectorAll('.q-target')]
            .map((el) => [el.dataset.room, el.dataset.captures]));
          assert.deepEqual(shown.sort(), [...want.entries()].sort(), `stone ${stone}: its landings and captures (ply ${st.ply})`);
          // Every stone that takes a tap and every target takes a tap on its own centre: no landing drawn over
          // another stone of the player's (to choose instead) or an opponent's (to kill).
          const covered = await page.evaluate(() => [...document.querySelectorAll('.q-board [data-click]')].flatMap((el) => {
            const body = el.querySelector('.stone-body, .q-target, .q-target-limbo') || el;
            body.scrollIntoView({ block: 'center', inline: 'center' });
            const r = body.getBoundingClientRect();
            const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2)?.closest('[data-click]');
            return hit === el ? [] : [`${el.dataset.click} under ${hit?.dataset.click}`];
          }));
          assert.deepEqual(covered, [], `ply ${st.ply}, stone ${stone}: what covers a tap target`);
          assert.equal(frames.length, before, 'nothing was sent while previewing');
          previewed++;
          const plans = st.legal.filter((a) => Array.isArray(a.plan));
          const plan = plans[Math.floor(rnd() * plans.length)];
          if (!(await playAction(page, plan))) {
            // Nothing was sent (a click that waited too long on a loaded machine): the steps made so far are
            // taken back with the view's own Undo, so the next round starts, as it assumes, from none.
            while (await page.locator('[data-click="undo"]').count()) await page.locator('[data-click="undo"]').click();
            continue;
          }
          await page.waitForFunction((p) => window.quinteto.state.ply > p, st.ply);
          // no landing of this preview is left: targets now are only those of a stone the view chose itself
          // for a new turn of this seat (its only movable stone)
          const left = await page.evaluate(() => ({ targets: document.querySelectorAll('.q-target').length,
            chosen: !!document.querySelector('.q-pickable.selected'),
            plans: (window.quinteto.state.legal || []).some((a) => Array.isArray(a.plan)) }));
          assert.ok(left.targets === 0 || (left.chosen && left.plans), 'no landing of the preview is left on the board');
        }
        t.diagnostic(`${previewed} stones previewed in ${rooms} rooms`);
        assert.ok(previewed >= 3, 'enough stones previewed');
        noProblems(page);
      } finally {
        await closeAll([page]);
      }
    }, QUICK_BOTS);
  });

test('Super 1 al 5 against a bot: a selected piece shows every piece each stop would capture, before anything is sent',
  { timeout: 240000 }, async (t) => {
    await withServer(async (srv) => {
      const room = await botRoom(srv, 'super15', 'Sue');
      if (!room) { t.skip('the rules module has no text codec for super15'); return; }
      const { page, frames, core, rnd } = room;
      try {
        let previewed = 0;
        let captures = 0;
        for (let round = 0; round < 40 && (previewed < 5 || !captures); round++) {
          const got = await playUntil(page, rnd, (st) => st.legal.length > 0);
          if (!got) break;
          const { st, seat } = got;
          const m = core.fromView('super15', { view: st.view, to_act: st.to_act, legal: st.legal, ply: st.ply });
          assert.ok(m, `the rules module rebuilds the state of ply ${st.ply}`);
          // Prefer a piece that can capture, so captures are seen early.
          const outcomes = st.legal.map((a) => ({ a, o: m.clone().apply(seat, a).outcome }));
          const capturing = outcomes.filter((x) => x.o.captured.length);
          const from = (capturing.length ? capturing : outcomes)[Math.floor(rnd() * (capturing.length || outcomes.length))].a.from;
          const want = outcomes.filter((x) => x.a.from === from).map((x) => [x.a.to, x.o.captured.map((c) => c.square).join(' ')]);
          const before = frames.length;
          await page.locator(`[data-click="piece:${from}"]`).click();
          await page.locator('[data-click^="to:"]').first().waitFor();
          const shown = await page.evaluate(() => [...document.querySelectorAll('[data-click^="to:"]')]
            .map((el) => [el.dataset.square, el.dataset.captures || '', el.dataset.preview]));
          assert.deepEqual(shown.map((x) => x[2]), shown.map(() => 'rules'), 'the stops come from the local rules');
          assert.deepEqual(shown.map((x) => [x[0], x[1]]).sort(), want.sort(), `the piece on ${from}: its stops and captures (ply ${st.ply})`);
          assert.equal(frames.length, before, 'nothing was sent while previewing');
          previewed++;
          if (want.some((x) => x[1])) captures++;
          const [to] = want[Math.floor(rnd() * want.length)];
          await page.locator(`[data-click="to:${to}"]`).click();
          await page.waitForFunction((p) => window.quinteto.state.ply > p, st.ply);
          const acts = frames.slice(before).filter((f) => f.type === 'act');
          assert.deepEqual(acts.map((f) => [f.action.from, f.action.to]), [[from, to]], 'that stop sent that move, once');
          const now = await page.evaluate(() => {
            const s = window.quinteto.state;
            const board = [...document.querySelectorAll('.s15-square')].filter((el) => el.querySelector('.s15-piece'))
              .map((el) => el.dataset.square).sort();
            const left = document.querySelectorAll('.s15-taken, .s15-target').length;
            return { ply: s.ply, board, state: s.view.pieces.map((p) => p.square).sort(), left, mine: s.legal.length };
          });
          assert.deepEqual(now.board, now.state, `the board is the server's (ply ${now.ply})`);
          assert.equal(now.left, 0, 'no preview left over');
        }
        t.diagnostic(`${previewed} pieces previewed, ${captures} with captures`);
        assert.ok(previewed >= 5, 'enough pieces previewed');
        assert.ok(captures > 0, 'a capture was previewed');
        noProblems(page);
      } finally {
        await closeAll([page]);
      }
    }, QUICK_BOTS);
  });
