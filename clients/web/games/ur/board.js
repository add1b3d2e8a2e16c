// board.js: the Royal Game of Ur board in SVG (protocol/games/ur/README.md, "On the wire"), kept across states.
//
// createBoard(handlers, t) builds the SVG once; render(model) redraws only what a state changes (the
// pieces, the trays, the legal targets, the marks of the last move and of a highlighted log entry)
// and rebuilds the cells only when the viewer's seat turns the board the other way or the screen
// turns between portrait and landscape (on a phone held upright the board stands upright, row 1 at
// the bottom, so it fills the width). Cells keep their names (L/M/K + row) whichever way it is
// turned. A piece that just moved slides from where it left (not under prefers-reduced-motion).
// Clickable parts follow common.js clickable(): "piece:<square>" selects a piece that can move,
// "target" moves the selected piece, "enter:<square>" and "bear_off" act at once. It sends
// nothing itself: it calls handlers.select(square | null), handlers.act(action).
// Where a piece lands, and what it captures there, is the local rules' answer (model.landing(square),
// from the room's rules module): the selected piece's target, and a lighter mark while a piece that can
// move has focus or the pointer. Without that answer (the module not loaded) the target is counted on
// from the dice's value, and nothing is said of captures.

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
const BADGE = 22;    // the radius of the enter and bear-off badges (31 on a phone, ur.css: 44 CSS px across)

function geometry(bottomSeat, vertical) {
  // The bottom seat's outer row is the bottom lane: Light's is L, Dark's is K.
  const lanes = bottomSeat === 1 ? { L: 0, M: 1, K: 2 } : { K: 0, M: 1, L: 2 };
  const xy = (cell) => {
    const row = Number(cell.slice(1));
    return { x: BX + (row - 1) * C, y: BY + lanes[cell[0]] * C };
  };
  const center = (cell) => { const p = xy(cell); return { x: p.x + C / 2, y: p.y + C / 2 }; };
  // Tray strip of a seat: below the board for the bottom seat, above it for the other.
  const trayY = (seat) => (seat === bottomSeat ? BY + 3 * C + 38 : BY - 38);
  return { xy, center, trayY, vertical };
}

// Text that stays upright when the board stands upright (the board is turned by -90 degrees).
function txt(geo, attrs, content) {
  const a = geo.vertical ? { ...attrs, transform: `rotate(90 ${attrs.x} ${attrs.y})` } : attrs;
  return s('text', a, content);
}

