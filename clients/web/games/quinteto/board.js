// board.js: the Quinteto board in SVG (protocol/games/quinteto/README.md, "Board"): 25 rooms on a pentagon, numbered 0..24
// clockwise with side s's rooms 5s..5s+4 along its edge and its home (5s+2, marked in the side's colour) in the
// middle; a limbo cell per side between the ring and the centre; the killing circle with slots 1..5 and an
// arrow from each marker to the one it hunts; the centre.
//
// createBoard(handlers, t) builds the static part once; render(model) redraws the stones, the clickable
// stones ("stone:<id>", a halo), the selected stone's landing rooms (a ring, a ✕ where it would capture), the
// last move's rooms and a highlighted log entry's rooms, and the circle (or the arranger's chain being built).
// It sends nothing itself: a click calls handlers.stone(id).

import { s } from '../../dom.js';
import { clickable } from '../common.js';

export const ROLES = ['hunter', 'hunter', 'hunter', 'hunter', 'hunter', 'arranger'];
export const HOMES = [2, 7, 12, 17, 22];

const CX = 320;
const CY = 330;
const R = 282;        // pentagon vertex radius
const ROOM_R = 25;
const LIMBO_R = 150;  // distance of a limbo cell from the centre
const CIRCLE_R = 78;  // the killing circle

const rad = (deg) => (deg * Math.PI) / 180;
const vertex = (i) => ({ x: CX + R * Math.cos(rad(-126 + 72 * i)), y: CY + R * Math.sin(rad(-126 + 72 * i)) });

// The centre of room r (0..24): side s = r div 5, spread along the edge from vertex s to vertex s+1.
export function roomXY(r) {
  const side = Math.floor(r / 5);
  const a = vertex(side);
  const b = vertex(side + 1);
  const f = ((r % 5) + 0.5) / 5;
  const x = a.x + (b.x - a.x) * f;
  const y = a.y + (b.y - a.y) * f;
  return { x: CX + (x - CX) * 0.9, y: CY + (y - CY) * 0.9 };
}

export function limboXY(side) {
  const ang = rad(-90 + 72 * side);
  return { x: CX + LIMBO_R * Math.cos(ang), y: CY + LIMBO_R * Math.sin(ang) };
}

export function slotXY(slot) { // slot 0..4 (label 1..5)
  const ang = rad(-90 + 72 * slot);
  return { x: CX + CIRCLE_R * Math.cos(ang), y: CY + CIRCLE_R * Math.sin(ang) };
}

// Offsets of up to six stones sharing a cell.
function spread(n, i, r) {
  if (n <= 1) return [0, 0];
  const ang = rad(-90 + (360 / n) * i);
  return [r * Math.cos(ang), r * Math.sin(ang)];
}

function stoneShape(x, y, seat, k, extra) {
  const g = s('g', { class: ['stone', `seat-c${seat}`, extra], 'data-stone': String(k) });
  g.append(s('circle', { cx: x, cy: y, r: 9.5, class: 'stone-body' }));
  return g;
}

function drawStatic(svg, t) {
  const ring = s('g', { class: 'q-static' });
  const pts = [0, 1, 2, 3, 4].map((i) => vertex(i)).map((p) => `${p.x},${p.y}`).join(' ');
  ring.append(s('polygon', { points: pts, class: 'q-pentagon' }));
  for (let side = 0; side < 5; side++) {
    const l = limboXY(side);
    ring.append(s('rect', { x: l.x - 26, y: l.y - 17, width: 52, height: 34, rx: 9, class: ['q-limbo', `seat-c${side}`], 'data-limbo': String(side) }));
    ring.append(s('text', { x: l.x, y: l.y - 23, class: 'q-limbo-label' }, t('where.limbo')));
  }
  for (let r = 0; r < 25; r++) {
    const p = roomXY(r);
    const home = r % 5 === 2;
    const g = s('g', { class: ['q-room', home ? 'is-home' : '', home ? `seat-c${(r - 2) / 5}` : ''], 'data-room': String(r) });
    g.append(s('circle', { cx: p.x, cy: p.y, r: ROOM_R, class: 'q-room-bg' }));
    if (home) g.append(s('circle', { cx: p.x, cy: p.y, r: ROOM_R + 5, class: 'q-home-ring' }));
    const out = { x: CX + (p.x - CX) * 1.13, y: CY + (p.y - CY) * 1.13 };
    g.append(s('text', { x: out.x, y: out.y, class: 'q-room-label' }, String(r)));
    ring.append(g);
  }
  ring.append(s('circle', { cx: CX, cy: CY, r: CIRCLE_R + 22, class: 'q-circle' }));
  for (let i = 0; i < 5; i++) {
    const p = slotXY(i);
    ring.append(s('circle', { cx: p.x, cy: p.y, r: 17, class: 'q-slot', 'data-slot': String(i + 1) }));
    const lp = { x: CX + (p.x - CX) * 1.42, y: CY + (p.y - CY) * 1.42 };
    ring.append(s('text', { x: lp.x, y: lp.y, class: 'q-slot-label' }, String(i + 1)));
  }
  ring.append(s('circle', { cx: CX, cy: CY, r: 6, class: 'q-centre' }));
  const defs = s('defs', {}, s('marker', { id: 'q-arrow', viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 6,
    markerHeight: 6, orient: 'auto-start-reverse' }, s('path', { d: 'M0,0 L10,5 L0,10 z', class: 'q-arrow-head' })));
  svg.append(defs, ring);
}

