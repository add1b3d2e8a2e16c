// web_client.test.mjs: the web client as people meet it, in Debian's Chromium against the real
// server. The whole client in Spanish, Portuguese and English from the browser's language (rules
// included), at 1366x768, 390x844 and 844x390 (screenshots kept in build-test/artifacts/), with
// axe-core run on every page (no serious or critical violation); a whole Ur match played with the
// keyboard only; the live region announcing a roll; the log, the last-move mark and the highlight;
// and the small things (Leave, chat wrapping, the opponent-disconnected notice, cacheable files); the
// game list taken from the server, a game without a web module left out.
// One server and one browser for the file; bots move after 5 ms and the dice roll themselves.

import test from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { Server, launchBrowser, newPlayerPage, artifactsDir, createRoom, noProblems, closeAll } from './lib.mjs';
import { axeViolations } from '../lib/axe.mjs';

const SIZES = [[1366, 768], [390, 844], [844, 390]];
const LANGS = [
  { lang: 'es', locale: 'es-AR', create: 'Crear sala', vsBot: 'Jugar contra la máquina', rules: /^Cómo se juega al Juego Real de Ur$/, threw: /Claras sacan [0145]/, bot: /^Bot (aleatorio|voraz|fuerte) 2$/ },
  { lang: 'pt', locale: 'pt-BR', create: 'Criar sala', vsBot: 'Jogar contra o computador', rules: /^Como se joga o Jogo Real de Ur$/, threw: /Claras tiram [0145]/, bot: /^Bot (aleatório|guloso|forte) 2$/ },
  { lang: 'en', locale: 'en-GB', create: 'Create room', vsBot: 'Play against the computer', rules: /^How to play the Royal Game of Ur$/, threw: /Light threw [0145]/, bot: /^(Random|Greedy|Strong) bot 2$/ },
];

let browser;
let srv;
test.before(async () => {
  browser = await launchBrowser();
  srv = await Server.start({ botDelayMs: 5 });
});
test.after(async () => {
  if (browser) await browser.close();
  if (srv) await srv.stop();
});

// axe-core on the page as it is now (tests/lib/axe.mjs: the pointer moved off, toasts let go or held
// opaque): no serious or critical violation.
async function axe(page, what) {
  const found = (await axeViolations(page)).filter((v) => /^\S+ \((serious|critical)\):/.test(v));
  assert.deepEqual(found, [], `axe on ${what}`);
}

async function shot(page, name) {
  await page.screenshot({ path: path.join(await artifactsDir(), `${name}.png`) });
}

// Every keyed text of the shell's (and the room's) catalogue that shows up raw on the page means a missing string.
async function noRawKeys(page, what) {
  const raw = await page.evaluate(async () => {
    const en = { ...(await import('./i18n/en.js')).default, ...(await import('./i18n/room.js')).default.en }; // the room's own too
    const text = document.body.innerText;
    // a plural written as sibling keys ("x.one", "x.other") shows as "x" when missing
    const keys = new Set(Object.keys(en).map((k) => /\{n\}/.test(en[k]) ? k.replace(/\.(zero|one|two|few|many|other)$/, '') : k));
    return [...keys].filter((k) => new RegExp(`(^|\\s)${k.replaceAll('.', '\\.')}(\\s|$)`).test(text));
  });
  assert.deepEqual(raw, [], `raw catalogue keys on ${what}`);
}

async function untilTurnOrEnd(page, timeout = 20000) {
  await page.waitForFunction(() => document.querySelector('#result') ||
    (window.quinteto.state?.legal?.length && !document.querySelector('.sending')), null, { timeout });
}

