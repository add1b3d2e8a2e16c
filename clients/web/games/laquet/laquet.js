// laquet.js: Laquet as a game module of the web client (built on ../base.js, where the contract is). The
// board (board.js) goes in ctx.board; the dice, the handed dice and the buttons in ctx.panel; whose
// turn it is and the last outcome in ctx.side. Its words are in strings.js, its rules page in rules.js.
//
// A plan or a bonus is built step by step: a glowing man ("from:<route>") picks it and shows where
// each die would land it; a die button ("die:<i>") or the landing point ("to:<route>") makes the step.
// The board then shows the position after the steps made so far, and only the men and dice that
// can still complete a legal action glow, so only legal moves can be made. When the steps make a
// whole legal action that nothing longer extends, it is sent; a bonus that could go on can be sent
// as it is ("done"), or declined ("decline"). "reset" undoes the steps not sent. Where each step lands
// (a point, or off) is the local rules' answer (ctx.preview: a whole legal action that begins with the steps
// applied to the state's position by the same C as the server's, its outcome's moves read), before anything
// is sent; counted on from the dice only while there is no preview. The steps belong to
// this view: they survive states of the same ply and are dropped when the ply moves on. Everything
// people read names points as the board does (b7, t12), never route numbers.

import { h, s, clear } from '../../dom.js';
import { translator } from '../../i18n.js';
import { loadCss, actionButton, clickSelector, sameAction, bringIntoViewSoon } from '../common.js';
import { defineGame, turnCard } from '../base.js';
import { createBoard, pointName, lastMoveMark, movableMark, ROLES, OFF } from './board.js';
import strings from './strings.js';
import rules from './rules.js';

const styled = loadCss(new URL('./laquet.css', import.meta.url));

const t = translator(strings);
const role = (seat) => t(`role.${ROLES[seat]}`);
const place = (r) => (r >= OFF ? t('off') : pointName(r));

// --- actions and steps ---------------------------------------------------------------------------

const stepsOf = (a) => (a && (a.plan || a.bonus)) || null;
const diceFor = (kind, view) => (kind === 'bonus' ? view.handed || [] : view.dice || []);
const kindOf = (a) => (a && a.plan ? 'plan' : a && a.bonus ? 'bonus' : a && a.roll ? 'roll' : null);

// The legal plans or bonuses whose first steps are `staged`.
function candidates(legal, staged) {
  return legal.filter((a) => {
    const st = stepsOf(a);
    return st && st.length >= staged.length &&
      staged.every((x, i) => st[i].from === x.from && st[i].die === x.die);
  });
}

// The view with `moves` ({from, to}) of `seat` played on it.
function viewAfter(view, seat, moves) {
  const out = { ...view, points: (view.points || []).map((p) => ({ ...p })), off: { ...(view.off || {}) } };
  const me = ROLES[seat];
  for (const mv of moves) {
    out.points[mv.from - 1][me]--;
    if (mv.to >= OFF) out.off[me] = (out.off[me] || 0) + 1;
    else out.points[mv.to - 1][me]++;
  }
  return out;
}

const movesOf = (steps, dice) => steps.map((x) => ({ from: x.from, to: Math.min(x.from + dice[x.die], OFF), die: dice[x.die] }));

// --- words ---------------------------------------------------------------------------------------

function movesText(moves) {
  return moves.map((m) => t('n.move', { from: place(m.from), to: place(m.to) })).join(', ');
}

