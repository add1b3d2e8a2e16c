// ur.js: the Royal Game of Ur as a game module of the web client (built on ../base.js, where the
// contract is). The board (board.js) goes in ctx.board; the dice and the action buttons in
// ctx.panel; whose turn it is and the last outcome in ctx.side. Its words are in strings.js (three
// languages), its rules page in rules.js.
//
// A move is made in two clicks: a glowing piece ("piece:<square>": a tap anywhere on its cell) selects it
// and shows where it lands, the target ("target", the whole landing cell) moves it. Where two stacks of the
// actor that can move share a cell, each has its half of the cell with a mouse; on a touch screen the cell is
// one target, a tap selecting one and the next tap the other (board.js). The selection belongs to this view, not to the state: it
// survives any state that leaves the move legal at the same ply (a seat reconnecting, a watcher),
// and is dropped when the ply moves on. Rolling, entering, bearing off and skipping take one click.
// Where a selected (or focused) piece lands, and whom it captures, comes from the local rules (ctx.preview:
// the move applied to the state's position by the same C as the server's), before anything is sent.
// Everything people read names cells as the board does (L4, M1), never route numbers.

import { h, s, clear } from '../../dom.js';
import { translator } from '../../i18n.js';
import { loadCss, actionButton, clickSelector, bringIntoViewSoon } from '../common.js';
import { defineGame, turnCard } from '../base.js';
import { createBoard, moveCells, cellOf, nextInCell, COARSE, ROLES } from './board.js';
import strings from './strings.js';
import rules from './rules.js';

const styled = loadCss(new URL('./ur.css', import.meta.url));

const t = translator(strings);
const role = (seat) => t(`role.${ROLES[seat]}`);

// --- words -----------------------------------------------------------------------------------------

function countOf(v) {
  if (Array.isArray(v)) return v.length;
  if (typeof v === 'number') return v;
  return v === true ? 1 : 0;
}

// A log entry (core.js roomLog, kind 'action') in the board's notation, e.g. "Light K4 → M1, captures 1".
function notation(e) {
  const who = role(e.seat);
  const a = e.action || {};
  const o = e.outcome && typeof e.outcome === 'object' ? e.outcome : {};
  const value = e.view?.value;
  const parts = [];
  if (a.roll) {
    parts.push(t('n.roll', { who, value: o.value ?? value ?? '?' }));
    if (o.lost) parts.push(t('n.lost'));
    if (o.again) parts.push(t('n.again'));
    return parts.join(', ');
  }
  const cells = moveCells(e.seat, a, value);
  if ('enter' in a) parts.push(t('n.enter', { who, to: cells.to }));
  else if ('move' in a) parts.push(t('n.move', { who, from: cells.from, to: cells.to }));
  else if (a.bear_off) {
    parts.push(t('n.bear', { who, from: cells.from }));
    const n = countOf(o.borne_off);
    if (n) parts.push(t('n.borne', { n }));
  } else if (a.skip) parts.push(t('n.skip', { who }));
  else parts.push(`${who} ${JSON.stringify(a)}`);
  const cap = countOf(o.captured);
  if (cap) parts.push(t('n.capture', { n: cap }));
  if (o.bonus) parts.push(t('n.rosette'));
  if (o.won) parts.push(t('n.won'));
  return parts.join(', ');
}

// Every piece of both sides, what waits and what is home, the dice and whose turn: for screen readers.
function describeBoard(state) {
  const view = state.view || {};
  const lines = [];
  (view.pieces || []).forEach((list, seat) => {
    const on = list.filter((p) => p >= 1 && p <= 23)
      .map((p) => t(p >= 14 ? 'words.pieceBack' : 'words.piece', { cell: cellOf(seat, p) }));
    lines.push(t('words.side', { role: role(seat), waiting: list.filter((p) => p === 0).length,
      off: list.filter((p) => p >= 24).length, list: on.length ? on.join(', ') : t('words.none') }));
  });
  if (Array.isArray(view.dice)) lines.push(t('words.dice', { value: view.value, n: view.dice.filter(Boolean).length }));
  else lines.push(t('words.noDice'));
  if (view.bonus) lines.push(t('words.bonus'));
  const toAct = state.status === 'playing' ? state.to_act || [] : [];
  if (toAct.length) lines.push(t('words.turn', { role: role(toAct[0]) }));
  return lines;
}

// --- the legend ----------------------------------------------------------------------------------

function miniSvg(children, viewBox = '0 0 40 36') {
  return s('svg', { viewBox, class: ['legend-svg', 'ur-mark'], 'aria-hidden': 'true', focusable: 'false' }, ...children);
}

