// ur.js: the Royal Game of Ur board, drawn in SVG from a room `state` (rules-ur.md, "On the wire").
//
// renderUr(state, opts) returns a fresh element each time (the caller swaps it in): the board with
// both colours' stacks, the waiting and borne-off trays, the dice, whose turn it is, the last outcome
// in words and the legal actions of the viewer. Every clickable legal action carries class `legal`
// and data-action = JSON.stringify(the legal entry, as received). It sends nothing itself: clicks go
// to opts.onAct(action). Cells keep their names (L/M/K + row) whichever way the board is turned.

import { h, s } from './dom.js';

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

// --- words -------------------------------------------------------------------------------------

function actionWords(a) {
  if (!a || typeof a !== 'object') return '';
  if (a.roll) return 'roll';
  if ('enter' in a) return `enter on ${a.enter}`;
  if ('move' in a) return `move from ${a.move}`;
  if (a.bear_off) return 'bear off';
  if (a.skip) return 'skip bonus';
  return JSON.stringify(a);
}

function countOf(v) {
  if (Array.isArray(v)) return v.length;
  if (typeof v === 'number') return v;
  if (v === true) return 1;
  return 0;
}

// The last outcome in words, e.g. "Dark threw 0 — lost", "Light moved 5 → 9, captured 1".
export function describeLast(state) {
  const last = state && state.last;
  if (!last) return state && state.status === 'playing' ? 'Light throws first.' : '';
  const who = COLOUR[last.seat] ?? `Seat ${last.seat}`;
  const a = last.action || {};
  const o = last.outcome && typeof last.outcome === 'object' ? last.outcome : {};
  const parts = [];
  if (a.roll) {
    const value = o.value ?? state.view?.value;
    let t = `${who} threw ${value ?? '?'}`;
    const lost = o.lost || o.pass || o.passed || o.no_move || o.nothing || value === 0;
    if (lost) t += ' — lost';
    parts.push(t);
    if (o.again ?? state.view?.again) parts.push('throws again');
  } else if ('move' in a) {
    const to = o.to ?? (state.view?.value != null ? a.move + state.view.value : null);
    parts.push(to != null ? `${who} moved ${a.move} → ${to}` : `${who} moved from ${a.move}`);
  } else if ('enter' in a) {
    parts.push(`${who} entered a piece on ${a.enter}`);
  } else if (a.bear_off) {
    const n = countOf(o.borne_off ?? o.count ?? o.off);
    parts.push(n ? `${who} bore off ${n}` : `${who} bore off`);
  } else if (a.skip) {
    parts.push(`${who} skipped the bonus`);
  } else if (a.resign || o.resign) {
    parts.push(`${who} resigned`);
  } else {
    parts.push(`${who}: ${actionWords(a)}`);
  }
  const cap = countOf(o.captured ?? o.captures ?? o.capture);
  if (cap) parts.push(`captured ${cap}`);
  if (o.won) parts.push('and wins');
  if (!a.roll && (o.rosette || o.bonus)) parts.push('rosette!');
  if (!a.roll && (o.lost || o.passed || o.pass)) parts.push('next throw lost');
  return parts.join(', ');
}

