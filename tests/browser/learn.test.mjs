// learn.test.mjs: the guided first match (clients/web/learn.js, games/quinteto/tutorial.js) and the rules pages
// that get a newcomer started (clients/web/rules.js), in Chromium against the real server.
// - From the home page (its "Learn to play" link when the lobby has one, else #/learn/quinteto) the guided match
//   is played to its end on a 390x844 phone by taps only: the coach's Next, and the board's own parts for each
//   taught move (tests/lib/touch.mjs tapAction: on screen, no scroll, at least 44x44 px, tapped at the centre)
//   with the coach's words, Back and the whole board on the screen; every step's coach text is shown, the duel
//   is reached, the result is shown with the ways on; axe finds nothing, mid-lesson and
//   at the end; nothing is sent to the server.
// - Without a name, in Spanish and Brazilian Portuguese on a phone on its side: the coach's words, Next, a roll
//   and Back by keyboard, a roll and a plan by taps (44 px targets) with the coach, Back and the whole board on
//   the screen.
// - Without a name, every game's rules page shows its worked turn's board (drawn by the rules module) and the
//   words beside it, "Play X now" opens the lobby with X chosen (#/?game=<id>), nested lists are lists.
// Screenshots go to build-test/artifacts/.

import test from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { withServer, newPlayerPage, artifactsDir, noProblems, browserFor } from './lib.mjs';
import { tapAction, boxOf, smallTargets } from '../lib/touch.mjs';
import { axeClean } from '../lib/axe.mjs';

const web = path.join(process.env.QUINTETO_SOURCE, 'clients', 'web');
const tutorial = (await import(path.join(web, 'games', 'quinteto', 'tutorial.js'))).default;
const browser = browserFor(test);

const lessonOf = (page) => page.evaluate(() => {
  const el = document.getElementById('learn');
  const l = window.quinteto.learn;
  return { step: Number(el.dataset.step), say: el.dataset.say, taught: l?.lesson.taught() ?? null,
    text: document.getElementById('coach-text').textContent, phase: l?.state.view.phase,
    next: !document.getElementById('learn-next').hidden };
});

// Taps the element `sel` where a finger would: wholly on screen, at least 44x44, at its centre.
async function tap(page, sel) {
  const b = await boxOf(page, sel);
  assert.ok(b.found && b.inView, `${sel} is on the screen without scrolling`);
  assert.ok(b.w >= 43.5 && b.h >= 43.5, `${sel} is ${Math.round(b.w)}x${Math.round(b.h)}`);
  await page.touchscreen.tap(b.x, b.y);
}

test('the guided first match, from the home page to its result, by taps on a phone', { timeout: 120000 }, async () => {
  await withServer(async (srv) => {
    const page = await newPlayerPage(browser(), { width: 390, height: 844, touch: true, server: srv, label: 'Ana' });
    const socketsSent = [];
    page.on('websocket', (ws) => ws.on('framesent', ({ payload }) => socketsSent.push(String(payload))));
    await page.goto(`${srv.url}/?name=Ana&lang=en`);
    await page.waitForSelector('body[data-view="lobby"]');
    const link = page.locator('a[href="#/learn/quinteto"]').first();
    if (await link.count()) await link.tap(); // the lobby's one-tap link (issue 23), when it is there
    else await page.goto(`${srv.url}/?name=Ana&lang=en#/learn/quinteto`);
    await page.waitForSelector('#learn[data-ready="true"]');
    const before = socketsSent.length;
    const dir = await artifactsDir();

    const seen = [];
    const phases = new Set();
    for (let guard = 0; guard < 2 * tutorial.steps.length; guard++) {
      const now = await lessonOf(page);
      if (seen.at(-1)?.step !== now.step) seen.push(now);
      phases.add(now.phase);
      assert.equal(now.text, tutorial.strings.en[`coach.${now.say}`], `step ${now.step}: the coach's words`);
      assert.deepEqual(await smallTargets(page, '#coach'), [], 'the coach\'s buttons are big enough for a finger');
      const text = await boxOf(page, '#coach-text');
      assert.ok(text.inView, `step ${now.step}: the coach's words are on the screen`);
      if (now.say === 'limbo') {
        await page.screenshot({ path: path.join(dir, 'learn-phone-limbo.png') });
        await axeClean(page, 'the guided match, mid-lesson');
      }
      if (now.taught) {
        // The whole board on the screen with the coach's words, and its own parts tapped without scrolling,
        // each at least 44x44 px (tapAction).
        assert.ok((await boxOf(page, '.learn-board .game-board')).inView,
          `step ${now.step}: the whole board is on the screen`);
        assert.ok((await boxOf(page, '#learn-back')).inView, `step ${now.step}: Back is on the screen`);
        assert.ok(await tapAction(page, now.taught), `step ${now.step}: the taught move is made`);
        await page.waitForFunction((k) => Number(document.getElementById('learn').dataset.step) > k, now.step);
      } else if (now.next) {
        await tap(page, '#learn-next');
        await page.waitForFunction((k) => Number(document.getElementById('learn').dataset.step) > k, now.step);
      } else break;
    }
    assert.deepEqual(seen.map((s) => s.say), tutorial.steps.map((s) => s.say), 'every step, in order');
    assert.ok(phases.has('duel'), 'the duel is reached');
    const result = await page.locator('#result').innerText();
    assert.match(result, /Red hunter wins/); // the result names the seat (seatLabel)
    assert.equal(await page.getAttribute('#learn-play', 'href'), '#/?game=quinteto');
    assert.deepEqual(await smallTargets(page, '#coach'), []);
    await page.screenshot({ path: path.join(dir, 'learn-phone-end.png') });
    await axeClean(page, 'the guided match, finished');
    // Back returns to the last move's step; the lesson sent nothing to the server.
    await tap(page, '#learn-back');
    assert.equal((await lessonOf(page)).say, 'kill');
    assert.equal(socketsSent.length, before, `nothing sent during the lesson: ${socketsSent.slice(before)}`);
    noProblems(page);
    await page.context().close();
  });
});