function die(marked) {
  return s('svg', { viewBox: '0 0 40 36', class: ['die', marked ? 'marked' : 'unmarked'], 'aria-hidden': 'true' },
    s('path', { d: 'M20 2 L38 34 L2 34 Z', class: 'die-face' }),
    s('path', { d: 'M20 2 L20 24 L38 34 M20 24 L2 34', class: 'die-edge' }),
    s('circle', { cx: 20, cy: 7, r: 3.6, class: 'die-tip' }));
}

function piece(cls, ring) {
  return miniSvg([s('g', { class: ['piece', cls, ring ? 'flipped' : 'upright'] },
    s('circle', { cx: 20, cy: 18, r: 14, class: 'piece-body' }),
    ring ? s('circle', { cx: 20, cy: 18, r: 9.5, class: 'piece-ring' }) : null)]);
}

function legend() {
  const rosette = miniSvg([...Array.from({ length: 8 }, (_, i) => s('ellipse',
    { cx: 20, cy: 9, rx: 4, ry: 9, transform: `rotate(${i * 45} 20 18)`, class: 'petal' })),
  s('circle', { cx: 20, cy: 18, r: 5, class: 'rosette-heart' })]);
  const box = (cls) => miniSvg([s('rect', { x: 4, y: 2, width: 32, height: 32, rx: 5, class: cls })]);
  return [
    { mark: h('span.legend-dice', die(true), die(false)), text: `${t('leg.marked')} ${t('leg.values')}` },
    { mark: piece('piece-light', false), text: t('leg.light') },
    { mark: piece('piece-dark', false), text: t('leg.dark') },
    { mark: piece('piece-light', true), text: t('leg.flipped') },
    { mark: rosette, text: t('leg.rosette') },
    { mark: 'M1', text: t('leg.safe') },
    { mark: box('last-to'), text: t('leg.last') },
    { mark: 'L4', text: t('leg.cells') },
    { mark: '↺', text: t('leg.route') },
  ];
}

// --- the panel: dice and buttons -------------------------------------------------------------------

function drawDice(box, view) {
  const value = view.value;
  const label = t('dice.label', { value: Array.isArray(view.dice) ? value : t('dice.none') });
  const dice = h('div.dice', { role: 'img', 'aria-label': label });
  if (Array.isArray(view.dice)) view.dice.forEach((m) => dice.append(die(m)));
  else for (let i = 0; i < 3; i++) dice.append(h('span.die-blank'));
  const num = h('div.dice-value', { 'data-value': value ?? '', 'aria-hidden': 'true' },
    h('span.num', value ?? '–'),
    view.again ? h('span.again', t('again')) : null,
    view.bonus ? h('span.bonus', t('bonus')) : null);
  box.append(h('div.dice-row', dice, num));
}

// One button per one-click action; the board's badges do the same for entering and bearing off.
function drawButtons(box, legal, act, actor) {
  const buttons = h('div.actions', { role: 'group', 'aria-label': t('act.group') });
  const btn = (a, token, text, cls, keys) => actionButton(token, text, () => act(a), cls, keys);
  for (const a of legal) if (a && a.roll) buttons.append(btn(a, 'roll', t('act.roll'), 'primary roll', 'R'));
  for (const a of legal) {
    if (a && 'enter' in a) buttons.append(btn(a, `button-enter:${a.enter}`, t('act.enter', { cell: cellOf(actor, a.enter) }), 'enter'));
  }
  for (const a of legal) if (a && a.bear_off) buttons.append(btn(a, 'button-bear_off', t('act.bearOff'), 'bear'));
  for (const a of legal) if (a && a.skip) buttons.append(btn(a, 'skip', t('act.skip'), 'skip'));
  if (legal.some((a) => a && 'move' in a)) buttons.append(h('p.hint', t('hint.move')));
  box.append(buttons);
}

// --- the view ----------------------------------------------------------------------------------------

// The elements of list `b` that list `a` lacks, counted as multisets.
function added(a, b) {
  const left = [...a];
  return b.filter((x) => {
    const i = left.indexOf(x);
    if (i < 0) return true;
    left.splice(i, 1);
    return false;
  });
}

// What moving `actor`'s piece on `square` would do, read off the view the local rules give after it:
// {to: the square it lands on, captured: [the other side's squares whose pieces it sends back]}; null without
// a preview.
function moveLanding(preview, view, actor, square) {
  const p = preview({ move: square });
  const before = view.pieces || [];
  const after = p && p.view && p.view.pieces;
  if (!after) return null;
  const to = added(before[actor] || [], after[actor] || [])[0];
  if (to === undefined) return null;
  const other = 1 - actor;
  const captured = added(after[other] || [], before[other] || []);
  return { to, captured: [...new Set(captured)] };
}