for (const L of LANGS) {
  test(`a ${L.locale} browser gets the client in ${L.lang}: lobby, rules, room at three sizes, axe clean`, { timeout: 90000 }, async () => {
    const page = await newPlayerPage(browser, { server: srv, label: L.lang, locale: L.locale, width: 1366, height: 768 });
    try {
      await page.goto(`${srv.url}/?name=Ana_${L.lang}&profile=${L.lang}#/`);
      await page.waitForSelector('#create-room');
      assert.equal(await page.evaluate(() => document.documentElement.lang), L.lang);
      assert.equal((await page.textContent('#create-room')).trim(), L.create);
      assert.equal((await page.textContent('#play-bot')).trim(), L.vsBot);
      await page.waitForFunction(() => window.quinteto && window.quinteto.connection === 'online');
      await noRawKeys(page, `lobby ${L.lang}`);
      await axe(page, `lobby ${L.lang}`);
      await shot(page, `lobby-${L.lang}-1366x768`);

      // The rules page, from the lobby's link, in the browser's language.
      await page.click('#rules-link');
      await page.waitForSelector('article.rules h1');
      assert.match((await page.textContent('article.rules h1')).trim(), L.rules);
      assert.ok(await page.locator('article.rules table td').count() >= 12, 'the dice table');
      assert.ok(await page.locator('.legend-list dd').count() >= 6, 'the legend');
      await noRawKeys(page, `rules ${L.lang}`);
      await axe(page, `rules ${L.lang}`);
      await shot(page, `rules-${L.lang}-1366x768`);
      await page.goBack();

      // One click: a room, the creator seated, a bot in the other seat, the dice rolled for us.
      await page.waitForSelector('#play-bot');
      assert.equal(await page.isChecked('#autoroll'), true, 'autoroll is ticked by default');
      await page.click('#play-bot');
      await page.waitForSelector('body[data-status="playing"][data-my-seat="0"]');
      assert.deepEqual(await page.evaluate(() => window.quinteto.state.options), { autoroll: true, clock: null, stand_in_after_ms: 30000, stand_in_level: null, idle_after_ms: 300000 });
      await page.waitForFunction(() => document.querySelectorAll('.log-move').length >= 2);
      await untilTurnOrEnd(page);
      // The bot is named in the page's language in the seats (the server says "Greedy bot 2").
      assert.match(await page.evaluate(() => window.quinteto.state.seats[1].name), /^(Random|Greedy|Strong) bot 2$/);
      assert.match((await page.locator('.seats li.seat[data-seat="1"] .name').innerText()).trim(), L.bot);
      await noRawKeys(page, `room ${L.lang}`);
      await axe(page, `room ${L.lang} 1366x768`);
      await shot(page, `room-${L.lang}-1366x768`);

      // A phone held upright: the board fills the width, every target is at least 24 px.
      await page.setViewportSize({ width: 390, height: 844 });
      await page.waitForSelector('svg.ur-board.vertical');
      const wide = await page.evaluate(() => document.querySelector('svg.ur-board').getBoundingClientRect().width);
      assert.ok(wide >= 0.9 * 390, `the board is ${wide} px wide on a 390 px phone`);
      const panelEnd = await page.evaluate(() => Math.max(...['.dice-row', '.actions button']
        .map((q) => document.querySelector(q)).filter(Boolean).map((el) => el.getBoundingClientRect().bottom + window.scrollY)));
      assert.ok(panelEnd <= 844 + 1, `the board, the dice and the first button share one screen (they end at ${panelEnd} px)`);
      const small = await page.evaluate(() => [...document.querySelectorAll('[data-click], button, select, input, summary')]
        .filter((el) => el.getClientRects().length)
        .map((el) => ({ el: el.dataset.click || el.id || el.className.baseVal || el.className || el.tagName, r: el.getBoundingClientRect() }))
        .filter(({ r }) => r.width < 24 || r.height < 24).map(({ el, r }) => `${el} ${Math.round(r.width)}x${Math.round(r.height)}`));
      assert.deepEqual(small, [], 'touch targets under 24 px');
      assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1), 'no sideways scrolling');
      await axe(page, `room ${L.lang} 390x844`);
      await shot(page, `room-${L.lang}-390x844`);

      // A phone on its side: board and controls without scrolling.
      await page.setViewportSize({ width: 844, height: 390 });
      await page.waitForFunction(() => !document.querySelector('svg.ur-board.vertical'));
      const fit = await page.evaluate(() => {
        const b = document.querySelector('svg.ur-board').getBoundingClientRect();
        const p = document.querySelector('.game-panel').getBoundingClientRect();
        return { board: b.bottom + window.scrollY, panel: p.bottom + window.scrollY, h: window.innerHeight, bh: b.height };
      });
      assert.ok(fit.board <= fit.h + 1 && fit.panel <= fit.h + 1, `board and controls fit in 390 px: ${JSON.stringify(fit)}`);
      assert.ok(fit.bh >= 240, `the board is ${fit.bh} px high on its side`);
      await shot(page, `room-${L.lang}-844x390`);

      // A seat's only possible action is announced and played for it, not waited for.
      await page.waitForFunction(() => window.quinteto && window.quinteto.announced.some((x) => /^(Only possible move|Única jugada posible|Única jogada possível): /.test(x)) &&
        window.quinteto.sent.length > 0 || document.querySelector('#result'), null, { timeout: 60000 });
      noProblems(page);
    } finally {
      await closeAll([page]);
    }
  });
}

