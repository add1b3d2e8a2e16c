// ur.js: the Royal Game of Ur as a game module of the web client (the contract is in
// ../registry.js). The board (board.js) goes in ctx.board; the dice and the action buttons in
// ctx.panel; whose turn it is and the last outcome in ctx.side.
//
// A move is made in two clicks: a glowing piece ("piece:<square>") selects it and shows where it
// lands, the target ("target") moves it. The selection belongs to this view, not to the state: it
// survives any state that leaves the move legal at the same ply (a seat reconnecting, a watcher),
// and is dropped when the ply moves on. Rolling, entering, bearing off and skipping take one click.

import { h, s, clear } from '../../dom.js';
import { loadCss, capitalize, clickable, clickSelector } from '../common.js';
import { createBoard, ROLES, COLOUR } from './board.js';

loadCss(new URL('./ur.css', import.meta.url));

// --- words -----------------------------------------------------------------------------------------

function countOf(v) {
  if (Array.isArray(v)) return v.length;
  if (typeof v === 'number') return v;
  return v === true ? 1 : 0;
}

function actionWords(who, a, o, state) {
  if (a.roll) {
    const value = o.value ?? state.view?.value;
    return [`${who} threw ${value ?? '?'}${o.lost ? ' — lost' : ''}`, o.again ? 'throws again' : null];
  }
  if ('move' in a) return [`${who} moved ${a.move} → ${a.move + (state.view?.value ?? 0)}`];
  if ('enter' in a) return [`${who} entered a piece on ${a.enter}`];
  if (a.bear_off) return [countOf(o.borne_off) ? `${who} bore off ${countOf(o.borne_off)}` : `${who} bore off`];
  if (a.skip) return [`${who} skipped the bonus`];
  return [`${who}: ${JSON.stringify(a)}`];
}

// The last outcome in words, e.g. "Dark threw 0 — lost", "Light moved 5 → 9, captured 1".
function describeLast(state) {
  const last = state && state.last;
  if (!last) return state && state.status === 'playing' ? 'Light throws first.' : '';
  const who = COLOUR[last.seat] ?? `Seat ${last.seat}`;
  const a = last.action || {};
  const o = last.outcome && typeof last.outcome === 'object' ? last.outcome : {};
  const parts = actionWords(who, a, o, state);
  const cap = countOf(o.captured);
  if (cap) parts.push(`captured ${cap}`);
  if (o.won) parts.push('and wins');
  if (!a.roll && o.bonus) parts.push('rosette!');
  return parts.filter(Boolean).join(', ');
}

const REASONS = { race: 'all seven borne off', resign: 'the other side resigned', forfeit: 'the other side forfeited' };

function describeResult(state) {
  const r = state && state.result;
  if (!r) return { text: '', winners: [] };
  if (r.winner === null || r.winner === undefined) return { text: 'Draw', winners: [] };
  const reason = r.reason ? ` — ${r.reason}` : '';
  return {
    text: `${COLOUR[r.winner] ?? `Seat ${r.winner}`} wins${reason}`,
    detail: REASONS[r.reason] || '',
    winners: [r.winner],
  };
}

// --- options -------------------------------------------------------------------------------------

function optionsForm() {
  const autoroll = h('input#autoroll', { type: 'checkbox', name: 'autoroll' });
  const el = h('div.options',
    h('label.check', autoroll, ' Roll automatically when rolling is the only choice (autoroll)'));
  return { el, value: () => ({ autoroll: autoroll.checked }) };
}

function describeOptions(options) {
  return options && options.autoroll ? ['autoroll'] : [];
}

// --- the panel: dice and buttons -------------------------------------------------------------------

function die(marked, i) {
  const svg = s('svg', { viewBox: '0 0 40 36', class: ['die', marked ? 'marked' : 'unmarked'], role: 'img',
    'aria-label': `die ${i + 1}: ${marked ? 'marked' : 'unmarked'} tip up` });
  svg.append(s('path', { d: 'M20 2 L38 34 L2 34 Z', class: 'die-face' }),
    s('path', { d: 'M20 2 L20 24 L38 34 M20 24 L2 34', class: 'die-edge' }),
    s('circle', { cx: 20, cy: 7, r: 3.6, class: 'die-tip' }));
  return svg;
}

