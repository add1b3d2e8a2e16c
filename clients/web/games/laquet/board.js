// board.js: the Laquet board in SVG (protocol/games/laquet/README.md, "Board and track"), redrawn from a model on
// every state. A backgammon board seen from White's side: the top row t1..t12 and the bottom row
// b1..b12, left to right, a bar between the two halves, the bottom-left quarter (b1..b6) shaded and
// marked out of play, an arrow along the track (b7 -> b12, up, t12 -> t1, off), and the borne-off
// trays at the left, past t1, where men leave. Stacks show up to five men and a count. On a phone the
// board is drawn compact (shorter points, narrower bar and trays), turned to stand upright when the phone
// is held upright (t row on the left, b row on the right, the trays at the bottom), so that every point,
// the tap area of a man to pick or a landing, is 44 CSS px wide or more; its text stays upright.
//
// Clickable parts follow common.js clickable(): "from:<route>" picks the man to move, "to:<route>"
// (19 = off) lands it with the die that goes there. It sends nothing itself: it calls
// handlers.pick(route) and handlers.land(route). The points whose men can move are outlined all round, their
// top man ringed; the last move is marked by corners (thin where it left, thick where it arrived): two
// shapes, not two colours.

import { s } from '../../dom.js';
import { clickable } from '../common.js';

export const ROLES = ['white', 'black'];
export const OFF = 19;

// The board name of route r (1..18), 'off' for 19.
export function pointName(r) {
  if (r >= OFF) return 'off';
  return r <= 6 ? `b${6 + r}` : `t${19 - r}`;
}

// The board's measures in its own units (the SVG's viewBox), by layout: 'wide' on a desktop; 'compact' on a
// phone (shorter points, a narrower bar and trays) so that a point, the tap area that picks a man or lands
// him, is 44 CSS px wide or more when the board takes a phone's width (held upright: the board is turned to
// stand upright, the trays at the bottom) or its height (on its side).
const LAYOUTS = {
  wide: { P: 56, PH: 220, BAR: 30, TRAY: 92, Y0: 30, GAP: 56, YB: 30, R: 24 },
  compact: { P: 56, PH: 178, BAR: 20, TRAY: 66, Y0: 30, GAP: 40, YB: 30, R: 23 },
};
// P: a point's width, PH its height, BAR the bar between the halves, TRAY the off trays' column at the left,
// Y0 the top row's top edge (its labels above it), GAP between the rows, YB under the bottom row, R a man's radius.
function geometry(name, upright) {
  const g = { ...LAYOUTS[name], upright };
  g.X0 = g.TRAY + 14;            // the first column's left edge
  g.Y1 = g.Y0 + g.PH + g.GAP;    // the bottom row's top edge
  g.W = g.X0 + 12 * g.P + g.BAR + 14;
  g.H = g.Y1 + g.PH + g.YB;
  return g;
}

const colX = (g, c) => g.X0 + (c - 1) * g.P + (c > 6 ? g.BAR : 0); // column 1..12, left edge
// Where route r is drawn: its column, and whether it is on the top row.
function spot(r) {
  if (r <= 6) return { col: 6 + r, top: false };
  return { col: 19 - r, top: true };
}

// Centre of the k-th man (0 = at the edge) of a stack on route r.
function manXY(g, r, k) {
  const { col, top } = spot(r);
  const x = colX(g, col) + g.P / 2;
  const step = Math.min(2 * g.R, (g.PH - 2 * g.R) / 4);
  return { x, y: top ? g.Y0 + g.R + k * step : g.Y1 + g.PH - g.R - k * step };
}

function pointRect(g, r) {
  const { col, top } = spot(r);
  return { x: colX(g, col), y: top ? g.Y0 : g.Y1, width: g.P, height: g.PH };
}

// Text that stays upright when the board stands upright (turned by -90 degrees).
function txt(g, attrs, content) {
  const a = g.upright ? { ...attrs, transform: `rotate(90 ${attrs.x} ${attrs.y})` } : attrs;
  return s('text', a, content);
}