test('the language can be switched, and server errors read as sentences', { timeout: 30000 }, async () => {
  const page = await newPlayerPage(browser, { server: srv, label: 'sw', locale: 'en-US' });
  try {
    // The first page a newcomer sees: the name form.
    await page.goto(`${srv.url}/?profile=sw#/`);
    await page.waitForSelector('#name-form h1');
    assert.equal((await page.textContent('#name-form h1')).trim(), 'Welcome to Quinteto');
    await axe(page, 'name form');
    await page.fill('#name-input', 'Sw');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#create-room');
    await page.selectOption('#lang', 'pt');
    await page.waitForFunction(() => document.documentElement.lang === 'pt');
    assert.equal((await page.textContent('#create-room')).trim(), 'Criar sala');
    // The choice is remembered over a reload.
    await page.reload();
    await page.waitForSelector('#create-room');
    assert.equal((await page.textContent('#create-room')).trim(), 'Criar sala');
    // An error code from the server becomes a sentence in the language.
    await page.evaluate(() => { location.hash = '#/room/nosuchroom'; });
    await page.waitForSelector('.room .card p');
    await page.evaluate(() => window.quinteto.app.net.request({ type: 'join', room: 'nosuchroom' }).catch(() => {}));
    // The toast itself, read even if it faded and left (4.8 s) before a loaded machine's next round trip.
    const toast = await page.waitForSelector('.toast[data-code="unknown_room"]');
    assert.equal((await toast.textContent()).trim(), 'Essa sala não existe (ou já não existe).');
    noProblems(page);
  } finally {
    await closeAll([page]);
  }
});

test('the live region announces a roll made with the R key, and is never rebuilt', { timeout: 60000 }, async () => {
  const page = await newPlayerPage(browser, { server: srv, label: 'lr', prefs: { forced: false } });
  try {
    await page.goto(`${srv.url}/?name=Lia&profile=lr#/`);
    await createRoom(page, { checks: { autoroll: false } });
    await page.click('.add-bot[data-seat="1"]');
    await page.waitForSelector('body[data-status="playing"][data-my-seat="0"]');
    // Every text the region is given is kept: a throw of 0 passes the turn, and the bot's own throw may
    // replace "Light threw 0" before a poll of the page reads it.
    await page.evaluate(() => {
      const el = document.getElementById('announcer');
      el.dataset.mark = 'first';
      window.spoken = [];
      new MutationObserver(() => window.spoken.push(el.textContent))
        .observe(el, { childList: true, characterData: true, subtree: true });
    });
    await page.waitForSelector('[data-click="roll"]');
    await page.focus('.game-board');
    const ply = await page.evaluate(() => window.quinteto.state.ply);
    await page.keyboard.press('r');
    await page.waitForFunction((p) => window.quinteto.state.ply > p, ply);
    await page.waitForFunction(() => window.spoken.some((t) => /Light threw [0145]/.test(t)));
    const live = await page.evaluate(() => {
      const el = document.getElementById('announcer');
      return { mark: el.dataset.mark, role: el.getAttribute('role'), live: el.getAttribute('aria-live'),
        count: document.querySelectorAll('[aria-live]').length };
    });
    assert.deepEqual(live, { mark: 'first', role: 'status', live: 'polite', count: 1 });
    assert.deepEqual(await page.evaluate(() => window.quinteto.sent), [{ roll: true }]);
    // The board is described in words, both sides, and that is the board region's description.
    const words = await page.evaluate(() => {
      const id = document.querySelector('.game-board').getAttribute('aria-describedby');
      return document.getElementById(id).textContent;
    });
    assert.match(words, /Light: \d waiting, 0 borne off; on the board: (none|[LMK]\d)\./);
    assert.match(words, /Dark: \d waiting, 0 borne off; on the board: (none|[LMK]\d)\./);
    assert.match(words, /Last throw: [0145] \((?:1 marked tip|[0234] marked tips) up\)\./); // one tip, two tips
    noProblems(page);
  } finally {
    await closeAll([page]);
  }
});