// The cells a move used: {from, to} (cell names, 'tray' or 'off'), or null for a throw or a skip.
export function moveCells(seat, action, value) {
  if (!action || seat === undefined || seat === null) return null;
  if ('move' in action) return { from: cellOf(seat, action.move), to: cellOf(seat, action.move + (value || 0)) };
  if ('enter' in action) return { from: 'tray', to: cellOf(seat, action.enter) };
  if (action.bear_off) return { from: cellOf(seat, 23), to: 'off' };
  return null;
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

function disc(geo, cx, cy, r, seat, down, count, extraClass) {
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
    g.append(txt(geo, { x: cx, y: cy, class: 'piece-count', 'font-size': r * (count > 1 ? 0.95 : 0.8) },
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

function drawCells(svg, geo, t) {
  const frame = s('g', { class: 'frame' });
  const cells = s('g', { class: 'cells' });
  for (const cell of CELLS) {
    const p = geo.xy(cell);
    frame.append(s('rect', { x: p.x - 7, y: p.y - 7, width: C + 14, height: C + 14, rx: 10 }));
    const g = s('g', { class: ['cell', ROSETTES.has(cell) ? 'is-rosette' : ''], 'data-cell': cell });
    g.append(s('rect', { x: p.x + 3, y: p.y + 3, width: C - 6, height: C - 6, rx: 6, class: 'cell-bg' }));
    g.append(cellDecor(cell, p.x + C / 2, p.y + C / 2));
    // Top left as seen: upright, that is the cell's far end on the route axis.
    const at = geo.vertical ? { x: p.x + C - 14, y: p.y + 8 } : { x: p.x + 7, y: p.y + 14 };
    g.append(txt(geo, { ...at, class: 'cell-label' }, cell));
    cells.append(g);
  }
  const m1 = geo.center('M1');
  svg.append(frame, cells,
    txt(geo, { x: BX - 40, y: m1.y - 22, class: 'zone-label' }, t('exit')),
    s('path', { d: `M ${BX - 4} ${m1.y} l -16 -10 v 20 z`, class: 'exit-arrow' }));
}

// --- the dynamic part ----------------------------------------------------------------------------

function drawTrays(layer, geo, view, bottom, t) {
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
      if (i < waiting) tray.append(disc(geo, cx, ty, 11, seat, false, 1, 'mini'));
      else tray.append(s('circle', { cx, cy: ty, r: 11, class: 'slot' }));
    }
    tray.append(txt(geo, { x: x0 + 4 * C - 30, y: ty, class: 'tray-count' }, String(waiting)));
    const home = s('g', { class: ['home', `home-${ROLES[seat]}`], 'data-off': off });
    home.append(s('rect', { x: 6, y: ty - 24, width: BX - 14, height: 48, rx: 12, class: 'tray-bg' }));
    if (off > 0) home.append(disc(geo, BX / 2 - 2, ty, 16, seat, true, off, 'home-disc'));
    else home.append(txt(geo, { x: BX / 2 - 2, y: ty, class: 'tray-count dim' }, '0'));
    const lbl = t('tray', { role: t(`role.${ROLES[seat]}`), waiting, off });
    layer.append(tray, home);
    if (!geo.vertical) {
      layer.append(s('text', { x: BX, y: ty + (seat === bottom ? 36 : -32), class: ['tray-label', `label-${ROLES[seat]}`] }, lbl));
    }
  }
}

// Where the actor's piece on `square` lands: {to, captured: [square], source}, source 'rules' when the local
// rules said so (captured then lists the other side's squares whose pieces it sends back), 'dice' when
// counted on from the dice's value without them.
function landingOf(m, square) {
  const land = m.landing ? m.landing(square) : null;
  if (land) return { to: land.to, captured: land.captured, source: 'rules' };
  return { to: square + (m.view.value || 0), captured: [], source: 'dice' };
}

// The actor's stacks that can move in `cell` (its route squares), in the order they are drawn.
function movableIn(arr, actor, legalMoves) {
  return arr.slice(0, 4).filter((st) => st.seat === actor && legalMoves.has(st.square)).map((st) => st.square);
}

// The square a tap on a cell selects, among the actor's stacks there that can move (`squares`): the first, or,
// when one of them is selected, the next one round (two stacks of one side share a cell on the middle row,
// one going up and one coming back).
export function nextInCell(squares, selected) {
  const i = squares.indexOf(selected);
  return i < 0 ? squares[0] : squares[(i + 1) % squares.length];
}

// A screen touched with a finger: where two stacks that can move share a cell, the cell is one target (a tap
// chooses one, the next tap the other), since half a cell is too small for a finger; with a mouse each stack
// is a target of its own, its half of the cell.
export const COARSE = '(pointer: coarse)';

// The stacks on the board. What selects a piece that can move is its whole cell (a "piece:<square>" group: the
// cell's area, the halo and the disc). Where two of the actor's stacks that can move share the cell: with a
// mouse, each its part of the cell; on a touch screen (m.coarse) the cell, named by the first of them, a tap
// choosing one and the next tap the other.
function drawPieces(L, geo, m) {
  const { view, actor, legalMoves, selected, t } = m;
  const role = (seat) => t(`role.${ROLES[seat]}`);
  for (const [cell, arr] of stacksOf(view)) {
    const c = geo.center(cell);
    const p = geo.xy(cell);
    const sl = slots(arr.length);
    const at = (k) => ({ x: c.x + sl.at[k][0], y: c.y + sl.at[k][1] });
    const movable = movableIn(arr, actor, legalMoves);
    const whole = movable.length === 1 || m.coarse;
    const picks = new Map(); // square -> the group that selects it (on a touch screen, one for the cell)
    const pick = (squares, sq, hit) => {
      const land = landingOf(m, sq);
      const label = t('aria.select', { role: role(actor), cell, to: cellOf(actor, land.to) });
      const wrap = s('g', clickable(`piece:${squares[0]}`, label, () => m.handlers.select(sq)));
      wrap.classList.add('piece-pick');
      wrap.setAttribute('data-cell', cell);
      if (squares.length > 1) wrap.setAttribute('data-squares', squares.join(' '));
      if (squares.includes(selected)) wrap.classList.add('selected');
      wrap.append(s('rect', { ...hit, rx: 6, class: 'pick-hit' }));
      if (!squares.includes(selected)) {
        const k = arr.findIndex((st) => st.seat === actor && st.square === sq);
        const show = () => drawPeek(L, geo, arr[k], land, at(k));
        const hide = () => { while (L.peek.firstChild) L.peek.firstChild.remove(); };
        for (const ev of ['focus', 'pointerenter']) wrap.addEventListener(ev, show);
        for (const ev of ['blur', 'pointerleave']) wrap.addEventListener(ev, hide);
      }
      L.overlay.append(wrap);
      for (const x of squares) picks.set(x, wrap);
    };
    const cellHit = { x: p.x + 3, y: p.y + 3, width: C - 6, height: C - 6 };
    if (movable.length && whole) pick(movable, nextInCell(movable, selected), cellHit);
    else {
      for (const sq of movable) { // its part of the cell: a half (two stacks in it) or a quarter (more)
        const k = arr.findIndex((st) => st.seat === actor && st.square === sq);
        const q = at(k);
        const half = C / 2 - 3;
        pick([sq], sq, arr.length === 2 ? { x: q.x - half / 2 - 0.5, y: p.y + 3, width: half, height: C - 6 }
          : { x: q.x - half / 2 - 0.5, y: q.y - half / 2 - 0.5, width: half, height: half });
      }
    }
    arr.slice(0, 4).forEach((st, i) => {
      const d = disc(geo, at(i).x, at(i).y, sl.r, st.seat, st.down, st.count);
      d.setAttribute('data-square', String(st.square));
      d.setAttribute('data-seat', String(st.seat));
      const wrap = st.seat === actor ? picks.get(st.square) : null;
      if (!wrap) { L.pieces.append(d); return; }
      wrap.append(s('circle', { cx: at(i).x, cy: at(i).y, r: sl.r + 5, class: ['legal-halo', selected === st.square ? 'chosen' : null] }), d);
      if (selected === st.square) drawTarget(L, geo, m, st, landingOf(m, st.square), at(i));
    });
  }
}

// The cells of the other side's (`seat`'s) pieces a move would capture, marked.
function drawCaptures(layer, geo, seat, land, cls) {
  for (const sq of land.captured) layer.append(cellRect(geo, cellOf(seat, sq), cls));
}

// What the board says of a landing, for people (aria) and for tests: its cell, its square, its source and
// the other side's squares it captures.
function landingAttrs(el, land) {
  el.setAttribute('data-to', String(land.to));
  el.setAttribute('data-preview', land.source);
  if (land.captured.length) el.setAttribute('data-captures', land.captured.join(' '));
}

// The selected piece's destination: a line to it, the pieces it would capture, and the "target" that
// makes the move (data-target its cell, data-preview where the cell came from).
function drawTarget(L, geo, m, st, land, from) {
  const cell = cellOf(st.seat, land.to);
  const tc = geo.center(cell);
  L.previews.append(s('line', { x1: from.x, y1: from.y, x2: tc.x, y2: tc.y, class: 'preview-line' }));
  drawCaptures(L.previews, geo, 1 - st.seat, land, 'preview-capture');
  const tg = s('g', clickable('target', m.t('aria.target', { role: m.t(`role.${ROLES[st.seat]}`), cell: cellOf(st.seat, st.square), to: cell }),
    () => m.handlers.act({ move: st.square })));
  tg.classList.add('move-target');
  tg.setAttribute('data-target', cell);
  landingAttrs(tg, land);
  tg.append(s('rect', { x: tc.x - C / 2 + 3, y: tc.y - C / 2 + 3, width: C - 6, height: C - 6, rx: 6, class: 'target-hit' }),
    s('circle', { cx: tc.x, cy: tc.y, r: 30, class: 'preview-ring' }));
  L.top.append(tg);
}

// A piece that can move has focus or the pointer: where it would land, lightly (not clickable).
function drawPeek(L, geo, st, land, from) {
  while (L.peek.firstChild) L.peek.firstChild.remove();
  const cell = cellOf(st.seat, land.to);
  const tc = geo.center(cell);
  const g = s('g', { class: 'peek', 'data-peek': cell, 'data-square': String(st.square) });
  landingAttrs(g, land);
  g.append(s('line', { x1: from.x, y1: from.y, x2: tc.x, y2: tc.y, class: 'peek-line' }),
    s('circle', { cx: tc.x, cy: tc.y, r: 30, class: 'peek-ring' }));
  drawCaptures(g, geo, 1 - st.seat, land, 'peek-capture');
  L.peek.append(g);
}

// Entries: a badge in the actor's tray under the target cell ("enter:<square>"); bearing off: a
// badge at the exit ("bear_off").
function drawBadges(svg, L, geo, m) {
  const { legal, actor, t } = m;
  if (actor === undefined) return;
  for (const a of legal) {
    if (!a || !('enter' in a)) continue;
    const cell = cellOf(actor, a.enter);
    if (!cell) continue;
    const tc = geo.center(cell);
    const ty = geo.trayY(actor);
    L.targets.append(s('rect', { x: tc.x - C / 2 + 3, y: tc.y - C / 2 + 3, width: C - 6, height: C - 6, rx: 6, class: 'target-cell' }));
    L.previews.append(s('line', { x1: tc.x, y1: ty, x2: tc.x, y2: tc.y, class: 'enter-line' }));
    const b = s('g', clickable(`enter:${a.enter}`, t('aria.enter', { role: t(`role.${ROLES[actor]}`), cell }),
      () => m.handlers.act(a)));
    b.classList.add('enter-badge');
    b.append(s('circle', { cx: tc.x, cy: ty, r: BADGE, class: 'badge-bg' }),
      txt(geo, { x: tc.x, y: ty, class: 'badge-text' }, `+${cell}`));
    L.overlay.append(b);
    const tray = svg.querySelector(`[data-tray="${ROLES[actor]}"]`);
    if (tray) tray.classList.add('tray-active');
  }
  const m1 = geo.center('M1');
  for (const a of legal) {
    if (!a || !a.bear_off) continue;
    const b = s('g', clickable('bear_off', t('aria.bear', { role: t(`role.${ROLES[actor]}`), cell: 'M1' }), () => m.handlers.act(a)));
    b.classList.add('bear-badge');
    b.append(s('circle', { cx: BX / 2 - 2, cy: m1.y, r: BADGE, class: 'badge-bg' }),
      txt(geo, { x: BX / 2 - 2, y: m1.y, class: 'badge-text small' }, t('off')));
    L.overlay.append(b);
    L.targets.append(s('rect', { x: m1.x - C / 2 + 3, y: m1.y - C / 2 + 3, width: C - 6, height: C - 6, rx: 6, class: 'target-cell' }));
  }
}

// --- marks: the last move and a highlighted log entry ------------------------------------------

function cellRect(geo, cell, cls) {
  const p = geo.xy(cell);
  return s('rect', { x: p.x + 5, y: p.y + 5, width: C - 10, height: C - 10, rx: 8, class: cls });
}

function drawMarks(layer, geo, cells, prefix) {
  if (!cells) return;
  if (cells.from && CELLS.includes(cells.from)) layer.append(cellRect(geo, cells.from, `${prefix}-from`));
  if (cells.to && CELLS.includes(cells.to)) layer.append(cellRect(geo, cells.to, `${prefix}-to`));
}

// Slides the piece that has just landed from where it left (translate in the board's own units).
function animateLast(svg, geo, last, cells, reduced) {
  if (reduced || !cells || cells.to === 'off' || !CELLS.includes(cells.to)) return;
  const sq = 'move' in last.action ? last.action.move + (cells.value || 0) : last.action.enter;
  const piece = svg.querySelector(`.piece[data-seat="${last.seat}"][data-square="${sq}"]`);
  if (!piece || !piece.animate) return;
  const to = geo.center(cells.to);
  const from = cells.from === 'tray' ? { x: to.x, y: geo.trayY(last.seat) } : geo.center(cells.from);
  const dx = from.x - to.x;
  const dy = from.y - to.y;
  piece.animate([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: 'translate(0px, 0px)' }],
    { duration: 260, easing: 'ease-out' });
}

// --- the board object ----------------------------------------------------------------------------

const PORTRAIT = '(max-width: 600px) and (orientation: portrait)';

// handlers: {select(square | null), act(action)}; t: the game's translator. Returns
// {el, render(model), highlight(cells | null)} where model is {state, viewerSeat, legal,
// selected: square | null, reducedMotion: bool, lastMove: {seat, action, value} | null,
// landing(square) -> {to: square, captured: [cell]} | null (the local rules' answer, if any)}.
export function createBoard(handlers, t) {
  const svg = s('svg', { class: 'ur-board', role: 'group', 'aria-label': t('aria.board') });
  const portrait = window.matchMedia ? window.matchMedia(PORTRAIT) : null;
  const coarse = window.matchMedia ? window.matchMedia(COARSE) : null;
  let drawn = null; // "<bottom seat>:<vertical>" of the static part drawn
  let L = null;
  let geo = null;
  let model = null;
  let lastPly = null;
  let hl = null;
  const layers = (root) => {
    // marks: the last move and the highlight, under the pieces; top: the move target, above every piece
    // peek: where a piece with focus or the pointer would land
    const names = ['trays', 'marks', 'targets', 'pieces', 'previews', 'peek', 'overlay', 'top'];
    const out = {};
    for (const n of names) { out[n] = s('g', { class: n }); root.append(out[n]); }
    return out;
  };
  const render = (m) => {
    model = m;
    const { state, viewerSeat, legal, selected } = m;
    const b = viewerSeat === 1 ? 1 : 0;
    const vertical = !!(portrait && portrait.matches);
    if (drawn !== `${b}:${vertical}`) {
      // First render, the viewer took the other seat, or the phone turned: draw the board again.
      while (svg.firstChild) svg.firstChild.remove();
      geo = geometry(b, vertical);
      svg.setAttribute('viewBox', vertical ? `0 0 ${H} ${W}` : `0 0 ${W} ${H}`);
      svg.classList.toggle('vertical', vertical);
      const root = s('g', vertical ? { transform: `translate(0 ${W}) rotate(-90)` } : {});
      svg.append(root);
      drawCells(root, geo, t);
      L = layers(root);
      drawn = `${b}:${vertical}`;
      lastPly = null;
    } else {
      for (const g of Object.values(L)) while (g.firstChild) g.firstChild.remove();
    }
    const view = state.view || {};
    const actor = (state.to_act || [])[0];
    const legalMoves = new Set(legal.filter((a) => a && 'move' in a).map((a) => a.move));
    const mm = { view, actor, legal, legalMoves, selected, handlers, t, landing: m.landing, coarse: !!(coarse && coarse.matches) };
    drawTrays(L.trays, geo, view, b, t);
    // The last piece moved stays marked through the throws that follow it.
    const mv = m.lastMove;
    drawMarks(L.marks, geo, mv ? moveCells(mv.seat, mv.action, mv.value) : null, 'last');
    const last = state.last;
    const cells = last ? moveCells(last.seat, last.action, view.value) : null;
    drawMarks(L.marks, geo, hl, 'hl');
    drawPieces(L, geo, mm);
    drawBadges(svg, L, geo, mm);
    if (last && lastPly !== null && state.ply === lastPly + 1) {
      animateLast(svg, geo, last, cells && { ...cells, value: view.value }, m.reducedMotion);
    }
    lastPly = state.ply;
  };
  for (const q of [portrait, coarse]) if (q) q.addEventListener('change', () => { if (model) render(model); });
  return {
    el: svg,
    render,
    highlight(cells) { hl = cells; if (model) render(model); },
  };
}