test('without a name: the lesson in Spanish and Portuguese by keyboard, the rules pages of every game', { timeout: 120000 }, async () => {
  await withServer(async (srv) => {
    const dir = await artifactsDir();
    for (const [lang, next] of [['es', 'Siguiente'], ['pt', 'Próximo']]) {
      const page = await newPlayerPage(browser(), { width: 844, height: 390, touch: true, locale: lang === 'es' ? 'es-ES' : 'pt-BR' });
      await page.goto(`${srv.url}/#/learn/quinteto`);
      await page.waitForSelector('#learn[data-ready="true"]');
      assert.notEqual(await page.evaluate(() => document.body.dataset.view), 'name', 'no name asked');
      const cat = tutorial.strings[lang];
      assert.equal(await page.locator('#coach-text').innerText(), cat['coach.intro']);
      assert.equal((await page.locator('#learn-next').innerText()).trim(), next);
      assert.equal(await page.getAttribute('#coach-live', 'aria-live'), 'polite', 'the coach speaks in a live region');
      // Keyboard: Enter on Next, "r" rolls; then taps; Enter on Back returns a step.
      await page.focus('#learn-next');
      await page.keyboard.press('Enter');
      await page.waitForFunction(() => document.getElementById('learn').dataset.say === 'circle');
      assert.equal(await page.locator('#coach-text').innerText(), cat['coach.circle']);
      await page.keyboard.press('r');
      await page.waitForFunction(() => document.getElementById('learn').dataset.say === 'start');
      assert.equal(await page.locator('#coach-text').innerText(), cat['coach.start']);
      // On a phone on its side, a roll and a plan by taps, nothing off the screen.
      for (const say of ['capture', 'captured']) {
        const taught = await page.evaluate(() => window.quinteto.learn.lesson.taught());
        for (const sel of ['#coach-text', '#learn-back', '.learn-board .game-board']) {
          assert.ok((await boxOf(page, sel)).inView, `${lang}: ${sel} is on the 844x390 screen`);
        }
        assert.ok(await tapAction(page, taught), `${lang}: ${JSON.stringify(taught)} by taps at 844x390, 44 px targets`);
        await page.waitForFunction((x) => document.getElementById('learn').dataset.say === x, say);
      }
      assert.equal(await page.locator('#coach-text').innerText(), cat['coach.captured']);
      await page.focus('#learn-back');
      await page.keyboard.press('Enter');
      await page.waitForFunction(() => document.getElementById('learn').dataset.say === 'capture');
      if (lang === 'pt') {
        await page.screenshot({ path: path.join(dir, 'learn-landscape-pt.png') });
        await axeClean(page, 'the guided match in Portuguese');
        // Another language: the page is drawn again, the lesson at the same step.
        await page.selectOption('#lang', 'es');
        await page.waitForFunction(() => document.documentElement.lang === 'es' &&
          document.getElementById('learn')?.dataset.ready === 'true');
        assert.equal(await page.evaluate(() => document.getElementById('learn').dataset.say), 'capture');
        assert.equal(await page.locator('#coach-text').innerText(), tutorial.strings.es['coach.capture']);
      }
      noProblems(page);
      await page.context().close();
    }

    // The rules pages, without a name.
    const page = await newPlayerPage(browser(), { width: 390, height: 844, touch: true });
    for (const game of ['quinteto', 'ur', 'laquet', 'super15']) {
      await page.goto(`${srv.url}/#/rules/${game}`);
      await page.waitForSelector(`article.rules[data-game="${game}"]`);
      assert.equal(await page.evaluate(() => document.body.dataset.view), 'rules', `${game}: rules, no name asked`);
      await page.waitForSelector('#rules-example[data-ready="true"]');
      const drawn = await page.evaluate(() => {
        const fig = document.getElementById('rules-example');
        return { shapes: fig.querySelectorAll('.rules-example-board *').length, inert: fig.querySelector('.rules-example-view').inert,
          words: fig.querySelectorAll('.board-words li').length,
          after: fig.nextElementSibling?.textContent.length || 0,
          heading: fig.previousElementSibling?.tagName };
      });
      assert.ok(drawn.shapes > 20, `${game}: the worked turn's board is drawn (${drawn.shapes} elements)`);
      assert.ok(drawn.inert, `${game}: the board of the example cannot be pressed`);
      assert.ok(drawn.words > 0, `${game}: the board in words`);
      assert.equal(drawn.heading, 'H2', `${game}: the example opens a section`);
      assert.ok(drawn.after > 80, `${game}: the worked turn is walked through in words beside it`);
      assert.equal(await page.getAttribute('#rules-play', 'href'), `#/?game=${game}`);
      if (game === 'quinteto') {
        assert.ok(await page.locator('.rules li > ul > li').count() >= 4, 'the kinds of plan are a list inside the list');
        assert.doesNotMatch(await page.locator('article.rules').innerText(), /^\s*-\s/m, 'no dash drawn as text');
        assert.equal(await page.getAttribute('#rules-learn', 'href'), '#/learn/quinteto');
      }
      await page.screenshot({ path: path.join(dir, `rules-${game}-phone.png`), fullPage: true });
    }
    await axeClean(page, 'a rules page with its worked turn');
    noProblems(page);
    await page.context().close();
  });
});