// Presses arrow keys (towards the wanted part, as a person would) until focus is on the game part
// whose data-click is `token`; Tab or Shift+Tab if the arrows go round in circles. False if it is
// never reached.
async function focusToken(page, token) {
  const trace = [];
  for (let i = 0; i < 80; i++) {
    const key = await page.evaluate(({ tok, tab }) => {
      const a = document.activeElement;
      if (a?.dataset?.click === tok) return null;
      const want = document.querySelector(`[data-click="${CSS.escape(tok)}"]`);
      if (!want || !a || !a.dataset?.click) return 'ArrowRight';
      // eslint-disable-next-line no-bitwise
      if (tab) return a.compareDocumentPosition(want) & Node.DOCUMENT_POSITION_FOLLOWING ? 'Tab' : 'Shift+Tab';
      const r1 = a.getBoundingClientRect();
      const r2 = want.getBoundingClientRect();
      const dx = (r2.left + r2.width / 2) - (r1.left + r1.width / 2);
      const dy = (r2.top + r2.height / 2) - (r1.top + r1.height / 2);
      if (Math.abs(dx) >= Math.abs(dy)) return dx > 0 ? 'ArrowRight' : 'ArrowLeft';
      return dy > 0 ? 'ArrowDown' : 'ArrowUp';
    }, { tok: token, tab: i >= 20 });
    if (key === null) return true;
    trace.push(`${await page.evaluate(() => document.activeElement?.dataset?.click || document.activeElement?.tagName)} ${key}`);
    await page.keyboard.press(key);
  }
  const items = await page.evaluate(() => [...document.querySelectorAll('.game-column [data-click]')].map((e) => {
    const r = e.getBoundingClientRect();
    return `${e.dataset.click}@${Math.round(r.x)},${Math.round(r.y)}`;
  }));
  throw new Error(`cannot reach ${token} by keys: ${trace.slice(0, 12).join(', ')}; parts: ${items.join(' ')}; page: ${page.problems.join('; ')}`);
}