// Four corner marks of a box (the last move's mark: a shape of its own, unlike the full outline of a point
// whose men can move).
function corners(rect, len, cls) {
  const { x, y, width: w, height: h } = rect;
  const l = Math.min(len, w / 2 - 2, h / 2 - 2);
  return s('path', {
    d: `M ${x} ${y + l} V ${y} H ${x + l} M ${x + w - l} ${y} H ${x + w} V ${y + l} ` +
      `M ${x + w} ${y + h - l} V ${y + h} H ${x + w - l} M ${x + l} ${y + h} H ${x} V ${y + h - l}`,
    class: cls,
  });
}

function drawStatic(root, g, t) {
  const { P, PH, BAR, X0, Y0, Y1, GAP, W, H } = g;
  root.append(s('rect', { x: 0, y: 0, width: W, height: H, rx: 14, class: 'lq-frame' }));
  root.append(s('rect', { x: X0 - 6, y: Y0 - 6, width: 12 * P + BAR + 12, height: Y1 + PH - Y0 + 12, rx: 8, class: 'lq-felt' }));
  root.append(s('rect', { x: colX(g, 7) - BAR, y: Y0 - 6, width: BAR, height: Y1 + PH - Y0 + 12, class: 'lq-bar' }));
  for (let c = 1; c <= 12; c++) {
    const x = colX(g, c);
    for (const top of [true, false]) {
      const tip = top ? Y0 + PH - 18 : Y1 + 18;
      const base = top ? Y0 : Y1 + PH;
      root.append(s('path', { d: `M ${x + 2} ${base} L ${x + P / 2} ${tip} L ${x + P - 2} ${base} Z`,
        class: ['lq-point', (c + (top ? 1 : 0)) % 2 ? 'lq-point-a' : 'lq-point-b'] }));
      const name = `${top ? 't' : 'b'}${c}`;
      root.append(txt(g, { x: x + P / 2, y: top ? (Y0 - 6) / 2 + 1 : Y1 + PH + 6 + (g.YB - 6) / 2 - 1, class: 'lq-point-label' }, name));
    }
  }
  // Quadrant IV: out of play.
  root.append(s('rect', { x: colX(g, 1), y: Y1, width: 6 * P, height: PH, class: 'lq-out' }));
  root.append(txt(g, { x: colX(g, 1) + 3 * P, y: Y1 + PH / 2, class: 'lq-out-label' }, t('outOfPlay')));
  // The track: b7 -> b12 along the bottom, up the right edge, t12 -> t1 along the top, off.
  const midB = Y0 + PH + GAP / 2 + 10;
  const midT = Y0 + PH + GAP / 2 - 10;
  const xr = colX(g, 12) + P - 6;
  root.append(s('path', {
    d: `M ${colX(g, 7) + 10} ${midB} L ${xr} ${midB} L ${xr} ${midT} L ${X0 - 2} ${midT}`,
    class: 'lq-track',
  }));
  root.append(s('path', { d: `M ${X0 - 2} ${midT} l 12 -7 v 14 z`, class: 'lq-track-head' }));
}

function drawTrays(layer, g, view, t, m) {
  const { TRAY, PH } = g;
  for (const seat of [0, 1]) {
    const n = (view.off || {})[ROLES[seat]] || 0;
    const y = seat === 0 ? g.Y0 : g.Y1;
    const tray = s('g', { class: ['lq-tray', `lq-tray-${ROLES[seat]}`], 'data-off': n, 'data-tray': ROLES[seat] });
    tray.append(s('rect', { x: 10, y, width: TRAY - 16, height: PH, rx: 10, class: 'lq-tray-bg' }));
    const slab = Math.min(13.5, (PH - 40) / 14);
    for (let i = 0; i < Math.min(n, 15); i++) {
      tray.append(s('rect', { x: 18, y: y + PH - 14 - i * slab, width: TRAY - 32, height: slab - 2.5, rx: 3, class: ['lq-slab', `lq-${ROLES[seat]}`] }));
    }
    tray.append(txt(g, { x: 10 + (TRAY - 16) / 2, y: y + 16, class: 'lq-tray-count' }, `${n}`));
    tray.append(s('title', {}, t('tray', { role: t(`role.${ROLES[seat]}`), n })));
    layer.append(tray);
    // Landing off: the whole tray and a little round it, so that it is as wide as a point.
    if (m.target === OFF && m.actor === seat) layer.append(landing(m, OFF, { x: 4, y, width: Math.max(TRAY - 8, g.P), height: PH }));
  }
}