// A log entry (core.js roomLog, kind 'action') in the board's notation, e.g. "White b7 → b10, b8 → b12".
function notation(e) {
  const who = role(e.seat);
  const a = e.action || {};
  const o = e.outcome && typeof e.outcome === 'object' ? e.outcome : {};
  const view = e.prev?.view || e.view || {};
  const parts = [];
  if (a.roll) {
    const d = o.dice || view.dice || ['?', '?'];
    parts.push(t('n.roll', { who, a: d[0], b: d[1] }));
    if (o.passed) parts.push(t('n.pass'));
    return parts.join(', ');
  }
  const steps = stepsOf(a);
  if (!steps) return `${who} ${JSON.stringify(a)}`;
  const moves = Array.isArray(o.moves) ? o.moves : movesOf(steps, diceFor(kindOf(a), view));
  if (a.bonus && !steps.length) parts.push(t('n.decline', { who }));
  else parts.push(t(a.bonus ? 'n.bonus' : 'n.plan', { who, moves: movesText(moves) }));
  if (o.borne_off) parts.push(t('n.borne', { n: o.borne_off }));
  if (Array.isArray(o.handed) && o.handed.length) parts.push(t('n.handed', { n: o.handed.length }));
  if (o.won) parts.push(t('n.won'));
  return parts.join(', ');
}

// Every stack of both sides, the men off, the dice and whose turn: for screen readers.
function describeBoard(state) {
  const view = state.view || {};
  const lines = [];
  for (const seat of [0, 1]) {
    const list = [];
    (view.points || []).forEach((p, i) => {
      if (p[ROLES[seat]]) list.push(t('words.stack', { n: p[ROLES[seat]], point: pointName(i + 1) }));
    });
    lines.push(t('words.side', { role: role(seat), off: (view.off || {})[ROLES[seat]] || 0,
      list: list.length ? list.join(', ') : t('words.none') }));
  }
  if (Array.isArray(view.dice)) lines.push(t('words.dice', { values: view.dice.join(', ') }));
  else if ((view.handed || []).length) lines.push(t('words.handed', { values: view.handed.join(', ') }));
  else lines.push(t('words.noDice'));
  const toAct = state.status === 'playing' ? state.to_act || [] : [];
  if (toAct.length) lines.push(t('words.turn', { role: role(toAct[0]) }));
  return lines;
}

// --- dice and the legend -------------------------------------------------------------------------