test('a whole match played with the keyboard only, focus always on the board', { timeout: 240000 }, async (t) => {
  const page = await newPlayerPage(browser, { server: srv, label: 'kb', reducedMotion: true, prefs: { forced: false } });
  try {
    await page.goto(`${srv.url}/?name=Kai&profile=kb#/`);
    // Reach "Play against the computer" with Tab alone.
    await page.waitForSelector('#play-bot');
    await page.waitForFunction(() => window.quinteto && window.quinteto.connection === 'online');
    for (let i = 0; i < 40 && !(await page.evaluate(() => document.activeElement?.id === 'play-bot')); i++) await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.waitForSelector('body[data-status="playing"][data-my-seat="0"]');
    await page.focus('.game-board'); // where a screen reader user lands: the board
    let moves = 0;
    const deadline = Date.now() + 200000;
    for (;;) {
      assert.ok(Date.now() < deadline, `no result after ${moves} moves`);
      await untilTurnOrEnd(page, 30000);
      if (await page.locator('#result').count()) break;
      const inBoard = await page.evaluate(() => document.querySelector('.game-column').contains(document.activeElement));
      assert.ok(inBoard, `focus left the board after ${moves} moves`);
      const { legal, ply } = await page.evaluate(() => ({ legal: window.quinteto.state.legal, ply: window.quinteto.state.ply }));
      // A purposeful player (bear off, else the most advanced piece, else enter), so the match is short.
      const score = (x) => (x.bear_off ? 100 : 'move' in x ? x.move : 'enter' in x ? 0.5 : x.skip ? 0.1 : 1);
      const a = [...legal].sort((x, y) => score(y) - score(x))[0];
      if (a.roll) await page.keyboard.press('r');
      else if ('move' in a) {
        assert.ok(await focusToken(page, `piece:${a.move}`), `arrows reach piece ${a.move}`);
        await page.keyboard.press('Enter');
        await page.waitForSelector('[data-click="target"]');
        assert.ok(await focusToken(page, 'target'), 'arrows reach the target');
        await page.keyboard.press('Enter');
      } else {
        const tok = 'enter' in a ? `enter:${a.enter}` : a.bear_off ? 'bear_off' : 'skip';
        assert.ok(await focusToken(page, tok), `arrows reach ${tok}`);
        await page.keyboard.press('Enter');
      }
      await page.waitForFunction((p) => window.quinteto.state.ply > p || document.querySelector('#result'), ply);
      moves++;
    }
    const result = (await page.textContent('#result')).trim();
    t.diagnostic(`${moves} actions by keyboard, ${result}`);
    assert.match(result, /^(Light|Dark) wins — all seven pieces borne off$/);
    assert.ok(moves >= 10);
    // The last move (the winning bear-off from M1) is marked on the board.
    assert.equal(await page.locator('svg.ur-board .last-from[x]').count(), 1, 'the last move is marked');
    // Every action of the match is in the log, bots' steps included, and one click highlights it.
    const log = await page.evaluate(() => {
      const st = window.quinteto.state;
      const plies = window.quinteto.app.logs.get(st.room).filter((e) => e.kind === 'action').map((e) => e.ply);
      const shown = [...document.querySelectorAll('.log-move')].map((b) => Number(b.dataset.ply)).reverse(); // newest first
      return { ply: st.ply, plies, shown };
    });
    assert.deepEqual(log.plies, Array.from({ length: log.ply }, (_, i) => i + 1), 'one log entry per action, in order');
    assert.deepEqual(log.shown, log.plies.slice(-log.shown.length), 'the log shows the latest entries');
    assert.ok(log.shown.length >= Math.min(log.ply, 250), `the log shows ${log.shown.length} entries`);
    const move = page.locator('.log-move', { hasText: /[LMK]\d → [LMK]\d/ }).last();
    await move.click();
    await page.waitForSelector('svg.ur-board .hl-to', { state: 'attached' });
    assert.equal(await page.locator('svg.ur-board .hl-from').count(), 1);
    assert.equal(await move.getAttribute('aria-pressed'), 'true');
    await axe(page, 'finished room');
    await shot(page, 'ur-keyboard-finished');
    noProblems(page);
  } finally {
    await closeAll([page]);
  }
});

