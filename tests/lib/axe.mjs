// axe.mjs: axe-core (tests/node_modules, installed by deploy/dev.sh) run on a browser page as it is now.
// The bar is every violation, whatever its impact: axeViolations() lists them all, axeClean()
// asserts there are none.

import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const AXE = await readFile(require.resolve('axe-core/axe.min.js'), 'utf8');

// The violations on the page: ["id (impact): target | target"]. The pointer is moved off every control
// and the buttons' colour transitions (.15 s) are let finish first: axe reads the colours a person sees.
export async function axeViolations(page) {
  if (!(await page.evaluate(() => typeof window.axe === 'object'))) await page.evaluate(AXE);
  await page.mouse.move(0, 0).catch(() => {});
  await page.waitForTimeout(300);
  // A toast fading out (.5 s, then removed) is half transparent for a moment: axe would measure its
  // contrast mid-fade (seen once on the account page). It is let go first, as a person sees it go.
  await page.waitForFunction(() => !document.querySelector('.toast.fade'), null, { timeout: 3000 }).catch(() => {});
  // A toast still shown may start its fade during the run (it fades 4.2 s after it came; a run takes a second
  // or more on a loaded machine): each is held opaque until axe is done, as it was when the run began. (Its
  // inline style, through the CSSOM: the server's CSP refuses a <style> element.) And a button whose state
  // changes during the run (a bot moved, the match went on) has no colour transition for axe to read
  // half-way: reduced motion is emulated for the run (style.css turns every transition off then), and the
  // page's own setting given back after.
  const reduced = await page.evaluate(() => matchMedia('(prefers-reduced-motion: reduce)').matches);
  if (!reduced) await page.emulateMedia({ reducedMotion: 'reduce' });
  try {
    return await run(page);
  } finally {
    if (!reduced) await page.emulateMedia({ reducedMotion: 'no-preference' }).catch(() => {});
  }
}

// axe-core's run over the whole page, the toasts shown held opaque (above).
function run(page) {
  return page.evaluate(async () => {
    const held = [...document.querySelectorAll('.toast')];
    for (const el of held) { el.style.setProperty('opacity', '1', 'important'); el.style.setProperty('transition', 'none', 'important'); }
    try {
      const r = await window.axe.run(document, { resultTypes: ['violations'] });
      return r.violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
    } finally {
      for (const el of held) { el.style.removeProperty('opacity'); el.style.removeProperty('transition'); }
    }
  });
}

// Asserts axe finds no violation at all on the page (`what` names it in the failure).
export async function axeClean(page, what) {
  assert.deepEqual(await axeViolations(page), [], `axe on ${what}`);
}