const PIPS = { 1: [[0, 0]], 2: [[-1, -1], [1, 1]], 3: [[-1, -1], [0, 0], [1, 1]], 4: [[-1, -1], [1, -1], [-1, 1], [1, 1]],
  5: [[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]], 6: [[-1, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [1, 1]] };

function dieSvg(value, cls) {
  const g = s('svg', { viewBox: '0 0 40 40', class: ['lq-die', ...[].concat(cls)], 'aria-hidden': 'true', focusable: 'false' },
    s('rect', { x: 2, y: 2, width: 36, height: 36, rx: 7, class: 'lq-die-face' }));
  for (const [dx, dy] of PIPS[value] || []) g.append(s('circle', { cx: 20 + dx * 10, cy: 20 + dy * 10, r: 3.6, class: 'lq-pip' }));
  return g;
}

function manSvg(seat) {
  return s('svg', { viewBox: '0 0 40 40', class: ['legend-svg', 'lq-mark'], 'aria-hidden': 'true', focusable: 'false' },
    s('circle', { cx: 20, cy: 20, r: 15, class: ['lq-man', `lq-${ROLES[seat]}`] }));
}

function boxSvg(cls) {
  return s('svg', { viewBox: '0 0 40 40', class: ['legend-svg', 'lq-mark'], 'aria-hidden': 'true', focusable: 'false' },
    s('rect', { x: 4, y: 4, width: 32, height: 32, rx: 5, class: cls }));
}

function legend() {
  return [
    { mark: manSvg(0), text: t('leg.white') },
    { mark: manSvg(1), text: t('leg.black') },
    { mark: '↺', text: t('leg.track') },
    { mark: boxSvg('lq-out'), text: t('leg.out') },
    { mark: dieSvg(5, ''), text: t('leg.dice') },
    { mark: dieSvg(3, 'handed'), text: t('leg.handed') },
    { mark: movableMark(), text: t('leg.movable') },
    { mark: lastMoveMark(), text: t('leg.last') },
    { mark: 't6..t1', text: t('leg.home') },
  ];
}

// --- the panel -------------------------------------------------------------------------------------

const button = (token, text, cls, fire, keys) => actionButton(token, text, fire, cls, keys);

// --- the view ----------------------------------------------------------------------------------------

let active = null; // the view on the page: clicksFor() starts with "reset" when it holds steps

function createView(ctx) {
  let state = null;
  let ply = null;
  let staged = []; // steps made, not sent
  let picked = null; // the route of the man picked for the next step
  let shownTurn = null; // the ply of the latest turn of this view's seat brought into view
  let lastMove = null; // {ply, moves}: the latest plan or bonus seen, marked through the rolls that follow it

  const legalOf = () => (Array.isArray(state.legal) ? state.legal : []);
  // The moves ({from, to, die}) the local rules make of the first `k` steps of the legal action `a`: its
  // outcome's, as the server would send it; null without a preview.
  const ruled = (a, k) => {
    const p = ctx.preview ? ctx.preview(a) : null;
    const mv = p && p.outcome && p.outcome.moves;
    return Array.isArray(mv) && mv.length >= k ? mv.slice(0, k) : null;
  };
  // The moves the staged steps make: the rules' (from any legal action they begin), else counted on.
  const stagedMovesOf = (dice) => {
    const a = staged.length ? candidates(legalOf(), staged)[0] : null;
    return (a && ruled(a, staged.length)) || movesOf(staged, dice);
  };
  const step = (die) => {
    staged = [...staged, { from: picked, die }];
    picked = null;
    const cands = candidates(legalOf(), staged);
    const exact = cands.find((a) => stepsOf(a).length === staged.length);
    if (exact && !cands.some((a) => stepsOf(a).length > staged.length)) {
      staged = [];
      ctx.act(exact);
      return;
    }
    render();
  };
  const board = createBoard({
    pick(route) { picked = route; render(); },
    land(route) {
      const o = options().find((x) => x.to === route);
      if (o) step(o.die);
    },
  }, t);
  // The dice the picked man can use now: [{die, value, to, source}], one per die index; `to` from the local
  // rules (source 'rules') or counted on from the die (source 'dice').
  const options = () => {
    if (picked === null) return [];
    const k = staged.length;
    const dice = diceFor(kindOf(legalOf()[0]), state.view || {});
    const seen = new Set();
    const out = [];
    for (const a of candidates(legalOf(), staged)) {
      const st = stepsOf(a);
      if (st.length > k && st[k].from === picked && !seen.has(st[k].die)) {
        seen.add(st[k].die);
        const mv = ruled(a, k + 1);
        const to = mv ? Math.min(mv[k].to, OFF) : Math.min(picked + dice[st[k].die], OFF);
        out.push({ die: st[k].die, value: dice[st[k].die], to, source: mv ? 'rules' : 'dice' });
      }
    }
    return out.sort((x, y) => x.die - y.die);
  };

  const render = () => {
    const legal = legalOf();
    const kind = kindOf(legal[0]);
    if (ply !== state.ply || !candidates(legal, staged).length || (kind !== 'plan' && kind !== 'bonus')) {
      if (ply !== state.ply || staged.length) picked = null;
      staged = [];
    }
    ply = state.ply;
    const view = state.view || {};
    const actor = (state.to_act || [])[0];
    const dice = diceFor(kind, view);
    const cands = kind === 'plan' || kind === 'bonus' ? candidates(legal, staged) : [];
    const k = staged.length;
    const froms = new Set(cands.filter((a) => stepsOf(a).length > k).map((a) => stepsOf(a)[k].from));
    if (picked !== null && !froms.has(picked)) picked = null;
    const opts = options();
    const landings = new Map();
    for (const o of opts) if (!landings.has(o.to)) landings.set(o.to, o);
    const stagedMoves = stagedMovesOf(dice);
    board.render({
      view: viewAfter(view, actor, stagedMoves), actor, froms: [...froms], picked, landings,
      last: lastMove ? lastMove.moves : [],
      staged: stagedMoves, moved: new Set(stagedMoves.map((m) => m.to)), reducedMotion: ctx.reducedMotion(),
    });
    drawPanel(kind, view, dice, opts, cands);
    clear(ctx.side).append(turnCard(game, 'lq-turn', state, ctx.mySeat()));
  };

  const drawPanel = (kind, view, dice, opts, cands) => {
    clear(ctx.panel);
    const box = h('div.lq-side');
    const handed = !Array.isArray(view.dice) && (view.handed || []).length > 0;
    const shown = Array.isArray(view.dice) ? view.dice : view.handed || [];
    const used = new Set(staged.map((x) => x.die));
    const row = h('div.lq-dice', { role: 'img', 'aria-label': handed ? t('aria.handed', { values: shown.join(', ') })
      : t('aria.dice', { values: shown.length ? shown.join(', ') : t('dice.none') }) });
    shown.forEach((v, i) => row.append(dieSvg(v, [handed ? 'handed' : 'rolled', used.has(i) ? 'used' : ''])));
    if (!shown.length) row.append(h('span.lq-die-blank'), h('span.lq-die-blank'));
    if (handed) row.append(h('span.lq-handed-tag', t('handed')));
    box.append(row);
    const buttons = h('div.actions', { role: 'group', 'aria-label': t('act.group') });
    for (const a of legalOf()) if (a && a.roll) buttons.append(button('roll', t('act.roll'), 'primary roll', () => ctx.act(a), 'R'));
    for (const o of opts) buttons.append(button(`die:${o.die}`, t('act.die', { value: o.value }), 'lq-die-btn', () => step(o.die)));
    if (kind === 'bonus') {
      const exact = cands.find((a) => stepsOf(a).length === staged.length);
      if (!staged.length && exact) buttons.append(button('decline', t('act.decline'), 'decline', () => ctx.act(exact)));
      else if (exact) buttons.append(button('done', t('act.done'), 'done', () => { staged = []; ctx.act(exact); }));
    }
    if (staged.length) buttons.append(button('reset', t('act.reset'), 'reset', () => { staged = []; picked = null; render(); }));
    if (kind === 'plan' || kind === 'bonus') buttons.append(h('p.hint', t(kind === 'plan' ? 'hint.plan' : 'hint.bonus')));
    box.append(buttons);
    ctx.panel.append(box);
  };

  ctx.board.append(h('div.lq-board-wrap', board.el));
  const view = {
    update(st) {
      state = st;
      // The last move stays marked through the throws after it (a roll, a pass, the next roll), not further, and
      // not on a position before it (a replay stepped back).
      const moves = st.last && Array.isArray(st.last.outcome?.moves) ? st.last.outcome.moves : null;
      if (moves) lastMove = { ply: st.ply, moves };
      else if (lastMove && !(st.ply > lastMove.ply && st.ply - lastMove.ply <= 3 && st.last && st.last.action?.roll)) lastMove = null;
      render();
      // A turn of this view's seat begins: the board and the dice on the screen, so that it needs no scroll.
      if (legalOf().length && shownTurn !== st.ply) {
        shownTurn = st.ply;
        bringIntoViewSoon([ctx.board, ctx.panel], styled);
      }
    },
    destroy() { staged = []; picked = null; if (active === view) active = null; },
    highlight(entry) { board.highlight(entry && Array.isArray(entry.outcome?.moves) ? entry.outcome.moves : null); },
    staged: () => staged.length,
  };
  active = view;
  return view;
}

// --- the browser-test contract ---------------------------------------------------------------------

function clicksFor(action, state) {
  const kind = kindOf(action);
  if (!kind) return null;
  const out = active && active.staged() ? [clickSelector('reset')] : [];
  if (kind === 'roll') return [...out, clickSelector('roll')];
  const steps = stepsOf(action);
  if (kind === 'bonus' && !steps.length) return [...out, clickSelector('decline')];
  for (const x of steps) out.push(clickSelector(`from:${x.from}`), clickSelector(`die:${x.die}`));
  const legal = (state && state.legal) || [];
  if (kind === 'bonus' && candidates(legal, steps).some((a) => !sameAction(a, action))) out.push(clickSelector('done'));
  return out;
}

const game = defineGame({
  id: 'laquet',
  label: 'Laquet',
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
