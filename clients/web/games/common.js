// common.js: helpers every game module may use: its stylesheet, action equality, and the
// clickable-element contract that the browser tests drive (see base.js).
//
// A clickable part of a game view carries class `legal`, data-click = a token the game chooses
// (e.g. "roll", "piece:5", "target"), a role and a key handler, so it works from the keyboard too.
// Nothing here sends anything: the callback given to clickable() does.

import { h } from '../dom.js';

// Adds the module's stylesheet once (a <link>, allowed by the strict CSP; no inline styles).
export function loadCss(url) {
  const href = String(url);
  if ([...document.styleSheets].some((s) => s.href === href)) return;
  if (document.querySelector(`link[data-game-css="${CSS.escape(href)}"]`)) return;
  const link = document.createElement('link');
  link.rel = 'stylesheet';
  link.href = href;
  link.dataset.gameCss = href;
  document.head.append(link);
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