function man(g, x, y, seat, cls) {
  return s('circle', { cx: x, cy: y, r: g.R, class: ['lq-man', `lq-${ROLES[seat]}`, cls] });
}

function drawStacks(layer, g, view, m) {
  (view.points || []).forEach((p, i) => {
    const r = i + 1;
    for (const seat of [0, 1]) {
      const n = p[ROLES[seat]];
      if (!n) continue;
      const st = s('g', { class: 'lq-stack', 'data-route': r, 'data-seat': seat, 'data-count': n });
      for (let k = 0; k < Math.min(n, 5); k++) {
        const c = manXY(g, r, k);
        st.append(man(g, c.x, c.y, seat, m.moved && m.moved.has(r) && k === Math.min(n, 5) - 1 ? 'lq-moved' : ''));
      }
      if (n > 1) {
        const c = manXY(g, r, Math.min(n, 5) - 1);
        st.append(txt(g, { x: c.x, y: c.y, class: ['lq-count', `lq-count-${ROLES[seat]}`] }, String(n)));
      }
      layer.append(st);
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

// The points whose men can move: each outlined all round and its top man ringed (the last move's mark is
// corners only); the picked one in red. A tap anywhere on the point picks it.
function drawChoices(layer, g, m) {
  for (const r of m.froms) {
    const rect = pointRect(g, r);
    const el = s('g', clickable(`from:${r}`, m.t('aria.from', { role: m.t(`role.${ROLES[m.actor]}`), point: pointName(r) }),
      () => m.handlers.pick(r)));
    el.classList.add('lq-from');
    if (m.picked === r) el.classList.add('selected');
    el.setAttribute('data-route', String(r));
    const n = ((m.view.points || [])[r - 1] || {})[ROLES[m.actor]] || 0;
    const top = manXY(g, r, Math.max(Math.min(n, 5) - 1, 0));
    el.append(s('rect', { ...rect, rx: 8, class: 'lq-from-hit' }),
      s('circle', { cx: top.x, cy: top.y, r: g.R + 4, class: 'lq-from-ring' }));
    layer.append(el);
  }
  for (const r of m.landings.keys()) {
    if (r >= OFF) continue;
    layer.append(landing(m, r, pointRect(g, r)));
    const c = manXY(g, r, Math.min((m.view.points[r - 1] || {})[ROLES[m.actor]] || 0, 4));
    layer.append(man(g, c.x, c.y, m.actor, 'lq-ghost'));
  }
}

// The last move (corners: thin where a man left, thick where one arrived), the steps staged and a highlighted
// log entry (full outlines).
function drawMarks(layer, g, moves, prefix) {
  for (const mv of moves || []) {
    for (const [r, end] of [[mv.from, 'from'], [mv.to, 'to']]) {
      if (r < 1 || r > 18) continue;
      const rect = pointRect(g, r);
      if (prefix === 'lq-last') {
        if (end === 'to') layer.append(s('rect', { ...rect, rx: 8, class: 'lq-last-fill' }));
        layer.append(corners({ x: rect.x + 3, y: rect.y + 3, width: rect.width - 6, height: rect.height - 6 }, 18, `${prefix}-${end}`));
      } else layer.append(s('rect', { ...rect, rx: 8, class: `${prefix}-${end}` }));
    }
  }
}

// The legend's mark of the last move: a point with its corners marked, as on the board.
export function lastMoveMark() {
  return s('svg', { viewBox: '0 0 40 40', class: ['legend-svg', 'lq-mark'], 'aria-hidden': 'true', focusable: 'false' },
    s('rect', { x: 4, y: 2, width: 32, height: 36, rx: 4, class: 'lq-legend-point' }),
    s('rect', { x: 4, y: 2, width: 32, height: 36, rx: 4, class: 'lq-last-fill' }),
    corners({ x: 6, y: 4, width: 28, height: 32 }, 9, 'lq-last-to'));
}

// The legend's mark of a point whose men can move: outlined all round, its top man ringed.
export function movableMark() {
  return s('svg', { viewBox: '0 0 40 40', class: ['legend-svg', 'lq-mark'], 'aria-hidden': 'true', focusable: 'false' },
    s('rect', { x: 4, y: 2, width: 32, height: 36, rx: 4, class: 'lq-legend-point' }),
    s('g', { class: 'lq-from' }, s('rect', { x: 4, y: 2, width: 32, height: 36, rx: 4, class: 'lq-from-hit' }),
      s('circle', { cx: 20, cy: 14, r: 8, class: ['lq-man', 'lq-white'] }),
      s('circle', { cx: 20, cy: 14, r: 11, class: 'lq-from-ring' })));
}

const UPRIGHT = '(max-width: 600px) and (orientation: portrait)';
const SHORT = '(orientation: landscape) and (max-height: 500px)';

// handlers: {pick(route | null), land(route)}; t: the game's translator. Returns {el,
// render(model), highlight(moves | null)}; model: {view (with the staged steps applied), actor,
// froms: [route], picked, landings: Map(route -> {die, value, source}), last: [moves], staged: [moves],
// reducedMotion}. The static part is drawn again when the screen changes layout (a phone turned).
export function createBoard(handlers, t) {
  const svg = s('svg', { class: 'lq-board', role: 'group', 'aria-label': t('aria.board') });
  const media = window.matchMedia ? [UPRIGHT, SHORT].map((q) => window.matchMedia(q)) : [];
  let drawn = null; // the layout drawn: "wide", "compact" or "upright"
  let g = null;
  let L = null;
  let model = null;
  let hl = null;
  const layout = () => (media[0] && media[0].matches ? 'upright' : media[1] && media[1].matches ? 'compact' : 'wide');
  const render = (m) => {
    model = m;
    const want = layout();
    if (drawn !== want) {
      while (svg.firstChild) svg.firstChild.remove();
      g = geometry(want === 'wide' ? 'wide' : 'compact', want === 'upright');
      svg.setAttribute('viewBox', g.upright ? `0 0 ${g.H} ${g.W}` : `0 0 ${g.W} ${g.H}`);
      svg.classList.toggle('upright', g.upright);
      const root = s('g', g.upright ? { transform: `translate(0 ${g.W}) rotate(-90)` } : {});
      svg.append(root);
      drawStatic(root, g, t);
      L = {};
      for (const n of ['marks', 'trays', 'stacks', 'choices']) { L[n] = s('g', { class: `lq-${n}` }); root.append(L[n]); }
      drawn = want;
    } else {
      for (const layer of Object.values(L)) while (layer.firstChild) layer.firstChild.remove();
    }
    const mm = { ...m, handlers, t, target: m.landings.has(OFF) ? OFF : null };
    drawMarks(L.marks, g, m.last, 'lq-last');
    drawMarks(L.marks, g, m.staged, 'lq-staged');
    drawMarks(L.marks, g, hl, 'lq-hl');
    drawTrays(L.trays, g, m.view, t, mm);
    drawStacks(L.stacks, g, m.view, mm);
    drawChoices(L.choices, g, mm);
    if (!m.reducedMotion) for (const el of L.stacks.querySelectorAll('.lq-moved')) el.animate?.([{ opacity: 0.2 }, { opacity: 1 }], { duration: 300 });
  };
  for (const q of media) q.addEventListener('change', () => { if (model) render(model); });
  return {
    el: svg,
    render,
    highlight(moves) { hl = moves; if (model) render(model); },
  };
}
