// board.js: the Quinteto board in SVG (protocol/games/quinteto/README.md, "Board"): 25 rooms on a pentagon, numbered 0..24
// clockwise with side s's rooms 5s..5s+4 along its edge and its home (5s+2, ringed in the side's colour) in the
// middle; a limbo cell per side between the ring and the centre (and the arranger's, at the bottom); the killing
// circle with slots 1..5 and an arrow from each marker to the one it hunts; the centre.
//
// Sized for a finger: the board is drawn to fill a phone's width (or a landscape phone's height), about 390 CSS px
// for its 600 units, and everything that can be tapped has a round hit area of HIT units (at least 44 px across
// there) centred on what it stands for. Rooms are spread evenly along the pentagon, corners included, so two
// neighbouring rooms' centres stay as far apart as a ring of 25 allows. Stones sharing a room are laid in a row
// towards the centre, never on one another, far enough apart that each one's hit area leaves the other's centre
// free; while a room is a landing, its stones stand one place further in (and a limbo's beside its box), so the
// landing's tap and each stone's stay apart. Room numbers sit outside the ring, clear of the home rings.
//
// createBoard(handlers, t) builds the static part once; render(model) redraws the stones, the clickable stones
// (a halo: "stone:<id>" to choose one of the player's stones, "kill:<die>:<id>" to kill an opponent's in the
// duel), the selected stone's landings (a ring on each room it can reach, a ✕ where it would capture; the room
// itself takes the tap: "go:<die>:<kind>:<n>"), its limbo when it may enter it, the last move's rooms, a
// highlighted log entry's rooms, the circle (or the arranger's chain being built) and the hunters out of play (their limbo crossed out).
// It sends nothing itself: a tap calls handlers.tap(token).

import { s } from '../../dom.js';
import { clickable } from '../common.js';

export const ROLES = ['hunter', 'hunter', 'hunter', 'hunter', 'hunter', 'arranger'];
export const HOMES = [2, 7, 12, 17, 22];

const CX = 300;
const CY = 290;
const RV = 262;       // the room ring's pentagon: its vertex radius
const ROOM_R = 25;    // a room's circle
const STONE_R = 15;   // a stone
const HIT = 36;       // the radius of every tap area (72 units: 44 px once the board is 367 px wide)
const STACK = 39;     // between two stones of one room (more than HIT: a tap on one centre is that stone's)
const LIMBO_R = 128;  // distance of a hunter's limbo cell from the centre
const CIRCLE_R = 70;  // the killing circle
const F0 = 0.118;     // where a side's first room sits along its edge, so corners are as wide as sides
const DF = (1 - 2 * F0) / 4;

const rad = (deg) => (deg * Math.PI) / 180;
const vertex = (i) => ({ x: CX + RV * Math.cos(rad(-126 + 72 * i)), y: CY + RV * Math.sin(rad(-126 + 72 * i)) });

// The centre of room r (0..24): side s = r div 5, spread along the edge from vertex s to vertex s+1.
export function roomXY(r) {
  const side = Math.floor(r / 5);
  const a = vertex(side);
  const b = vertex(side + 1);
  const f = F0 + (r % 5) * DF;
  return { x: a.x + (b.x - a.x) * f, y: a.y + (b.y - a.y) * f };
}

// The unit vector from room r's side towards the outside of the board (the side's normal).
function outward(r) {
  const ang = rad(-90 + 72 * Math.floor(r / 5));
  return { x: Math.cos(ang), y: Math.sin(ang) };
}

export function limboXY(side) {
  if (side === 'a' || side === 5) return { x: CX, y: CY + LIMBO_R };
  const ang = rad(-90 + 72 * side);
  return { x: CX + LIMBO_R * Math.cos(ang), y: CY + LIMBO_R * Math.sin(ang) };
}

export function slotXY(slot) { // slot 0..4 (label 1..5)
  const ang = rad(-90 + 72 * slot);
  return { x: CX + CIRCLE_R * Math.cos(ang), y: CY + CIRCLE_R * Math.sin(ang) };
}

// Where the i-th of n stones of a cell stands: in a room, the first on the room and the others in pairs
// behind it towards the board's centre (two stones STACK apart or more, so neither's tap area covers the
// other's centre; rows of neighbouring rooms spread apart, even at a corner); in a limbo cell, side by side.
function stoneXY(key, i, n) {
  const c = cellXY(key);
  if (key[0] === 'r') {
    const len = Math.hypot(c.x - CX, c.y - CY) || 1;
    const ux = (c.x - CX) / len;
    const uy = (c.y - CY) / len;
    let depth = 0;
    let side = 0;
    if (n === 2 && i === 1) depth = STACK;
    else if (i > 0) {
      const row = Math.ceil(i / 2);
      depth = n > 5 ? 22 * row : STACK * row;
      side = (i === n - 1 && i % 2 === 1) ? 0 : (i % 2 ? -21 : 21);
      if (n > 5) side *= 0.8;
    }
    return { x: c.x - ux * depth - uy * side, y: c.y - uy * depth + ux * side };
  }
  const gap = n > 2 ? 30 : 2 * 20;
  return { x: c.x + (i - (n - 1) / 2) * gap, y: c.y };
}

