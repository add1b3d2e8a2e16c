// board.js: the Laquet board in SVG (protocol/games/laquet/README.md, "Board and track"), redrawn from a model on
// every state. A backgammon board seen from White's side: the top row t1..t12 and the bottom row
// b1..b12, left to right, a bar between the two halves, the bottom-left quarter (b1..b6) shaded and
// marked out of play, an arrow along the track (b7 -> b12, up, t12 -> t1, off), and the borne-off
// trays at the left, past t1, where men leave. Stacks show up to five men and a count.
//
// Clickable parts follow common.js clickable(): "from:<route>" picks the man to move, "to:<route>"
// (19 = off) lands it with the die that goes there. It sends nothing itself: it calls
// handlers.pick(route) and handlers.land(route).

import { s } from '../../dom.js';
import { clickable } from '../common.js';

export const ROLES = ['white', 'black'];
export const OFF = 19;

// The board name of route r (1..18), 'off' for 19.
export function pointName(r) {
  if (r >= OFF) return 'off';
  return r <= 6 ? `b${6 + r}` : `t${19 - r}`;
}

const P = 56;          // point width
const PH = 220;        // point height
const BAR = 30;        // the bar between the halves
const TRAY = 92;       // the off trays' column at the left
const X0 = TRAY + 14;  // the first column's left edge
const Y0 = 30;         // the top row's top edge
const GAP = 56;        // between the rows
const Y1 = Y0 + PH + GAP; // the bottom row's top edge
const W = X0 + 12 * P + BAR + 14;
const H = Y1 + PH + 30;
const R = 24;          // a man's radius

const colX = (c) => X0 + (c - 1) * P + (c > 6 ? BAR : 0); // column 1..12, left edge
// Where route r is drawn: its column, and whether it is on the top row.
function spot(r) {
  if (r <= 6) return { col: 6 + r, top: false };
  return { col: 19 - r, top: true };
}

// Centre of the k-th man (0 = at the edge) of a stack on route r.
function manXY(r, k) {
  const { col, top } = spot(r);
  const x = colX(col) + P / 2;
  const step = Math.min(2 * R, (PH - 2 * R) / 4);
  return { x, y: top ? Y0 + R + k * step : Y1 + PH - R - k * step };
}

function pointRect(r) {
  const { col, top } = spot(r);
  return { x: colX(col), y: top ? Y0 : Y1, width: P, height: PH };
}

function drawStatic(root, t) {
  root.append(s('rect', { x: 0, y: 0, width: W, height: H, rx: 14, class: 'lq-frame' }));
  root.append(s('rect', { x: X0 - 6, y: Y0 - 6, width: 12 * P + BAR + 12, height: Y1 + PH - Y0 + 12, rx: 8, class: 'lq-felt' }));
  root.append(s('rect', { x: colX(7) - BAR, y: Y0 - 6, width: BAR, height: Y1 + PH - Y0 + 12, class: 'lq-bar' }));
  for (let c = 1; c <= 12; c++) {
    const x = colX(c);
    for (const top of [true, false]) {
      const tip = top ? Y0 + PH - 18 : Y1 + 18;
      const base = top ? Y0 : Y1 + PH;
      root.append(s('path', { d: `M ${x + 2} ${base} L ${x + P / 2} ${tip} L ${x + P - 2} ${base} Z`,
        class: ['lq-point', (c + (top ? 1 : 0)) % 2 ? 'lq-point-a' : 'lq-point-b'] }));
      const name = `${top ? 't' : 'b'}${c}`;
      root.append(s('text', { x: x + P / 2, y: top ? Y0 - 12 : Y1 + PH + 16, class: 'lq-point-label' }, name));
    }
  }
  // Quadrant IV: out of play.
  root.append(s('rect', { x: colX(1), y: Y1, width: 6 * P, height: PH, class: 'lq-out' }));
  root.append(s('text', { x: colX(1) + 3 * P, y: Y1 + PH / 2, class: 'lq-out-label' }, t('outOfPlay')));
  // The track: b7 -> b12 along the bottom, up the right edge, t12 -> t1 along the top, off.
  const midB = Y0 + PH + GAP / 2 + 10;
  const midT = Y0 + PH + GAP / 2 - 10;
  const xr = colX(12) + P - 6;
  root.append(s('path', {
    d: `M ${colX(7) + 10} ${midB} L ${xr} ${midB} L ${xr} ${midT} L ${X0 - 2} ${midT}`,
    class: 'lq-track',
  }));
  root.append(s('path', { d: `M ${X0 - 2} ${midT} l 12 -7 v 14 z`, class: 'lq-track-head' }));
}

