// common.js: helpers every game module may use: its stylesheet, action equality, and the
// clickable-element contract that the browser tests drive (see base.js).
//
// A clickable part of a game view carries class `legal`, data-click = a token the game chooses
// (e.g. "roll", "piece:5", "target"), a role and a key handler, so it works from the keyboard too.
// Nothing here sends anything: the callback given to clickable() does.

import { h } from '../dom.js';

// Adds the module's stylesheet once (a <link>, allowed by the strict CSP; no inline styles). Returns a
// promise that resolves once it has loaded (or failed to): what depends on the game's layout waits for it.
export function loadCss(url) {
  const href = String(url);
  const loaded = (link) => new Promise((ok) => {
    link.addEventListener('load', () => ok(), { once: true });
    link.addEventListener('error', () => ok(), { once: true });
  });
  if ([...document.styleSheets].some((s) => s.href === href)) return Promise.resolve();
  const there = document.querySelector(`link[data-game-css="${CSS.escape(href)}"]`);
  if (there) return there.sheet ? Promise.resolve() : loaded(there);
  const link = document.createElement('link');
  link.rel = 'stylesheet';
  link.href = href;
  link.dataset.gameCss = href;
  const done = loaded(link);
  document.head.append(link);
  return done;
}

export function capitalize(word) {
  return word ? word[0].toUpperCase() + word.slice(1) : '';
}

// Key-order-insensitive equality of two actions (JSON values), as the server compares them.
export function sameAction(a, b) {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => Object.hasOwn(b, k) && sameAction(a[k], b[k]));
}

// The selector of the element whose data-click is `token`.
export function clickSelector(token) {
  return `[data-click="${CSS.escape(token)}"]`;
}

// Attributes (for dom.js h()/s()) of a clickable element: token, label, fire() on click or key.
export function clickable(token, label, fire) {
  const go = (ev) => { ev.preventDefault(); ev.stopPropagation(); fire(); };
  return {
    'data-click': token,
    class: 'legal',
    role: 'button',
    tabindex: '0',
    'aria-label': label,
    onclick: go,
    onkeydown: (ev) => { if (ev.key === 'Enter' || ev.key === ' ') go(ev); },
  };
}

// A <button> that is a clickable part (token as in clickable()): a real button needs no role, tabindex
// or key handler, and its text is its label. `keys` is its aria-keyshortcuts, if any.
export function actionButton(token, text, fire, cls, keys) {
  const attrs = clickable(token, null, fire);
  return h('button', { 'data-click': attrs['data-click'], class: ['legal', cls], onclick: attrs.onclick, type: 'button',
    'aria-keyshortcuts': keys }, text);
}

// Default short texts of a room's options: every option that is not false, 0 or empty.
export function describeOptionsDefault(options) {
  const out = [];
  for (const [k, v] of Object.entries(options || {})) {
    if (v === true) out.push(k);
    else if (v !== false && v !== null && v !== 0 && v !== '') out.push(`${k} ${v}`);
  }
  return out;
}

// Scrolls the page at once (no smooth scrolling: the board must be still under a finger) so that a game's
// board and the panel under or beside it (`els`, the board first) are wholly on the screen when they fit in it
// but are not: a phone on its side, where the board takes the screen's height under the page's header, or a
// page scrolled down to the chat when a turn begins. When they do not fit together the board's top goes to
// the top of the screen. Nothing when they are in view already, or while a text field has focus (a person
// writing in the chat keeps the page where it is). The game views call it when one of their
// seat's turns begins (through bringIntoViewSoon), so that no turn needs a scroll.
export function bringIntoView(...els) {
  if (typeof window === 'undefined') return;
  // Not from under someone typing (the chat): the page stays where they write.
  const typing = document.activeElement;
  if (typing && (typing.tagName === 'TEXTAREA' || typing.isContentEditable ||
    (typing.tagName === 'INPUT' && /^(text|search|email|url|tel|password|number)$/.test(typing.type)))) return;
  const rects = els.filter((e) => e && e.isConnected).map((e) => e.getBoundingClientRect()).filter((r) => r.height > 0);
  if (!rects.length) return;
  const top = Math.min(...rects.map((r) => r.top));
  const bottom = Math.max(...rects.map((r) => r.bottom));
  const vh = window.innerHeight;
  if (top >= -0.5 && bottom <= vh + 0.5) return;
  let by;
  if (bottom - top <= vh) by = top < 0 ? top : bottom - vh;
  else if (rects[0].height <= vh) by = rects[0].top;
  else return;
  window.scrollBy({ top: by > 0 ? Math.ceil(by) : Math.floor(by), behavior: 'instant' });
}

// bringIntoView(...els) once the shell has drawn the rest of the room for the state being drawn (a microtask:
// it runs before any other event and before the page is painted; the room's head and banners above the board
// are drawn after the game), and again once the game's stylesheet (`ready`, from loadCss()) has loaded.
export function bringIntoViewSoon(els, ready = Promise.resolve()) {
  queueMicrotask(() => bringIntoView(...els));
  ready.then(() => bringIntoView(...els));
}