test('the small things: the invite link, Leave keeps the seat, chat wraps, a lost opponent is said, hover contrast', { timeout: 60000 }, async () => {
  const a = await newPlayerPage(browser, { server: srv, label: 'st-a', prefs: { forced: false } });
  const b = await newPlayerPage(browser, { server: srv, label: 'st-b', prefs: { forced: false } });
  try {
    await a.goto(`${srv.url}/?name=Ada&profile=st#/`);
    const room = await createRoom(a, { checks: { autoroll: true } });
    // The invite link opens the room for someone else, who takes the free seat.
    const invite = await a.inputValue('#invite-url');
    assert.match(invite, new RegExp(`#/room/${room}$`));
    await b.goto(invite.replace('#/', `?name=Bo&profile=st2#/`));
    await b.click('.take-seat[data-seat="1"]');
    await a.waitForSelector('body[data-status="playing"]');
    await a.waitForFunction(() => window.quinteto && window.quinteto.state.ply >= 2 && window.quinteto.state.last && !window.quinteto.state.last.action.roll ||
      document.querySelectorAll('.log-move').length >= 1);

    // A 500-character word in the chat does not widen the page.
    await a.fill('#chat-input', 'x'.repeat(500));
    await a.press('#chat-input', 'Enter');
    await b.waitForFunction(() => document.querySelectorAll('.chat-list li').length >= 1);
    for (const p of [a, b]) assert.ok(await p.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1), 'chat wraps');

    // Leave during the match: back in the lobby, and the room opened again is still ours.
    await b.click('button.leave');
    await b.waitForSelector('body[data-view="lobby"]');
    await b.goto(invite.replace('#/', `?name=Bo&profile=st2#/`));
    await b.waitForSelector('body[data-my-seat="1"]');
    assert.equal(await b.locator('.watching-note').count(), 0, 'not "watching" with a seat');

    // B closes its tab: A is told in words.
    await b.close();
    await a.waitForSelector('#notice-disconnected', { timeout: 15000 });
    assert.match(await a.textContent('#notice-disconnected'), /Bo \(Dark\)/);
    await axe(a, 'room with the notice');

    // The take-seat button keeps its contrast when hovered (white text on carnelian, not on cream).
    const c = await newPlayerPage(browser, { server: srv, label: 'st-c', reducedMotion: true });
    try {
      await c.goto(`${srv.url}/?name=Cy&profile=st3#/`);
      await createRoom(c);
      await c.click('button.leave');
      await c.waitForSelector('body[data-view="lobby"]');
      await c.evaluate(() => history.back());
      await c.waitForSelector('.take-seat[data-seat="0"]');
      await c.hover('.take-seat[data-seat="0"]');
      const bg = await c.evaluate(() => getComputedStyle(document.querySelector('.take-seat[data-seat="0"]')).backgroundColor);
      assert.equal(bg, 'rgb(156, 58, 34)');
      await axe(c, 'waiting room, watched');
      noProblems(c);
    } finally {
      await closeAll([c]);
    }
    noProblems(a);
  } finally {
    await closeAll([a, b]);
  }
});

test('the static files are cacheable and revalidate cheaply', { timeout: 15000 }, async () => {
  const r = await srv.http('/app.js');
  assert.equal(r.status, 200);
  const cc = r.headers.get('cache-control') || '';
  const etag = r.headers.get('etag');
  assert.doesNotMatch(cc, /no-store/, `cache-control: ${cc}`);
  assert.ok(etag, 'an ETag to revalidate with');
  const again = await fetch(`${srv.url}/app.js`, { headers: { 'if-none-match': etag } });
  assert.equal(again.status, 304);
});

// The lobby offers the server's games (GET /api/games), in its order, each drawn by its own module; a
// game the server lists that the client has no module for is left out with a warning, and the rest work.
test('the game list is the server\'s; a game without a web module is left out with a warning', { timeout: 30000 }, async () => {
  const { games } = await srv.getJson('/api/games');
  const page = await newPlayerPage(browser, { server: srv, label: 'gl' });
  const warnings = [];
  page.on('console', (m) => { if (m.type() === 'warning') warnings.push(m.text()); });
  try {
    await page.goto(`${srv.url}/?name=Gil&profile=gl#/`);
    await page.waitForSelector('#create-room');
    assert.deepEqual(await page.$$eval('#new-game option', (os) => os.map((o) => o.value)), games);
    assert.deepEqual(warnings, []);
    await page.route('**/api/games', (route) => route.fulfill({ status: 200, contentType: 'application/json',
      body: JSON.stringify({ games: [...games, 'nosuchgame'] }) }));
    await page.reload();
    await page.waitForSelector('#create-room');
    assert.deepEqual(await page.$$eval('#new-game option', (os) => os.map((o) => o.value)), games);
    assert.ok(warnings.some((w) => /nosuchgame/.test(w)), `a warning names the game left out: ${warnings.join(' | ')}`);
    await createRoom(page, { game: games.at(-1) });
    page.problems = page.problems.filter((p) => !/status of 404/.test(p)); // the module it looked for
    noProblems(page);
  } finally {
    await page.unroute('**/api/games').catch(() => {});
    await closeAll([page]);
  }
});
