// clock.js: the room options every game has (protocol.md, Clocks and absent players) as the web
// client shows and asks for them: the clock's tag beside a room, the create form's clock fields,
// and a seat's live clock. A seat's clock is drawn from `state.seats[i].clock` alone
// ({remaining_ms, running_since}): it counts down locally, the server sends nothing while it runs.
// The pure functions (no DOM) are exported for the tests.

import { h } from './dom.js';
import { t, fmtNumber } from './i18n.js';

export const SHARED_OPTIONS = ['clock', 'stand_in_after_ms', 'stand_in_level', 'idle_after_ms'];

// The game's own options: `options` without the keys every game has.
export function gameOptions(options) {
  const out = {};
  for (const [k, v] of Object.entries(options || {})) if (!SHARED_OPTIONS.includes(k)) out[k] = v;
  return out;
}

// The time left of a seat's clock at `now` (ms, never below 0); null when the seat has none.
export function clockLeft(clock, now = Date.now()) {
  if (!clock) return null;
  const left = clock.running_since == null ? clock.remaining_ms : clock.remaining_ms - (now - clock.running_since);
  return Math.max(0, left);
}

// "m:ss", or "s.t" under ten seconds (when every tenth counts), the tenths after the language's decimal
// sign ("9,5" in Spanish and Portuguese: a screen reader says "nueve coma cinco", not "punto").
export function fmtClock(ms) {
  if (ms < 10000) return fmtNumber(Math.floor(ms / 100) / 10, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  const s = Math.ceil(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

// A seat's clock is low under a quarter of the allowance, and never above ten seconds.
export function lowAt(clockOption) {
  const full = clockOption ? clockOption.per_action_ms || clockOption.bank_ms || 0 : 0;
  return Math.min(10000, full / 4);
}

const secs = (ms) => Math.round(ms / 100) / 10;

// The clock option in words (a room's tag); null when the room has none.
export function clockTag(options) {
  const c = options && options.clock;
  if (!c) return null;
  if (c.per_action_ms) return t('clock.tagPerAction', { s: secs(c.per_action_ms) });
  return t('clock.tagBank', { min: Math.round(c.bank_ms / 6000) / 10, s: secs(c.increment_ms || 0) });
}

// A duration in words for the room's lines: "5 min", "90 s".
export function fmtDuration(ms) {
  return ms >= 60000 && ms % 60000 === 0 ? `${ms / 60000} min` : `${secs(ms)} s`;
}

// The idle limit that applies (`state.options.idle_after_ms`, issue 19) as the room's short line;
// null when the room has none (0, or a clock: then the clock is the limit).
export function idleLine(options) {
  const ms = options && options.idle_after_ms;
  return ms > 0 ? t('idle.line', { time: fmtDuration(ms) }) : null;
}

// The create form's clock fields: none, a time per action, or a bank with an increment.
export function clockFields() {
  const kind = h('select#clock-kind', { name: 'clock' },
    h('option', { value: 'none' }, t('clock.none')),
    h('option', { value: 'per_action' }, t('clock.perAction')),
    h('option', { value: 'bank' }, t('clock.bank')));
  const per = h('input#clock-per-action', { type: 'number', min: '1', max: '86400', step: '1', value: '30' });
  const bank = h('input#clock-bank', { type: 'number', min: '1', max: '1440', step: '1', value: '10' });
  const inc = h('input#clock-increment', { type: 'number', min: '0', max: '3600', step: '1', value: '5' });
  const perRow = h('div.clock-row', h('label', { for: 'clock-per-action' }, t('clock.perActionSeconds')), per);
  const bankRow = h('div.clock-row', h('label', { for: 'clock-bank' }, t('clock.bankMinutes')), bank,
    h('label', { for: 'clock-increment' }, t('clock.incrementSeconds')), inc);
  const show = () => { perRow.hidden = kind.value !== 'per_action'; bankRow.hidden = kind.value !== 'bank'; };
  kind.addEventListener('change', show);
  show();
  const num = (el, lo, hi) => Math.min(hi, Math.max(lo, Number(el.value) || lo));
  return {
    el: h('div.clock-fields', h('label', { for: 'clock-kind' }, t('clock.label')), kind, perRow, bankRow),
    value() {
      if (kind.value === 'per_action') return { per_action_ms: Math.round(num(per, 0.1, 86400) * 1000) };
      if (kind.value === 'bank') {
        return { bank_ms: Math.round(num(bank, 0.01, 1440) * 60000), increment_ms: Math.round(num(inc, 0, 3600) * 1000) };
      }
      return null;
    },
  };
}