let active = null; // the view on the page: clicksFor() counts taps on a shared cell from its selection

function createView(ctx) {
  let state = null;
  let selected = null; // {ply, square}: a piece chosen, its move not yet sent
  let lastMove = null; // the latest enter, move or bear-off seen: marked until the next one
  let shownTurn = null; // the ply of the latest turn of this view's seat brought into view
  const render = () => {
    const legal = Array.isArray(state.legal) ? state.legal : [];
    const canMove = (sq) => legal.some((a) => a && a.move === sq);
    if (selected && (selected.ply !== state.ply || !canMove(selected.square))) selected = null;
    const viewerSeat = ctx.mySeat();
    const actor = (state.to_act || [])[0];
    const landing = ctx.preview ? (sq) => moveLanding(ctx.preview, state.view || {}, actor, sq) : null;
    board.render({ state, viewerSeat, legal, selected: selected && selected.square, reducedMotion: ctx.reducedMotion(),
      lastMove, landing });
    clear(ctx.panel);
    const box = h('div.ur-side');
    drawDice(box, state.view || {});
    drawButtons(box, legal, ctx.act, (state.to_act || [])[0]);
    ctx.panel.append(box);
    clear(ctx.side).append(turnCard(game, 'ur-turn', state, viewerSeat));
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
  }, t);
  ctx.board.append(h('div.ur-board-wrap', board.el));
  const view = {
    update(st) {
      state = st;
      const l = st.last;
      if (l && l.action && moveCells(l.seat, l.action, st.view?.value)) {
        lastMove = { seat: l.seat, action: l.action, value: st.view?.value };
      }
      render();
      // A turn of this view's seat begins: the board and the dice on the screen, so that it needs no scroll.
      if (Array.isArray(st.legal) && st.legal.length && shownTurn !== st.ply) {
        shownTurn = st.ply;
        bringIntoViewSoon([ctx.board, ctx.panel], styled);
      }
    },
    destroy() { selected = null; if (active === view) active = null; },
    highlight(entry) {
      board.highlight(entry ? moveCells(entry.seat, entry.action, entry.view?.value) : null);
    },
    selected: () => (selected && state && selected.ply === state.ply ? selected.square : null),
  };
  active = view;
  return view;
}

// --- the browser-test contract ---------------------------------------------------------------------

// A move: its piece, then the target; on a touch screen, where two of the actor's stacks that can move share a
// cell (named by the first of them), the cell as many times as it takes to come round to it.
function clicksFor(action, state) {
  if (!action || typeof action !== 'object') return null;
  if (action.roll) return [clickSelector('roll')];
  if ('enter' in action) return [clickSelector(`enter:${action.enter}`)];
  if ('move' in action) {
    const actor = ((state && state.to_act) || [])[0];
    const mine = ((state && state.view && state.view.pieces) || [])[actor] || [];
    const moves = new Set(((state && state.legal) || []).filter((a) => a && 'move' in a).map((a) => a.move));
    const cell = cellOf(actor, action.move);
    // The stacks in the order the board draws them: upright (squares up to 13) before those coming back.
    const shared = [...new Set(mine)].filter((sq) => moves.has(sq) && cellOf(actor, sq) === cell)
      .sort((a, b) => (a >= 14) - (b >= 14) || a - b);
    const coarse = typeof window !== 'undefined' && window.matchMedia && window.matchMedia(COARSE).matches;
    if (shared.length < 2 || !coarse) return [clickSelector(`piece:${action.move}`), clickSelector('target')];
    const taps = [];
    let sel = active ? active.selected() : null;
    do { sel = nextInCell(shared, sel); taps.push(clickSelector(`piece:${shared[0]}`)); } while (sel !== action.move && taps.length <= shared.length);
    return [...taps, clickSelector('target')];
  }
  if (action.bear_off) return [clickSelector('bear_off')];
  if (action.skip) return [clickSelector('skip')];
  return null;
}

const game = defineGame({
  id: 'ur',
  label: 'Royal Game of Ur',
  roles: ROLES,
  strings,
  t,
  rules,
  autoroll: true,
  resultReasons: ['race', 'resign', 'forfeit'],
  createView,
  notation,
  describeBoard,
  legend,
  shortcuts: [{ key: 'r', token: 'roll' }],
  clicksFor,
});

export default game;