export function describeResult(state) {
  const r = state && state.result;
  if (!r) return '';
  if (r.draw || r.winner === null || r.winner === undefined) return 'Draw';
  const reason = r.reason ? ` — ${r.reason}` : '';
  return `${COLOUR[r.winner] ?? `Seat ${r.winner}`} wins${reason}`;
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

function legalAttrs(action, label, onAct) {
  const json = JSON.stringify(action);
  const fire = (ev) => { ev.preventDefault(); ev.stopPropagation(); onAct(action); };
  return {
    'data-action': json,
    class: 'legal',
    role: 'button',
    tabindex: '0',
    'aria-label': label,
    onclick: fire,
    onkeydown: (ev) => { if (ev.key === 'Enter' || ev.key === ' ') fire(ev); },
  };
}

// --- the board ---------------------------------------------------------------------------------

function buildBoard(state, viewerSeat, legal, onAct) {
  const view = state.view || {};
  const bottom = viewerSeat === 1 ? 1 : 0;
  const geo = geometry(bottom);
  const actor = (state.to_act || [])[0];
  const value = view.value;
  const svg = s('svg', {
    viewBox: `0 0 ${W} ${H}`, class: 'ur-board', role: 'img',
    'aria-label': 'Royal Game of Ur board',
  });
  svg.append(s('title', {}, 'Royal Game of Ur board'));

  // Frame, then cells.
  const frame = s('g', { class: 'frame' });
  for (const cell of CELLS) {
    const p = geo.xy(cell);
    frame.append(s('rect', { x: p.x - 7, y: p.y - 7, width: C + 14, height: C + 14, rx: 10 }));
  }
  svg.append(frame);
  const cells = s('g', { class: 'cells' });
  for (const cell of CELLS) {
    const p = geo.xy(cell);
    const g = s('g', { class: ['cell', ROSETTES.has(cell) ? 'is-rosette' : ''], 'data-cell': cell });
    g.append(s('rect', { x: p.x + 3, y: p.y + 3, width: C - 6, height: C - 6, rx: 6, class: 'cell-bg' }));
    g.append(cellDecor(cell, p.x + C / 2, p.y + C / 2));
    g.append(s('text', { x: p.x + 7, y: p.y + 14, class: 'cell-label' }, cell));
    cells.append(g);
  }
  svg.append(cells);

  // Exit marker beside M1.
  const m1 = geo.center('M1');
  svg.append(s('text', { x: BX - 40, y: m1.y - 22, class: 'zone-label' }, 'exit'));
  svg.append(s('path', { d: `M ${BX - 4} ${m1.y} l -16 -10 v 20 z`, class: 'exit-arrow' }));

  const targets = s('g', { class: 'targets' });
  const pieces = s('g', { class: 'pieces' });
  const overlay = s('g', { class: 'overlay' });
  const previews = s('g', { class: 'previews' });
  svg.append(targets, pieces, previews, overlay);

  // Trays: waiting (route 0) on the right, borne off (24) at the exit side.
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
    svg.append(tray, home);
    const lbl = `${COLOUR[seat]} · waiting ${waiting} · off ${off}/7`;
    svg.append(s('text', { x: BX, y: ty + (seat === bottom ? 36 : -32), class: ['tray-label', `label-${ROLES[seat]}`] }, lbl));
  }

  // Stacks on the board.
  const stacks = stacksOf(view);
  const legalMoves = new Map();
  for (const a of legal) if (a && 'move' in a) legalMoves.set(a.move, a);
  for (const [cell, arr] of stacks) {
    const c = geo.center(cell);
    const sl = slots(arr.length);
    arr.slice(0, 4).forEach((st, i) => {
      const [dx, dy] = sl.at[i];
      const d = disc(c.x + dx, c.y + dy, sl.r, st.seat, st.down, st.count);
      const desc = `${COLOUR[st.seat]}: ${st.count} on square ${st.square} (${cell})${st.down ? ', travelling down' : ''}`;
      d.append(s('title', {}, desc));
      d.setAttribute('data-square', String(st.square));
      const mv = st.seat === actor ? legalMoves.get(st.square) : null;
      if (mv) {
        const to = value != null ? st.square + value : null;
        const label = `Move ${COLOUR[st.seat]} piece from square ${st.square} (${cell})` +
          (to ? ` to ${to} (${to <= 23 ? cellOf(st.seat, to) : 'off'})` : '');
        const wrap = s('g', legalAttrs(mv, label, onAct));
        wrap.append(s('circle', { cx: c.x + dx, cy: c.y + dy, r: sl.r + 5, class: 'legal-halo' }), d);
        if (to && to <= 23) {
          const tc = geo.center(cellOf(st.seat, to));
          const ghost = s('g', { class: 'preview', 'data-preview': String(st.square) });
          ghost.append(s('line', { x1: c.x + dx, y1: c.y + dy, x2: tc.x, y2: tc.y, class: 'preview-line' }));
          ghost.append(s('circle', { cx: tc.x, cy: tc.y, r: 30, class: 'preview-ring' }));
          previews.append(ghost);
          const show = (on) => ghost.classList.toggle('on', on);
          wrap.addEventListener('mouseenter', () => show(true));
          wrap.addEventListener('mouseleave', () => show(false));
          wrap.addEventListener('focus', () => show(true));
          wrap.addEventListener('blur', () => show(false));
        }
        overlay.append(wrap);
      } else {
        pieces.append(d);
      }
    });
  }

  // Entries: a badge in the actor's tray strip under the target cell, an arrow, a highlighted cell.
  for (const a of legal) {
    if (!a || !('enter' in a) || actor === undefined) continue;
    const cell = cellOf(actor, a.enter);
    if (!cell) continue;
    const tc = geo.center(cell);
    const ty = geo.trayY(actor);
    targets.append(s('rect', { x: tc.x - C / 2 + 3, y: tc.y - C / 2 + 3, width: C - 6, height: C - 6, rx: 6, class: 'target-cell' }));
    previews.append(s('line', { x1: tc.x, y1: ty, x2: tc.x, y2: tc.y, class: 'enter-line' }));
    const label = `Enter a ${COLOUR[actor]} piece on square ${a.enter} (${cell})`;
    const b = s('g', legalAttrs(a, label, onAct));
    b.classList.add('enter-badge');
    b.append(s('circle', { cx: tc.x, cy: ty, r: 19, class: 'badge-bg' }));
    b.append(s('text', { x: tc.x, y: ty, class: 'badge-text' }, `+${a.enter}`));
    overlay.append(b);
    const tray = svg.querySelector(`[data-tray="${ROLES[actor]}"]`);
    if (tray) tray.classList.add('tray-active');
  }
  for (const a of legal) {
    if (!a || !a.bear_off || actor === undefined) continue;
    const b = s('g', legalAttrs(a, `Bear off ${COLOUR[actor]} pieces from M1`, onAct));
    b.classList.add('bear-badge');
    b.append(s('circle', { cx: BX / 2 - 2, cy: m1.y, r: 22, class: 'badge-bg' }));
    b.append(s('text', { x: BX / 2 - 2, y: m1.y, class: 'badge-text small' }, 'off'));
    overlay.append(b);
    targets.append(s('rect', { x: m1.x - C / 2 + 3, y: m1.y - C / 2 + 3, width: C - 6, height: C - 6, rx: 6, class: 'target-cell' }));
  }
  return svg;
}

