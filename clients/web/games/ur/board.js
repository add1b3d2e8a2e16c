// board.js: the Royal Game of Ur board in SVG (rules-ur.md, "On the wire"), kept across states.
//
// createBoard(handlers) builds the SVG once; render(model) redraws only what a state changes (the
// pieces, the trays, the legal targets) and rebuilds the cells only when the viewer's seat turns
// the board the other way. Cells keep their names (L/M/K + row) whichever way it is turned.
// Clickable parts follow common.js clickable(): "piece:<square>" selects a piece that can move,
// "target" moves the selected piece, "enter:<square>" and "bear_off" act at once. It sends
// nothing itself: it calls handlers.select(square | null), handlers.act(action).

import { s } from '../../dom.js';
import { clickable } from '../common.js';

export const ROLES = ['light', 'dark'];
export const COLOUR = ['Light', 'Dark'];

// Light's route squares 1..23 (index 0 unused); Dark's is the same with L and K swapped (D1).
const LIGHT_ROUTE = [null, 'L4', 'L3', 'L2', 'L1', 'M1', 'M2', 'M3', 'M4', 'M5', 'M6', 'M7', 'K7',
  'K8', 'M8', 'L8', 'L7', 'M7', 'M6', 'M5', 'M4', 'M3', 'M2', 'M1'];
const ROSETTES = new Set(['L1', 'K1', 'M4', 'L7', 'K7']);
const CELLS = [];
for (const col of ['L', 'M', 'K']) {
  for (let row = 1; row <= 8; row++) if (col === 'M' || row <= 4 || row >= 7) CELLS.push(col + row);
}

// The cell of route square `sq` (1..23) for `seat`.
export function cellOf(seat, sq) {
  const c = LIGHT_ROUTE[sq];
  if (!c || seat === 0) return c;
  const swap = { L: 'K', K: 'L', M: 'M' };
  return swap[c[0]] + c.slice(1);
}

const C = 80;        // cell size
const BX = 78;       // board left edge (the exit zone is left of it)
const BY = 84;       // board top edge (the top tray is above it)
const W = BX + 8 * C + 22;
const H = BY + 3 * C + 84;

function geometry(bottomSeat) {
  // The bottom seat's outer row is the bottom lane: Light's is L, Dark's is K.
  const lanes = bottomSeat === 1 ? { L: 0, M: 1, K: 2 } : { K: 0, M: 1, L: 2 };
  const xy = (cell) => {
    const row = Number(cell.slice(1));
    return { x: BX + (row - 1) * C, y: BY + lanes[cell[0]] * C };
  };
  const center = (cell) => { const p = xy(cell); return { x: p.x + C / 2, y: p.y + C / 2 }; };
  // Tray strip of a seat: below the board for the bottom seat, above it for the other.
  const trayY = (seat) => (seat === bottomSeat ? BY + 3 * C + 38 : BY - 38);
  return { xy, center, trayY };
}


// --- pieces ------------------------------------------------------------------------------------

function stacksOf(view) {
  // Map cell -> [{seat, down, squares:[...], count}]
  const map = new Map();
  (view.pieces || []).forEach((list, seat) => {
    for (const sq of list || []) {
      if (sq < 1 || sq > 23) continue;
      const cell = cellOf(seat, sq);
      const down = sq >= 14;
      if (!map.has(cell)) map.set(cell, []);
      const arr = map.get(cell);
      let st = arr.find((x) => x.seat === seat && x.down === down && x.square === sq);
      if (!st) { st = { seat, down, square: sq, count: 0 }; arr.push(st); }
      st.count++;
    }
  });
  for (const arr of map.values()) arr.sort((a, b) => a.seat - b.seat || a.down - b.down);
  return map;
}

// Positions of up to four stacks inside a cell, relative to its centre, and their radius.
function slots(n) {
  if (n <= 1) return { r: 24, at: [[0, 0]] };
  if (n === 2) return { r: 18, at: [[-19, 0], [19, 0]] };
  return { r: 14, at: [[-18, -18], [18, -18], [-18, 18], [18, 18]] };
}

