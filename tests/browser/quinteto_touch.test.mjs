// quinteto_touch.test.mjs: Quinteto held in the hand, in Debian's Chromium against the real server. On a
// 390x844 phone with touch, a whole match is played by taps only as the arranger against five bots, and
// another as a hunter; each action goes through the browser-test contract (clicksFor) and tests/lib/touch.mjs's
// tapAction, which taps what it names without ever scrolling: every element tapped must be wholly on the
// screen and at least 44x44 CSS px when its turn comes, and exactly the action picked must be sent. On an
// 844x390 phone on its side and at 1280x800 turns are played by taps the same way. Mid-match nothing tappable
// in the game is under 44x44 at either phone size. A hunter who resigns is out of play: the board crosses its
// limbo, its side card says so, seatOut() is true, and the turn texts name seats by colour. Bots are greedy
// (faster ends); the random choices use a seed printed on failure ($QUINTETO_TEST_SEED repeats it).
// Screenshots go to build-test/artifacts/.

import test from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import {
  withServer, newPlayerPage, artifactsDir, rng, browserFor, closeAll, noProblems, QUICK_BOTS, MANUAL,
} from './lib.mjs';
import { tapAction, tapToResult, smallTargets } from '../lib/touch.mjs';
import { axeViolations } from '../lib/axe.mjs';

const browser = browserFor(test);

// A Quinteto room created through the page's own connection, this page seated in `seat`, greedy bots in
// the others; resolves once the match has started and the page shows it.
async function botRoom(page, srv, seat) {
  await page.goto(`${srv.url}/?name=Tap${seat}#/`);
  await page.waitForFunction(() => window.quinteto && window.quinteto.connection === 'online');
  const id = await page.evaluate(async (seat) => {
    const net = window.quinteto.app.net;
    const r = await net.request({ type: 'create', game: 'quinteto', options: { autoroll: false } });
    await net.request({ type: 'join', room: r.room.id, seat });
    location.hash = `#/room/${encodeURIComponent(r.room.id)}`;
    for (let s = 0; s < 6; s++) if (s !== seat) await net.request({ type: 'add_bot', room: r.room.id, seat: s, level: 'greedy' });
    return r.room.id;
  }, seat);
  await page.waitForSelector(`body[data-status="playing"][data-my-seat="${seat}"]`);
  return id;
}

// Taps this page's legal actions (random, rnd) until `enough(kinds, state)` or the match ends; checks
// smallTargets() on the game whenever the page may act. Resolves {moves, kinds}.
async function tapTurns(page, rnd, enough, { maxMoves = 60, axe = false } = {}) {
  const kinds = new Set();
  let moves = 0;
  let axed = !axe;
  let missed = 0;
  while (moves < maxMoves) {
    await page.waitForFunction(() => document.querySelector('#result') ||
      (window.quinteto.state && window.quinteto.state.legal.length && !document.querySelector('.sending')), null, { timeout: 30000 });
    if (await page.locator('#result').count()) break;
    const st = await page.evaluate(() => window.quinteto.state);
    if (enough(kinds, st)) break;
    assert.deepEqual(await smallTargets(page, '.game-column'), [], `small targets at ply ${st.ply}`);
    await checkWords(page);
    const a = st.legal[Math.floor(rnd() * st.legal.length)];
    const clicks = await page.evaluate((x) => window.quinteto.clicksFor(x), a);
    const first = clicks[0];
    // taps: the circle's last hunter comes by itself; a pair's second stone is chosen by the view
    if (a.arrange) assert.equal(clicks.length, a.arrange.length, `taps for the circle ${JSON.stringify(a)}: ${clicks}`);
    const kills = st.legal.some((x) => x.plan && x.plan.some((y) => 'kill' in y)); // then no stone is chosen for you
    if (a.plan && a.plan.length === 2 && a.plan.every((x) => 'stone' in x) && !kills) {
      assert.ok(clicks.length <= 4, `taps for a pair ${JSON.stringify(a)}: ${clicks}`);
    }
    if (!axed && /"(stone|arr)\\:/.test(first)) { // half-built: a stone chosen and its targets shown, or a hunter picked
      axed = true;
      await page.locator(first).first().dispatchEvent('click');
      assert.deepEqual(await axeGame(page), [], `axe on the game, ply ${st.ply}`);
      if (a.arrange) await page.locator('[data-click="arrange-clear"]').dispatchEvent('click'); // the circle from the start
    }
    if (!(await tapAction(page, a))) {
      assert.ok(++missed < 20, `20 actions in a row could not be tapped (ply ${st.ply})`);
      continue;
    }
    missed = 0;
    moves++;
    kinds.add(a.plan ? (a.plan.some((x) => 'kill' in x) ? 'kill' : a.plan.some((x) => x.enter || x.exit) ? 'limbo' : 'plan') : Object.keys(a)[0]);
    await page.waitForFunction((p) => window.quinteto.state.ply > p || !document.querySelector('.sending'), st.ply);
  }
  return { moves, kinds };
}