// Where each stone is drawn: Map cell key ("r7", "l2") -> [stone ids].
function cellsOf(view) {
  const map = new Map();
  (view.stones || []).forEach((st, k) => {
    let key = null;
    if (st.where === 'room') key = `r${st.room}`;
    else if (st.where === 'limbo') key = `l${st.seat === 5 ? 'a' : st.seat}`;
    if (!key) return;
    if (!map.has(key)) map.set(key, []);
    map.get(key).push(k);
  });
  return map;
}

function cellXY(key) {
  if (key[0] === 'r') return roomXY(Number(key.slice(1)));
  if (key === 'la') return { x: CX, y: CY + LIMBO_R + 40 };
  return limboXY(Number(key.slice(1)));
}

function drawCircle(layer, circle) {
  const slots = (circle || []).map((seat, i) => ({ seat, i })).filter((x) => x.seat !== null && x.seat !== undefined);
  for (const { seat, i } of slots) {
    const p = slotXY(i);
    layer.append(s('circle', { cx: p.x, cy: p.y, r: 13, class: ['q-marker', `seat-c${seat}`], 'data-marker': String(seat) }));
  }
  if (slots.length < 2) return;
  slots.forEach((a, j) => {
    const b = slots[(j + 1) % slots.length];
    const p = slotXY(a.i);
    const q = slotXY(b.i);
    const dx = q.x - p.x;
    const dy = q.y - p.y;
    const len = Math.hypot(dx, dy) || 1;
    const ux = dx / len;
    const uy = dy / len;
    // bow the chord outwards so arrows between neighbours and across the circle stay apart
    const mx = (p.x + q.x) / 2 + (-(uy)) * 10;
    const my = (p.y + q.y) / 2 + ux * 10;
    layer.append(s('path', { d: `M ${p.x + ux * 15} ${p.y + uy * 15} Q ${mx} ${my} ${q.x - ux * 16} ${q.y - uy * 16}`,
      class: ['q-hunts', `seat-c${a.seat}`], 'marker-end': 'url(#q-arrow)' }));
  });
}

function roomMark(layer, key, cls) {
  if (!key) return;
  const p = cellXY(key);
  layer.append(s('circle', { cx: p.x, cy: p.y, r: ROOM_R + 2, class: cls }));
}

// handlers: {stone(id)}; t: the game's translator. model: {view, clickable: Map(id -> label), selected: id |
// null, targets: [{key, captures}] (the selected stone's landings and how many stones each captures, from the
// local rules), last: [cell keys], hl: [cell keys], circle: [seat|null x5], animate: bool,
// landed: [cell keys]}.
export function createBoard(handlers, t) {
  const svg = s('svg', { class: 'q-board', viewBox: '0 0 640 660', role: 'group', 'aria-label': t('aria.board') });
  drawStatic(svg, t);
  const layers = {};
  for (const n of ['marks', 'circle', 'stones', 'targets', 'overlay']) { layers[n] = s('g', { class: `q-${n}` }); svg.append(layers[n]); }
  let model = null;
  const render = (m) => {
    model = m;
    for (const g of Object.values(layers)) while (g.firstChild) g.firstChild.remove();
    for (const key of m.last || []) roomMark(layers.marks, key, 'q-last');
    for (const key of m.hl || []) roomMark(layers.marks, key, 'q-hl');
    drawCircle(layers.circle, m.circle);
    for (const [key, ids] of cellsOf(m.view)) {
      const c = cellXY(key);
      ids.forEach((k, i) => {
        const [dx, dy] = spread(ids.length, i, ids.length > 3 ? 14 : 11);
        const seat = Math.floor(k / 3);
        const landed = m.animate && (m.landed || []).includes(key);
        const shape = stoneShape(c.x + dx, c.y + dy, seat, k, landed ? 'just-landed' : '');
        if (!m.clickable || !m.clickable.has(k)) { layers.stones.append(shape); return; }
        const wrap = s('g', clickable(`stone:${k}`, m.clickable.get(k), () => handlers.stone(k)));
        if (m.selected === k) wrap.classList.add('selected');
        wrap.append(s('circle', { cx: c.x + dx, cy: c.y + dy, r: 14, class: 'legal-halo' }), shape);
        layers.overlay.append(wrap);
      });
    }
    for (const tg of m.targets || []) {
      const p = cellXY(tg.key);
      layers.targets.append(s('circle', { cx: p.x, cy: p.y, r: ROOM_R - 3, class: ['q-target', tg.captures ? 'captures' : ''],
        'data-room': tg.key.slice(1), 'data-captures': String(tg.captures || 0) }));
      if (tg.captures) layers.targets.append(s('text', { x: p.x + ROOM_R - 4, y: p.y - ROOM_R + 6, class: 'q-capture-mark' }, '✕'));
    }
  };
  return {
    el: svg,
    render,
    highlight(keys) { if (model) render({ ...model, hl: keys || [] }); },
  };
}