function disc(cx, cy, r, seat, down, count, extraClass) {
  const g = s('g', { class: ['piece', `piece-${ROLES[seat]}`, down ? 'flipped' : 'upright', extraClass] });
  g.append(s('circle', { cx, cy, r, class: 'piece-body' }));
  if (down) {
    g.append(s('circle', { cx, cy, r: r * 0.68, class: 'piece-ring' }));
  } else if (count === 1) {
    const d = r * 0.42;
    for (const [dx, dy] of [[0, 0], [-d, -d], [d, -d], [-d, d], [d, d]]) {
      g.append(s('circle', { cx: cx + dx, cy: cy + dy, r: Math.max(2, r * 0.11), class: 'piece-pip' }));
    }
  }
  if (count > 1 || down) {
    g.append(s('text', { x: cx, y: cy, class: 'piece-count', 'font-size': r * (count > 1 ? 0.95 : 0.8) },
      count > 1 ? String(count) : '↩'));
  }
  return g;
}

function rosette(cx, cy) {
  const g = s('g', { class: 'rosette' });
  for (let i = 0; i < 8; i++) {
    g.append(s('ellipse', { cx, cy: cy - 15, rx: 7, ry: 15, transform: `rotate(${i * 45} ${cx} ${cy})`, class: 'petal' }));
  }
  g.append(s('circle', { cx, cy, r: 8, class: 'rosette-heart' }));
  return g;
}

function cellDecor(cell, cx, cy) {
  if (ROSETTES.has(cell)) return rosette(cx, cy);
  const g = s('g', { class: 'cell-decor' });
  const row = Number(cell.slice(1));
  if (cell[0] === 'M' && row !== 4) {
    // "eyes": the middle row's squares
    for (const [dx, dy] of [[-14, -14], [14, -14], [-14, 14], [14, 14]]) {
      g.append(s('circle', { cx: cx + dx, cy: cy + dy, r: 7, class: 'eye' }));
      g.append(s('circle', { cx: cx + dx, cy: cy + dy, r: 2.5, class: 'eye-dot' }));
    }
  } else {
    for (const [dx, dy] of [[0, 0], [-16, -16], [16, -16], [-16, 16], [16, 16]]) {
      g.append(s('circle', { cx: cx + dx, cy: cy + dy, r: 4, class: 'cell-dot' }));
    }
  }
  return g;
}

// --- the static part: frame, cells, exit ---------------------------------------------------------

function drawCells(svg, geo) {
  const frame = s('g', { class: 'frame' });
  const cells = s('g', { class: 'cells' });
  for (const cell of CELLS) {
    const p = geo.xy(cell);
    frame.append(s('rect', { x: p.x - 7, y: p.y - 7, width: C + 14, height: C + 14, rx: 10 }));
    const g = s('g', { class: ['cell', ROSETTES.has(cell) ? 'is-rosette' : ''], 'data-cell': cell });
    g.append(s('rect', { x: p.x + 3, y: p.y + 3, width: C - 6, height: C - 6, rx: 6, class: 'cell-bg' }));
    g.append(cellDecor(cell, p.x + C / 2, p.y + C / 2));
    g.append(s('text', { x: p.x + 7, y: p.y + 14, class: 'cell-label' }, cell));
    cells.append(g);
  }
  const m1 = geo.center('M1');
  svg.append(frame, cells,
    s('text', { x: BX - 40, y: m1.y - 22, class: 'zone-label' }, 'exit'),
    s('path', { d: `M ${BX - 4} ${m1.y} l -16 -10 v 20 z`, class: 'exit-arrow' }));
}

// --- the dynamic part ----------------------------------------------------------------------------