// axe-core on the game's own parts (the board, the panel, the card beside the seats): every violation.
async function axeGame(page) {
  await axeViolations(page); // loads axe-core into the page (the whole page is the shell's test)
  return page.evaluate(async () => (await window.axe.run({ include: [['.game-column'], ['.game-side']] },
    { resultTypes: ['violations'] })).violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`));
}

// The panel's words: options in plain words (no "#1: ↻ 6"), "play the plan as it is" only beside a Play
// button, no stray ", —", the roll-off's chips only during the roll-off.
async function checkWords(page) {
  const w = await page.evaluate(() => ({
    options: [...document.querySelectorAll('.q-option, [data-click^="go:"]')].map((el) => el.getAttribute('aria-label') || el.textContent),
    hint: document.querySelector('#q-hint')?.textContent || '',
    play: !!document.querySelector('[data-click="play"]'),
    side: document.querySelector('.game-side')?.textContent || '',
    chips: document.querySelectorAll('.q-chip').length,
    phase: window.quinteto.state.view.phase,
  }));
  for (const o of w.options) assert.doesNotMatch(o, /#\d|↻|↺|Σ|\?/, `option "${o}" in plain words`);
  if (/as it is/.test(w.hint)) assert.ok(w.play, `"${w.hint}" without a Play button`);
  assert.doesNotMatch(w.side, /, —/);
  if (w.phase !== 'rolloff') assert.equal(w.chips, 0, `roll-off chips in phase ${w.phase}`);
}

// A hunter's seat with no stone left on the ring or in limbo (it will not act again in this match).
const seatGone = (st, seat) => seat < 5 && [3 * seat, 3 * seat + 1].every((k) => !['room', 'limbo'].includes(st.view.stones[k].where));

// Resigns this page's seat through its connection (the shell's Resign asks a confirm()).
const resign = (page) => page.evaluate(() => {
  const st = window.quinteto.state;
  return window.quinteto.app.net.request({ type: 'resign', room: st.room }).catch(() => {});
});

test('on a 390x844 phone, a whole match by taps as the arranger, then one as a hunter', { timeout: 300000 }, async (t) => {
  await withServer(async (srv) => {
    const rnd = rng();
    t.diagnostic(`seed ${rnd.seed}`);
    for (const seat of [5, 0]) {
      const page = await newPlayerPage(browser(), { width: 390, height: 844, touch: true, server: srv, label: `phone${seat}`, ...MANUAL });
      try {
        // whole matches to their result; a hunter captured out before its first plan plays another
        const kinds = new Set();
        let moves = 0;
        let result = '';
        for (let room = 0; room < 3 && !kinds.has(seat === 5 ? 'arrange' : 'plan'); room++) {
          await botRoom(page, srv, seat);
          // the first actions with every target of the game measured, then on to the end
          const first = await tapTurns(page, rnd, (k) => k.size >= 2, { maxMoves: 6, axe: room === 0 });
          const rest = await tapToResult(page, rnd, {
            maxMoves: 300,
            choose: (legal) => legal[Math.floor(rnd() * legal.length)],
          }).catch(async (e) => {
            await page.screenshot({ path: path.join(await artifactsDir(), `quinteto-touch-fail-${seat}.png`) });
            throw new Error(`${e.message} (seed ${rnd.seed})`);
          });
          for (const k of [...first.kinds, ...rest.kinds]) kinds.add(k === 'limbo' ? 'plan' : k);
          moves += first.moves + rest.moves;
          result = (await page.locator('#result').textContent()).trim();
        }
        t.diagnostic(`seat ${seat}: ${moves} actions by taps (${[...kinds].join(', ')}), "${result}"`);
        if (seat === 5) assert.ok(kinds.has('arrange'), 'the arranger arranged the circle by taps');
        else assert.ok(kinds.has('plan'), 'the hunter played plans by taps');
        assert.equal(await page.locator('.legal').count(), 0, 'nothing is tappable once the match is over');
        await page.screenshot({ path: path.join(await artifactsDir(), `quinteto-touch-phone-${seat}.png`) });
        noProblems(page);
      } finally {
        await closeAll([page]);
      }
    }
  }, QUICK_BOTS);
});

test('on an 844x390 phone and at 1280x800, turns by taps: roll, plans, limbo, arrange and place', { timeout: 300000 }, async (t) => {
  await withServer(async (srv) => {
    const rnd = rng();
    t.diagnostic(`seed ${rnd.seed}`);
    const screens = [['landscape', 844, 390, { touch: true }], ['desktop', 1280, 800, { desktopTouch: true }]];
    for (const [name, width, height, opt] of screens) {
      for (const seat of [0, 5]) {
        const page = opt.touch
          ? await newPlayerPage(browser(), { width, height, touch: true, server: srv, label: `${name}${seat}`, ...MANUAL })
          : await desktopTouchPage(srv, width, height, `${name}${seat}`);
        try {
          // a hunter may be eliminated (or the match end) before it played a plan: another room then
          const want = seat === 5 ? ['arrange', 'place'] : ['roll', 'plan'];
          const kinds = new Set();
          let moves = 0;
          for (let room = 0; room < 4 && !want.every((x) => kinds.has(x) || (x === 'plan' && kinds.has('limbo'))); room++) {
            await botRoom(page, srv, seat);
            const got = await tapTurns(page, rnd, (k, st) => want.every((x) => k.has(x)) &&
              (seat === 5 || k.has('limbo') || st.ply > 60) || seatGone(st, seat), { maxMoves: seat === 5 ? 120 : 40 });
            moves += got.moves;
            for (const k of got.kinds) kinds.add(k);
          }
          t.diagnostic(`${name}, seat ${seat}: ${moves} actions by taps (${[...kinds].join(', ')})`);
          if (seat === 5) assert.ok(kinds.has('arrange'), 'the arranger arranged by taps');
          else assert.ok(kinds.has('roll') && (kinds.has('plan') || kinds.has('limbo')), 'the hunter rolled and played by taps');
          await page.screenshot({ path: path.join(await artifactsDir(), `quinteto-touch-${name}-${seat}.png`) });
          noProblems(page);
        } finally {
          await closeAll([page]);
        }
      }
    }
  }, QUICK_BOTS);
});

test('a resigned hunter is out of play, marked on the board and in words; turns name colours', { timeout: 120000 }, async () => {
  await withServer(async (srv) => {
    const page = await newPlayerPage(browser(), { width: 390, height: 844, touch: true, server: srv, label: 'out', ...MANUAL });
    try {
      await botRoom(page, srv, 2);
      // the circle is set and the roll-off starts: the turn names seats by colour, never "Hunter" alone
      await page.waitForFunction(() => window.quinteto.state.view.phase !== 'arrange');
      const turn = (await page.locator('#turn').textContent()).trim();
      assert.match(turn, /(Red|Blue|Green|Gold|Purple) hunter|To roll: |Your roll|Arranger/, `turn text "${turn}"`);
      assert.doesNotMatch(turn, /^Hunter to play$/);
      assert.equal(await page.evaluate(() => document.querySelectorAll('[data-out]').length), 0, 'nobody is out at first');
      await resign(page);
      await page.waitForSelector('[data-out="2"]');
      const verdict = await page.evaluate(async () => {
        const { default: game } = await import('/games/quinteto/quinteto.js');
        const st = window.quinteto.state;
        const inPlay = [0, 1, 3, 4].filter((x) => [3 * x, 3 * x + 1].some((k) => ['room', 'limbo'].includes(st.view.stones[k].where)));
        return { status: st.status, out: game.seatOut(st, 2), arranger: game.seatOut(st, 5), others: inPlay.map((x) => game.seatOut(st, x)),
          label: game.seatLabel(2), arrangerLabel: game.seatLabel(5) };
      });
      assert.deepEqual(verdict, { status: 'playing', out: true, arranger: false, others: verdict.others.map(() => false),
        label: 'Green hunter', arrangerLabel: 'Arranger' }, 'seatOut() says the resigned hunter is out, not those in play');
      await page.waitForSelector('#q-out-note');
      assert.match(await page.locator('#q-out-note').textContent(), /out of this match \(Green hunter\)/);
      assert.match(await page.locator('#q-outs').textContent(), /^Out of play: (.+, )?Green hunter(, .+)?$/);
      assert.ok(await page.evaluate(() => window.quinteto.state.status === 'playing'), 'the others play on');
      assert.equal(await page.locator('.game-column .legal').count(), 0, 'an out seat has nothing to tap');
      await page.waitForFunction(() => !['arrange', 'rolloff'].includes(window.quinteto.state.view.phase));
      assert.equal(await page.locator('.q-chip').count(), 0, 'no roll-off chips once the roll-off is over');
      // the log (what the room announces is made of its entries) names seats by colour
      const log = await page.locator('#move-log').textContent();
      assert.match(log, /(Red|Blue|Green|Gold|Purple) hunter( rolls| starts|:)/, 'the log names seats by colour');
      assert.doesNotMatch(log, /(^|[^a-z] )Hunter (rolls|starts|:)/);
      // each home's number stands outside its coloured ring
      const clear = await page.evaluate(() => [...document.querySelectorAll('.q-room.is-home')].map((g) => {
        const c = g.querySelector('.q-home-ring');
        const b = g.querySelector('.q-room-label').getBBox();
        const d = Math.hypot(b.x + b.width / 2 - Number(c.getAttribute('cx')), b.y + b.height / 2 - Number(c.getAttribute('cy')));
        return d - Math.hypot(b.width, b.height) / 2 - Number(c.getAttribute('r')) - parseFloat(getComputedStyle(c).strokeWidth) / 2;
      }));
      for (const gap of clear) assert.ok(gap > 0, `a home's number is under its ring (${gap.toFixed(1)})`);
      await page.screenshot({ path: path.join(await artifactsDir(), 'quinteto-touch-out.png') });
      noProblems(page);
    } finally {
      await closeAll([page]);
    }
  }); // bots at their usual pace: the others play on for a while after the resignation
});

// A desktop window that also takes touch (a laptop's screen): tapAction taps with the touchscreen.
async function desktopTouchPage(srv, width, height, label) {
  const context = await browser().newContext({ viewport: { width, height }, hasTouch: true, locale: 'en-US' });
  await context.addInitScript((p) => {
    const profile = (new URLSearchParams(location.search).get('profile') || 'default').slice(0, 40);
    localStorage.setItem(`quinteto.prefs.${profile}`, JSON.stringify(p));
  }, MANUAL.prefs);
  const page = await context.newPage();
  page.problems = [];
  page.on('pageerror', (e) => page.problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => { if (m.type() === 'error') page.problems.push(`console: ${m.text()}`); });
  page.on('websocket', (ws) => ws.on('framereceived', ({ payload }) => {
    srv.check(`${label} (browser) received`, typeof payload === 'string' ? payload : payload.toString());
  }));
  page.setDefaultTimeout(15000);
  return page;
}
