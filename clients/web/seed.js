// seed.js: the client seed this player adds to the dice when taking a seat (protocol/PROTOCOL.md,
// "Randomness"): by default a fresh random one from crypto.getRandomValues, shown before the join so
// the player can keep it or type their own. A new random one is drawn after every join.

import { h } from './dom.js';
import { t } from './i18n.js';

function randomSeed() {
  const b = new Uint8Array(12);
  crypto.getRandomValues(b);
  return [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
}

let current = randomSeed();

// The seed for the next join (1..64 printable characters, as the protocol allows).
export function clientSeed() {
  const s = [...current.trim()].slice(0, 64).join('');
  // eslint-disable-next-line no-control-regex
  return s && !/[\u0000-\u001f\u007f-\u009f]/.test(s) ? s : randomSeed();
}

// Called after a join: the next seat gets a seed of its own.
export function seedUsed() {
  current = randomSeed();
}

// The field that shows the seed and lets the player change it or draw another.
export function seedField(idPrefix) {
  const input = h(`input#${idPrefix}-seed.seed-input`, { maxLength: 64, value: current, spellcheck: false,
    autocomplete: 'off', oninput: () => { current = input.value; } });
  const again = h(`button#${idPrefix}-seed-new`, { type: 'button', onclick: () => { current = randomSeed(); input.value = current; } },
    t('seed.new'));
  return h('div.seed-field', h('label', { for: `${idPrefix}-seed` }, t('seed.label')), h('div.invite-row', input, again),
    h('p.note', t('seed.note')));
}