function drawTrays(layer, geo, view, bottom) {
  for (const seat of [0, 1]) {
    const list = (view.pieces || [])[seat] || [];
    const waiting = list.filter((p) => p === 0).length;
    const off = list.filter((p) => p >= 24).length;
    const ty = geo.trayY(seat);
    const tray = s('g', { class: ['tray', `tray-${ROLES[seat]}`], 'data-tray': ROLES[seat] });
    const x0 = BX + 4 * C + 8;
    tray.append(s('rect', { x: x0, y: ty - 24, width: 4 * C - 16, height: 48, rx: 24, class: 'tray-bg', 'data-waiting': waiting }));
    for (let i = 0; i < 7; i++) {
      const cx = x0 + 24 + i * 27;
      if (i < waiting) tray.append(disc(cx, ty, 11, seat, false, 1, 'mini'));
      else tray.append(s('circle', { cx, cy: ty, r: 11, class: 'slot' }));
    }
    tray.append(s('text', { x: x0 + 4 * C - 30, y: ty, class: 'tray-count' }, String(waiting)));
    tray.append(s('title', {}, `${COLOUR[seat]}: ${waiting} waiting`));
    const home = s('g', { class: ['home', `home-${ROLES[seat]}`], 'data-off': off });
    home.append(s('rect', { x: 6, y: ty - 24, width: BX - 14, height: 48, rx: 12, class: 'tray-bg' }));
    if (off > 0) home.append(disc(BX / 2 - 2, ty, 16, seat, true, off, 'home-disc'));
    else home.append(s('text', { x: BX / 2 - 2, y: ty, class: 'tray-count dim' }, '0'));
    home.append(s('title', {}, `${COLOUR[seat]}: ${off} borne off`));
    const lbl = `${COLOUR[seat]} · waiting ${waiting} · off ${off}/7`;
    layer.append(tray, home,
      s('text', { x: BX, y: ty + (seat === bottom ? 36 : -32), class: ['tray-label', `label-${ROLES[seat]}`] }, lbl));
  }
}

// The stacks on the board; a stack of the actor's that can move is clickable ("piece:<square>").
function drawPieces(L, geo, m) {
  const { view, actor, legalMoves, selected } = m;
  for (const [cell, arr] of stacksOf(view)) {
    const c = geo.center(cell);
    const sl = slots(arr.length);
    arr.slice(0, 4).forEach((st, i) => {
      const [dx, dy] = sl.at[i];
      const d = disc(c.x + dx, c.y + dy, sl.r, st.seat, st.down, st.count);
      d.append(s('title', {}, `${COLOUR[st.seat]}: ${st.count} on square ${st.square} (${cell})` +
        (st.down ? ', travelling down' : '')));
      d.setAttribute('data-square', String(st.square));
      if (st.seat !== actor || !legalMoves.has(st.square)) { L.pieces.append(d); return; }
      const to = st.square + view.value;
      const label = `Select the ${COLOUR[st.seat]} piece on square ${st.square} (${cell}) to move it to ${to} (${cellOf(st.seat, to)})`;
      const wrap = s('g', clickable(`piece:${st.square}`, label,
        () => m.handlers.select(st.square)));
      if (selected === st.square) wrap.classList.add('selected');
      wrap.append(s('circle', { cx: c.x + dx, cy: c.y + dy, r: sl.r + 5, class: 'legal-halo' }), d);
      L.overlay.append(wrap);
      if (selected === st.square) drawTarget(L, geo, m, st, { x: c.x + dx, y: c.y + dy });
    });
  }
}

// The selected piece's destination: a line to it and the "target" that makes the move.
function drawTarget(L, geo, m, st, from) {
  const to = st.square + m.view.value;
  const cell = cellOf(st.seat, to);
  const tc = geo.center(cell);
  L.previews.append(s('line', { x1: from.x, y1: from.y, x2: tc.x, y2: tc.y, class: 'preview-line' }));
  const t = s('g', clickable('target', `Move the ${COLOUR[st.seat]} piece from square ${st.square} to ${to} (${cell})`,
    () => m.handlers.act({ move: st.square })));
  t.classList.add('move-target');
  t.setAttribute('data-target', cell);
  t.append(s('rect', { x: tc.x - C / 2 + 3, y: tc.y - C / 2 + 3, width: C - 6, height: C - 6, rx: 6, class: 'target-hit' }),
    s('circle', { cx: tc.x, cy: tc.y, r: 30, class: 'preview-ring' }));
  L.top.append(t);
}