// --- dice and controls -------------------------------------------------------------------------

function die(marked, i) {
  const svg = s('svg', { viewBox: '0 0 40 36', class: ['die', marked ? 'marked' : 'unmarked'], role: 'img',
    'aria-label': `die ${i + 1}: ${marked ? 'marked' : 'unmarked'} tip up` });
  svg.append(s('path', { d: 'M20 2 L38 34 L2 34 Z', class: 'die-face' }));
  svg.append(s('path', { d: 'M20 2 L20 24 L38 34 M20 24 L2 34', class: 'die-edge' }));
  svg.append(s('circle', { cx: 20, cy: 7, r: 3.6, class: 'die-tip' }));
  return svg;
}

function buildControls(state, viewerSeat, legal, onAct) {
  const view = state.view || {};
  const toAct = state.to_act || [];
  const box = h('div.ur-side');
  const dice = h('div.dice', { 'aria-live': 'polite' });
  if (Array.isArray(view.dice)) view.dice.forEach((m, i) => dice.append(die(m, i)));
  else for (let i = 0; i < 3; i++) dice.append(h('span.die-blank', { 'aria-hidden': 'true' }));
  const value = h('div.dice-value', { 'data-value': view.value ?? '' },
    h('span.num', view.value ?? '–'),
    view.again ? h('span.again', { title: 'this throw earns another' }, 'again') : null,
    view.bonus ? h('span.bonus', { title: 'rosette bonus: enter one more on square 1 or skip' }, 'rosette bonus') : null);
  box.append(h('div.dice-row', dice, value));

  let turn = '';
  if (state.status === 'playing' && toAct.length) {
    const seat = toAct[0];
    const mine = viewerSeat !== null && viewerSeat !== undefined && toAct.includes(viewerSeat);
    turn = mine ? `Your turn (${COLOUR[seat]})` : `${COLOUR[seat]} to play`;
  } else if (state.status === 'waiting') turn = 'Waiting for players';
  else if (state.status === 'finished') turn = 'Game over';
  const turnSeat = toAct[0];
  box.append(h('div.turn', { class: turnSeat !== undefined ? `turn-${ROLES[turnSeat]}` : '' , id: 'turn' }, turn));
  box.append(h('div.last', { id: 'last-outcome' }, describeLast(state)));

  const buttons = h('div.actions', { role: 'group', 'aria-label': 'Your actions' });
  const btn = (a, text, label, cls) => {
    const attrs = legalAttrs(a, label, onAct);
    delete attrs.role; delete attrs.tabindex; delete attrs.onkeydown;
    attrs.class = ['legal', cls];
    attrs.type = 'button';
    return h('button', attrs, text);
  };
  for (const a of legal) {
    if (a && a.roll) buttons.append(btn(a, 'Roll the dice', 'Roll the dice', 'primary roll'));
  }
  for (const a of legal) {
    if (a && 'enter' in a) buttons.append(btn(a, `Enter on ${a.enter}`, `Enter a piece on square ${a.enter}`, 'enter'));
  }
  for (const a of legal) {
    if (a && a.bear_off) buttons.append(btn(a, 'Bear off', 'Bear off the pieces on square 23', 'bear'));
  }
  for (const a of legal) {
    if (a && a.skip) buttons.append(btn(a, 'Skip bonus', 'Skip the rosette bonus', 'skip'));
  }
  if (legal.some((a) => a && 'move' in a)) {
    buttons.append(h('p.hint', 'Click a glowing piece to move it.'));
  }
  box.append(buttons);
  return box;
}

// The whole Ur view for `state`. opts: {mySeat: number|null, onAct(action)}.
export function renderUr(state, opts = {}) {
  const onAct = opts.onAct || (() => {});
  const legal = Array.isArray(state.legal) ? state.legal : [];
  let viewerSeat = opts.mySeat;
  if ((viewerSeat === null || viewerSeat === undefined) && legal.length && (state.to_act || []).length === 1) {
    viewerSeat = state.to_act[0];
  }
  const root = h('div.ur', { 'data-ply': state.ply });
  const boardWrap = h('div.ur-board-wrap');
  boardWrap.append(buildBoard(state, viewerSeat, legal, onAct));
  root.append(boardWrap, buildControls(state, viewerSeat, legal, onAct));
  return root;
}
