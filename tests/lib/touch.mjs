// touch.mjs: the browser tests' measure of a page held in the hand. The three screens every room must
// fit (a desktop, a phone upright and on its side), the targets too small for a finger (WCAG 2.5.5:
// 44x44 CSS px), and a player's action made by tapping where a finger would, without scrolling: each
// element that clicksFor() names must already be wholly on the screen and big enough when its turn comes,
// and the tap lands at its centre (whatever is drawn on top there gets it, as on a real phone).

import assert from 'node:assert/strict';
import { isDeepStrictEqual } from 'node:util';
import { pick } from './util.mjs';

export const MIN_TARGET = 44;

// [name, width, height, touch]: the screens of the acceptance tests.
export const SCREENS = [
  ['desktop', 1280, 800, false],
  ['phone', 390, 844, true],
  ['landscape', 844, 390, true],
];

// What a finger can tap: links, form controls, summaries, buttons and the game's clickable parts.
const TAPPABLE = 'a[href], button, input:not([type="hidden"]), select, textarea, summary, [data-click], ' +
  '[role="button"], [role="link"], [role="checkbox"], [role="radio"], [role="tab"], [role="option"]';

// The visible tappable elements under `scope` (a CSS selector) smaller than MIN_TARGET in either
// direction: [{what, w, h}]. A checkbox or radio is measured with its label (the label takes the tap);
// a disabled control and what is hidden (no box, visibility hidden, inert) are not targets.
export function smallTargets(page, scope = 'main', min = MIN_TARGET) {
  return page.evaluate(({ scope, sel, min }) => {
    const out = [];
    const root = document.querySelector(scope);
    if (!root) return [{ what: `no ${scope}`, w: 0, h: 0 }];
    const seen = new Set();
    for (const el of root.querySelectorAll(sel)) {
      if (el.disabled || el.closest('[inert]') || el.closest('[aria-hidden="true"]')) continue;
      let target = el;
      if (el.matches('input[type="checkbox"], input[type="radio"]') && el.labels && el.labels.length) target = el.labels[0];
      if (seen.has(target)) continue;
      seen.add(target);
      const cs = getComputedStyle(target);
      if (cs.visibility !== 'visible' || cs.display === 'none') continue;
      let r = target.getBoundingClientRect();
      if (target !== el) { // the label and its box together
        const b = el.getBoundingClientRect();
        const x0 = Math.min(r.left, b.left); const y0 = Math.min(r.top, b.top);
        r = { width: Math.max(r.right, b.right) - x0, height: Math.max(r.bottom, b.bottom) - y0 };
      }
      if (!r.width || !r.height) continue;
      if (r.width + 0.5 >= min && r.height + 0.5 >= min) continue;
      const name = (el.getAttribute('aria-label') || el.textContent || el.getAttribute('data-click') || '').trim().slice(0, 40);
      const id = el.id ? `#${el.id}` : '';
      const click = el.dataset && el.dataset.click ? `[data-click=${el.dataset.click}]` : '';
      out.push({ what: `${el.tagName.toLowerCase()}${id}${click} "${name}"`, w: Math.round(r.width), h: Math.round(r.height) });
    }
    return out;
  }, { scope, sel: TAPPABLE, min });
}

// The box of the first visible element matching `sel` and whether it lies wholly on the screen as it is
// scrolled now: {found, x, y, w, h, inView}.
export function boxOf(page, sel) {
  return page.evaluate((sel) => {
    for (const el of document.querySelectorAll(sel)) {
      const r = el.getBoundingClientRect();
      if (!r.width || !r.height || getComputedStyle(el).visibility !== 'visible') continue;
      const inView = r.left >= -0.5 && r.top >= -0.5 && r.right <= innerWidth + 0.5 && r.bottom <= innerHeight + 0.5;
      return { found: true, x: r.left + r.width / 2, y: r.top + r.height / 2, w: r.width, h: r.height, inView };
    }
    return { found: false };
  }, sel);
}

// Makes `action` (one of the state's legal actions) by tapping what clicksFor() names, one after the
// other, never scrolling: each must appear (within `timeout`), be wholly on the screen and at least
// MIN_TARGET in both directions, and the tap goes to its centre. Checks that exactly `action` was sent.
// Returns false (nothing asserted about the action) when a state moved the view on between taps.
export async function tapAction(page, action, { timeout = 5000, min = MIN_TARGET } = {}) {
  const { clicks, before } = await page.evaluate((a) => ({ clicks: window.quinteto.clicksFor(a),
    before: window.quinteto.sent.length }), action);
  assert.ok(Array.isArray(clicks) && clicks.length, `no clicks for ${JSON.stringify(action)}`);
  const size = page.viewportSize();
  for (const sel of clicks) {
    try {
      await page.waitForFunction((s) => [...document.querySelectorAll(s)].some((el) => el.getBoundingClientRect().width > 0),
        sel, { timeout });
    } catch (e) {
      if (await page.evaluate((n) => window.quinteto.sent.length > n, before)) throw e;
      return false; // the view moved on under us
    }
    const b = await boxOf(page, sel);
    if (!b.found) return false;
    assert.ok(b.inView, `${sel} (for ${JSON.stringify(action)}) is off the ${size.width}x${size.height} screen ` +
      `at ${Math.round(b.x)},${Math.round(b.y)}: the turn needs a scroll`);
    assert.ok(b.w + 0.5 >= min && b.h + 0.5 >= min,
      `${sel} (for ${JSON.stringify(action)}) is ${Math.round(b.w)}x${Math.round(b.h)} px at ${size.width}x${size.height}`);
    await page.touchscreen.tap(b.x, b.y);
  }
  try {
    await page.waitForFunction((n) => window.quinteto.sent.length > n, before, { timeout });
  } catch (e) {
    if (await page.evaluate(() => window.quinteto.state && window.quinteto.state.legal.length)) throw e;
    return false;
  }
  const sent = await page.evaluate(() => window.quinteto.sent.at(-1));
  assert.ok(isDeepStrictEqual(sent, action), `taps ${clicks.join(' then ')} sent ${JSON.stringify(sent)}, not ${JSON.stringify(action)}`);
  return true;
}

// Plays this page's seat by random legal taps (rnd) until #result shows, at most maxMoves actions.
// Resolves {moves, kinds} (kinds: the actions' first keys).
export async function tapToResult(page, rnd, { maxMoves = 400, turnTimeout = 30000, choose } = {}) {
  const kinds = new Set();
  let moves = 0;
  for (;;) {
    assert.ok(moves < maxMoves, `more than ${maxMoves} taps without a result`);
    await page.waitForFunction(() => document.querySelector('#result') ||
      (window.quinteto.state && window.quinteto.state.legal.length && !document.querySelector('.sending')),
    null, { timeout: turnTimeout });
    if (await page.locator('#result').count()) return { moves, kinds };
    const ply = await page.evaluate(() => window.quinteto.state.ply);
    const legal = await page.evaluate(() => window.quinteto.state.legal);
    const a = choose ? choose(legal) : pick(legal, rnd);
    if (await tapAction(page, a)) {
      moves++;
      kinds.add(Object.keys(a)[0]);
      await page.waitForFunction((p) => window.quinteto.state.ply > p || !document.querySelector('.sending'), ply);
    }
  }
}