// Entries: a badge in the actor's tray under the target cell ("enter:<square>"); bearing off: a
// badge at the exit ("bear_off").
function drawBadges(svg, L, geo, m) {
  const { legal, actor } = m;
  if (actor === undefined) return;
  for (const a of legal) {
    if (!a || !('enter' in a)) continue;
    const cell = cellOf(actor, a.enter);
    if (!cell) continue;
    const tc = geo.center(cell);
    const ty = geo.trayY(actor);
    L.targets.append(s('rect', { x: tc.x - C / 2 + 3, y: tc.y - C / 2 + 3, width: C - 6, height: C - 6, rx: 6, class: 'target-cell' }));
    L.previews.append(s('line', { x1: tc.x, y1: ty, x2: tc.x, y2: tc.y, class: 'enter-line' }));
    const b = s('g', clickable(`enter:${a.enter}`, `Enter a ${COLOUR[actor]} piece on square ${a.enter} (${cell})`,
      () => m.handlers.act(a)));
    b.classList.add('enter-badge');
    b.append(s('circle', { cx: tc.x, cy: ty, r: 19, class: 'badge-bg' }),
      s('text', { x: tc.x, y: ty, class: 'badge-text' }, `+${a.enter}`));
    L.overlay.append(b);
    const tray = svg.querySelector(`[data-tray="${ROLES[actor]}"]`);
    if (tray) tray.classList.add('tray-active');
  }
  const m1 = geo.center('M1');
  for (const a of legal) {
    if (!a || !a.bear_off) continue;
    const b = s('g', clickable('bear_off', `Bear off the ${COLOUR[actor]} pieces on square 23`, () => m.handlers.act(a)));
    b.classList.add('bear-badge');
    b.append(s('circle', { cx: BX / 2 - 2, cy: m1.y, r: 22, class: 'badge-bg' }),
      s('text', { x: BX / 2 - 2, y: m1.y, class: 'badge-text small' }, 'off'));
    L.overlay.append(b);
    L.targets.append(s('rect', { x: m1.x - C / 2 + 3, y: m1.y - C / 2 + 3, width: C - 6, height: C - 6, rx: 6, class: 'target-cell' }));
  }
}

// --- the board object ----------------------------------------------------------------------------

// handlers: {select(square | null), act(action)}. Returns {el, render(model)} where model is
// {state, viewerSeat, legal, selected: square | null}.
export function createBoard(handlers) {
  const svg = s('svg', { viewBox: `0 0 ${W} ${H}`, class: 'ur-board', role: 'img', 'aria-label': 'Royal Game of Ur board' });
  let bottom = null;
  let L = null;
  const layers = () => {
    const names = ['trays', 'targets', 'pieces', 'previews', 'overlay', 'top']; // top: the move target, above every piece
    const out = {};
    for (const n of names) { out[n] = s('g', { class: n }); svg.append(out[n]); }
    return out;
  };
  const render = ({ state, viewerSeat, legal, selected }) => {
    const b = viewerSeat === 1 ? 1 : 0;
    const geo = geometry(b);
    if (b !== bottom) {
      // First render, or the viewer took the other seat: the board turns, so draw it again.
      while (svg.firstChild) svg.firstChild.remove();
      svg.append(s('title', {}, 'Royal Game of Ur board'));
      drawCells(svg, geo);
      L = layers();
      bottom = b;
    } else {
      for (const g of Object.values(L)) while (g.firstChild) g.firstChild.remove();
    }
    const view = state.view || {};
    const actor = (state.to_act || [])[0];
    const legalMoves = new Set(legal.filter((a) => a && 'move' in a).map((a) => a.move));
    const m = { view, actor, legal, legalMoves, selected, handlers };
    drawTrays(L.trays, geo, view, b);
    drawPieces(L, geo, m);
    drawBadges(svg, L, geo, m);
  };
  return { el: svg, render };
}