// Where the i-th stone of a limbo cell that is a target stands: right, left, then further out, each HIT and
// more from the centre, so the target's tap area and each stone's centre stay apart.
function besideGoal(key, i) {
  const c = cellXY(key);
  return { x: c.x + (i % 2 ? -1 : 1) * (HIT + 16) * (1 + Math.floor(i / 2)), y: c.y };
}

function stoneShape(x, y, seat, k, extra) {
  const g = s('g', { class: ['stone', `seat-c${seat}`, extra], 'data-stone': String(k) });
  g.append(s('circle', { cx: x, cy: y, r: STONE_R, class: 'stone-body' }));
  if (seat === 5) g.append(s('circle', { cx: x, cy: y, r: 5, class: 'stone-dot' }));
  return g;
}

function drawStatic(svg, t) {
  const ring = s('g', { class: 'q-static' });
  const pts = [0, 1, 2, 3, 4].map((i) => vertex(i)).map((p) => `${p.x},${p.y}`).join(' ');
  ring.append(s('polygon', { points: pts, class: 'q-pentagon' }));
  for (const side of [0, 1, 2, 3, 4, 'a']) {
    const l = limboXY(side);
    ring.append(s('rect', { x: l.x - 40, y: l.y - 21, width: 80, height: 42, rx: 10,
      class: ['q-limbo', `seat-c${side === 'a' ? 5 : side}`], 'data-limbo': String(side) }));
  }
  for (let r = 0; r < 25; r++) {
    const p = roomXY(r);
    const home = r % 5 === 2;
    const g = s('g', { class: ['q-room', home ? 'is-home' : '', home ? `seat-c${(r - 2) / 5}` : ''], 'data-room': String(r) });
    g.append(s('circle', { cx: p.x, cy: p.y, r: ROOM_R, class: 'q-room-bg' }));
    if (home) g.append(s('circle', { cx: p.x, cy: p.y, r: ROOM_R + 5, class: 'q-home-ring' }));
    const o = outward(r);
    const d = home ? ROOM_R + 24 : ROOM_R + 13; // outside the room, and clear of a home's ring
    g.append(s('text', { x: p.x + o.x * d, y: p.y + o.y * d, class: ['q-room-label', home ? 'q-home-label' : ''] }, String(r)));
    ring.append(g);
  }
  ring.append(s('circle', { cx: CX, cy: CY, r: CIRCLE_R + 20, class: 'q-circle' }));
  for (let i = 0; i < 5; i++) {
    const p = slotXY(i);
    ring.append(s('circle', { cx: p.x, cy: p.y, r: 15, class: 'q-slot', 'data-slot': String(i + 1) }));
    const lp = { x: CX + (p.x - CX) * 1.4, y: CY + (p.y - CY) * 1.4 };
    ring.append(s('text', { x: lp.x, y: lp.y, class: 'q-slot-label' }, String(i + 1)));
  }
  ring.append(s('circle', { cx: CX, cy: CY, r: 5, class: 'q-centre' }));
  const defs = s('defs', {}, s('marker', { id: 'q-arrow', viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 6,
    markerHeight: 6, orient: 'auto-start-reverse' }, s('path', { d: 'M0,0 L10,5 L0,10 z', class: 'q-arrow-head' })));
  svg.append(defs, ring);
}

// Where each stone is drawn: Map cell key ("r7", "l2", "la" for the arranger's limbo) -> [stone ids].
function cellsOf(view) {
  const map = new Map();
  (view.stones || []).forEach((st, k) => {
    const key = cellKey(st);
    if (!key) return;
    if (!map.has(key)) map.set(key, []);
    map.get(key).push(k);
  });
  return map;
}

// The cell key of a stone's place ({seat, where, room?}), or null when it is on no cell.
export function cellKey(st) {
  if (!st) return null;
  if (st.where === 'room') return `r${st.room}`;
  if (st.where === 'limbo') return `l${st.seat === 5 ? 'a' : st.seat}`;
  return null;
}

function cellXY(key) {
  if (key[0] === 'r') return roomXY(Number(key.slice(1)));
  return limboXY(key === 'la' ? 'a' : Number(key.slice(1)));
}

function drawCircle(layer, circle) {
  const slots = (circle || []).map((seat, i) => ({ seat, i })).filter((x) => x.seat !== null && x.seat !== undefined);
  for (const { seat, i } of slots) {
    const p = slotXY(i);
    layer.append(s('circle', { cx: p.x, cy: p.y, r: 12, class: ['q-marker', `seat-c${seat}`], 'data-marker': String(seat) }));
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
    const mx = (p.x + q.x) / 2 + (-(uy)) * 9;
    const my = (p.y + q.y) / 2 + ux * 9;
    layer.append(s('path', { d: `M ${p.x + ux * 14} ${p.y + uy * 14} Q ${mx} ${my} ${q.x - ux * 15} ${q.y - uy * 15}`,
      class: ['q-hunts', `seat-c${a.seat}`], 'marker-end': 'url(#q-arrow)' }));
  });
}