function drawDice(box, view) {
  const dice = h('div.dice', { 'aria-live': 'polite' });
  if (Array.isArray(view.dice)) view.dice.forEach((m, i) => dice.append(die(m, i)));
  else for (let i = 0; i < 3; i++) dice.append(h('span.die-blank', { 'aria-hidden': 'true' }));
  const value = h('div.dice-value', { 'data-value': view.value ?? '' },
    h('span.num', view.value ?? '–'),
    view.again ? h('span.again', { title: 'this throw earns another' }, 'again') : null,
    view.bonus ? h('span.bonus', { title: 'rosette bonus: enter one more on square 1 or skip' }, 'rosette bonus') : null);
  box.append(h('div.dice-row', dice, value));
}

// One button per one-click action; the board's badges do the same for entering and bearing off.
function drawButtons(box, legal, act) {
  const buttons = h('div.actions', { role: 'group', 'aria-label': 'Your actions' });
  const btn = (a, token, text, label, cls) => {
    const attrs = clickable(token, label, () => act(a));
    delete attrs.role; delete attrs.tabindex; delete attrs.onkeydown;
    return h('button', { ...attrs, type: 'button', class: ['legal', cls] }, text);
  };
  for (const a of legal) if (a && a.roll) buttons.append(btn(a, 'roll', 'Roll the dice', 'Roll the dice', 'primary roll'));
  for (const a of legal) {
    if (a && 'enter' in a) buttons.append(btn(a, `button-enter:${a.enter}`, `Enter on ${a.enter}`, `Enter a piece on square ${a.enter}`, 'enter'));
  }
  for (const a of legal) if (a && a.bear_off) buttons.append(btn(a, 'button-bear_off', 'Bear off', 'Bear off the pieces on square 23', 'bear'));
  for (const a of legal) if (a && a.skip) buttons.append(btn(a, 'skip', 'Skip bonus', 'Skip the rosette bonus', 'skip'));
  if (legal.some((a) => a && 'move' in a)) buttons.append(h('p.hint', 'Click a glowing piece, then where it lands.'));
  box.append(buttons);
}

function turnText(state, viewerSeat) {
  const toAct = state.to_act || [];
  if (state.status === 'waiting') return 'Waiting for players';
  if (state.status === 'finished') return 'Game over';
  if (!toAct.length) return '';
  return toAct.includes(viewerSeat) ? `Your turn (${COLOUR[toAct[0]]})` : `${COLOUR[toAct[0]]} to play`;
}

// --- the view ----------------------------------------------------------------------------------------

function createView(ctx) {
  let state = null;
  let selected = null; // {ply, square}: a piece chosen, its move not yet sent
  const render = () => {
    const legal = Array.isArray(state.legal) ? state.legal : [];
    const canMove = (sq) => legal.some((a) => a && a.move === sq);
    if (selected && (selected.ply !== state.ply || !canMove(selected.square))) selected = null;
    const viewerSeat = ctx.mySeat();
    board.render({ state, viewerSeat, legal, selected: selected && selected.square });
    clear(ctx.panel);
    const box = h('div.ur-side');
    drawDice(box, state.view || {});
    drawButtons(box, legal, ctx.act);
    ctx.panel.append(box);
    const toAct = state.to_act || [];
    clear(ctx.side).append(h('div.card.ur-turn',
      h('div.turn', { id: 'turn', class: toAct.length ? `turn-${ROLES[toAct[0]]}` : '' }, turnText(state, viewerSeat)),
      h('div.last', { id: 'last-outcome' }, describeLast(state))));
  };
  const board = createBoard({
    select(square) {
      selected = square === null ? null : { ply: state.ply, square };
      render();
    },
    act(action) {
      selected = null;
      ctx.act(action);
    },
  });
  ctx.board.append(h('div.ur-board-wrap', board.el));
  return {
    update(st) { state = st; render(); },
    destroy() { selected = null; },
  };
}

// --- the browser-test contract ---------------------------------------------------------------------

function clicksFor(action) {
  if (!action || typeof action !== 'object') return null;
  if (action.roll) return [clickSelector('roll')];
  if ('enter' in action) return [clickSelector(`enter:${action.enter}`)];
  if ('move' in action) return [clickSelector(`piece:${action.move}`), clickSelector('target')];
  if (action.bear_off) return [clickSelector('bear_off')];
  if (action.skip) return [clickSelector('skip')];
  return null;
}

export default {
  id: 'ur',
  label: 'Royal Game of Ur',
  roles: ROLES,
  roleLabel: capitalize,
  optionsForm,
  describeOptions,
  createView,
  describeLast,
  describeResult,
  clicksFor,
};