function drawTrays(layer, view, t, m) {
  for (const seat of [0, 1]) {
    const n = (view.off || {})[ROLES[seat]] || 0;
    const y = seat === 0 ? Y0 : Y1;
    const g = s('g', { class: ['lq-tray', `lq-tray-${ROLES[seat]}`], 'data-off': n, 'data-tray': ROLES[seat] });
    g.append(s('rect', { x: 10, y, width: TRAY - 16, height: PH, rx: 10, class: 'lq-tray-bg' }));
    for (let i = 0; i < Math.min(n, 15); i++) {
      g.append(s('rect', { x: 18, y: y + PH - 14 - i * 13.5, width: TRAY - 32, height: 11, rx: 3, class: ['lq-slab', `lq-${ROLES[seat]}`] }));
    }
    g.append(s('text', { x: 10 + (TRAY - 16) / 2, y: y + 16, class: 'lq-tray-count' }, `${n}`));
    g.append(s('title', {}, t('tray', { role: t(`role.${ROLES[seat]}`), n })));
    layer.append(g);
    if (m.target === OFF && m.actor === seat) layer.append(landing(m, OFF, { x: 10, y, width: TRAY - 16, height: PH }));
  }
}

function man(x, y, seat, cls) {
  return s('circle', { cx: x, cy: y, r: R, class: ['lq-man', `lq-${ROLES[seat]}`, cls] });
}

function drawStacks(layer, view, m) {
  (view.points || []).forEach((p, i) => {
    const r = i + 1;
    for (const seat of [0, 1]) {
      const n = p[ROLES[seat]];
      if (!n) continue;
      const g = s('g', { class: 'lq-stack', 'data-route': r, 'data-seat': seat, 'data-count': n });
      for (let k = 0; k < Math.min(n, 5); k++) {
        const c = manXY(r, k);
        g.append(man(c.x, c.y, seat, m.moved && m.moved.has(r) && k === Math.min(n, 5) - 1 ? 'lq-moved' : ''));
      }
      if (n > 1) {
        const c = manXY(r, Math.min(n, 5) - 1);
        g.append(s('text', { x: c.x, y: c.y, class: ['lq-count', `lq-count-${ROLES[seat]}`] }, String(n)));
      }
      layer.append(g);
    }
  });
}

// A clickable landing spot for the picked man: its whole point (or the tray, for off).
function landing(m, r, rect) {
  const opt = m.landings.get(r);
  const g = s('g', clickable(`to:${r}`, m.t('aria.to', { point: pointName(r) === 'off' ? m.t('off') : pointName(r), value: opt.value }),
    () => m.handlers.land(r)));
  g.classList.add('lq-landing');
  g.setAttribute('data-route', String(r));
  g.setAttribute('data-preview', opt.source || 'dice');
  g.append(s('rect', { ...rect, rx: 8, class: 'lq-landing-hit' }));
  return g;
}

function drawChoices(layer, m) {
  for (const r of m.froms) {
    const rect = pointRect(r);
    const g = s('g', clickable(`from:${r}`, m.t('aria.from', { role: m.t(`role.${ROLES[m.actor]}`), point: pointName(r) }),
      () => m.handlers.pick(r)));
    g.classList.add('lq-from');
    if (m.picked === r) g.classList.add('selected');
    g.setAttribute('data-route', String(r));
    g.append(s('rect', { ...rect, rx: 8, class: 'lq-from-hit' }));
    layer.append(g);
  }
  for (const r of m.landings.keys()) {
    if (r >= OFF) continue;
    layer.append(landing(m, r, pointRect(r)));
    const c = manXY(r, Math.min((m.view.points[r - 1] || {})[ROLES[m.actor]] || 0, 4));
    layer.append(man(c.x, c.y, m.actor, 'lq-ghost'));
  }
}

function drawMarks(layer, moves, prefix) {
  for (const mv of moves || []) {
    for (const [r, end] of [[mv.from, 'from'], [mv.to, 'to']]) {
      if (r >= 1 && r <= 18) layer.append(s('rect', { ...pointRect(r), rx: 8, class: `${prefix}-${end}` }));
    }
  }
}

// handlers: {pick(route | null), land(route)}; t: the game's translator. Returns {el,
// render(model), highlight(moves | null)}; model: {view (with the staged steps applied), actor,
// froms: [route], picked, landings: Map(route -> {die, value, source}), last: [moves], staged: [moves],
// reducedMotion}.
export function createBoard(handlers, t) {
  const svg = s('svg', { class: 'lq-board', role: 'group', 'aria-label': t('aria.board'), viewBox: `0 0 ${W} ${H}` });
  drawStatic(svg, t);
  const names = ['marks', 'trays', 'stacks', 'choices'];
  const L = {};
  for (const n of names) { L[n] = s('g', { class: `lq-${n}` }); svg.append(L[n]); }
  let model = null;
  let hl = null;
  const render = (m) => {
    model = m;
    for (const g of Object.values(L)) while (g.firstChild) g.firstChild.remove();
    const mm = { ...m, handlers, t, target: m.landings.has(OFF) ? OFF : null };
    drawMarks(L.marks, m.last, 'lq-last');
    drawMarks(L.marks, m.staged, 'lq-staged');
    drawMarks(L.marks, hl, 'lq-hl');
    drawTrays(L.trays, m.view, t, mm);
    drawStacks(L.stacks, m.view, mm);
    drawChoices(L.choices, mm);
    if (!m.reducedMotion) for (const el of L.stacks.querySelectorAll('.lq-moved')) el.animate?.([{ opacity: 0.2 }, { opacity: 1 }], { duration: 300 });
  };
  return {
    el: svg,
    render,
    highlight(moves) { hl = moves; if (model) render(model); },
  };
}