function roomMark(layer, key, cls) {
  if (!key) return;
  const p = cellXY(key);
  if (key[0] === 'l') layer.append(s('rect', { x: p.x - 44, y: p.y - 25, width: 88, height: 50, rx: 12, class: cls }));
  else layer.append(s('circle', { cx: p.x, cy: p.y, r: ROOM_R + 3, class: cls }));
}

// A tap area: an invisible circle of radius HIT under what is drawn (so the element's box is at least 2 HIT).
const hitArea = (x, y) => s('circle', { cx: x, cy: y, r: HIT, class: 'q-hit' });

// handlers: {tap(token)}; t: the game's translator. model: {view, stones: Map(id -> {token, label}) (the stones
// that take a tap: the player's own to choose, an opponent's to kill), selected: id | null, targets: [{key,
// token, label, captures}] (where the selected stone can go: a room "r<n>" or a limbo "l<seat>"; captures: how
// many stones it takes there, from the local rules, or null), last: [cell keys], hl: [cell keys], circle:
// [seat|null x5], out: [seat] (hunters out of play), animate: bool, landed: [cell keys]}.
export function createBoard(handlers, t) {
  const svg = s('svg', { class: 'q-board', viewBox: '0 0 600 590', role: 'group', 'aria-label': t('aria.board') });
  drawStatic(svg, t);
  const layers = {};
  for (const n of ['marks', 'circle', 'stones', 'overlay', 'targets']) { layers[n] = s('g', { class: `q-${n}` }); svg.append(layers[n]); }
  let model = null;
  const render = (m) => {
    model = m;
    for (const g of Object.values(layers)) while (g.firstChild) g.firstChild.remove();
    for (const key of m.last || []) roomMark(layers.marks, key, 'q-last');
    for (const key of m.hl || []) roomMark(layers.marks, key, 'q-hl');
    for (const seat of m.out || []) {
      const l = limboXY(seat);
      layers.marks.append(s('path', { d: `M ${l.x - 30} ${l.y - 14} L ${l.x + 30} ${l.y + 14} M ${l.x - 30} ${l.y + 14} L ${l.x + 30} ${l.y - 14}`,
        class: ['q-out-cross', `seat-c${seat}`], 'data-out': String(seat) }));
    }
    drawCircle(layers.circle, m.circle);
    const clickStones = m.stones || new Map();
    // A room that is a target keeps its centre for the target: its stones stand as if the target were its
    // first stone, so a stone there that takes a tap (another of the player's own, to choose instead; an
    // opponent's, to kill) keeps a centre of its own, outside the target's tap area, and the target keeps its
    // own (drawn over the room's first stone, the target took every tap meant for that stone).
    // A limbo that is a target (a stone going in with a 6) keeps its centre the same way: its stones stand
    // on either side of the target's box, beyond its tap area.
    const goals = new Set((m.targets || []).map((tg) => tg.key));
    for (const [key, ids] of cellsOf(m.view)) {
      const shift = goals.has(key) && key[0] === 'r' ? 1 : 0;
      ids.forEach((k, i) => {
        const p = goals.has(key) && key[0] === 'l' ? besideGoal(key, i) : stoneXY(key, i + shift, ids.length + shift);
        const seat = Math.floor(k / 3);
        const landed = m.animate && (m.landed || []).includes(key);
        const shape = stoneShape(p.x, p.y, seat, k, landed ? 'just-landed' : '');
        const c = clickStones.get(k);
        if (!c) { layers.stones.append(shape); return; }
        const wrap = s('g', clickable(c.token, c.label, () => handlers.tap(c.token)));
        wrap.classList.add(c.token.startsWith('kill:') ? 'q-killable' : 'q-pickable');
        if (m.selected === k) { wrap.classList.add('selected'); wrap.setAttribute('aria-pressed', 'true'); }
        wrap.append(hitArea(p.x, p.y), s('circle', { cx: p.x, cy: p.y, r: STONE_R + 6, class: 'legal-halo' }), shape);
        layers.overlay.append(wrap);
      });
    }
    for (const tg of m.targets || []) {
      const p = cellXY(tg.key);
      const room = tg.key[0] === 'r';
      const wrap = s('g', clickable(tg.token, tg.label, () => handlers.tap(tg.token)));
      wrap.classList.add('q-goal');
      wrap.append(hitArea(p.x, p.y));
      if (room) {
        wrap.append(s('circle', { cx: p.x, cy: p.y, r: ROOM_R - 2, class: ['q-target', tg.captures ? 'captures' : ''],
          'data-room': tg.key.slice(1), 'data-captures': String(tg.captures || 0) }));
        if (tg.captures) wrap.append(s('text', { x: p.x, y: p.y, class: 'q-capture-mark' }, '✕'));
      } else {
        wrap.append(s('rect', { x: p.x - 36, y: p.y - 19, width: 72, height: 38, rx: 9, class: 'q-target-limbo' }));
      }
      layers.targets.append(wrap);
    }
  };
  return {
    el: svg,
    render,
    highlight(keys) { if (model) render({ ...model, hl: keys || [] }); },
  };
}
