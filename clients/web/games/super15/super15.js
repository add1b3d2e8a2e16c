// super15.js: Super 1 al 5 as a game module of the web client (built on ../base.js, where the contract is).
// The 8x10 board goes in ctx.board (rank 10 at the top, Light playing up from rank 1); whose turn
// it is, the last move, the captured pieces and the points in ctx.side; the hint in ctx.panel. Its
// words are in strings.js (three languages), its rules page in rules.js.
//
// A move is made in two clicks: a glowing piece ("piece:<square>", ringed in gold) selects it and lights
// every square it may stop on ("to:<square>"); one of those moves it. The legal list is long (hundreds of
// moves), so elements exist per square, never per action. What a finger taps is the whole square: a
// text-less hit area over it (the piece, its value and the board's coordinates are a picture beside it, so
// a tap target's name is all it says). The board is a plain group of 80 squares: on a phone on its side it
// turns a quarter clockwise (super15.css: rank 1 on the left, file a at the top) so that it takes the
// screen's height with squares of 44 CSS px or more, and the view scrolls it into view when a turn begins. A Super's stop on a line with enemies is
// its only move that way and captures all of them: it is drawn ringed, as forced. What each stop would
// capture (every piece it takes, not only one standing on the stop) is the local rules' answer (ctx.preview:
// the move applied to the state's position by the same C as the server's), before anything is sent; the
// pieces the selected one can take are marked. Without a preview a stop on an enemy is taken for a capture.
// The selection survives states that leave it legal at the same ply and is dropped when the ply moves on.

import { h, s, clear } from '../../dom.js';
import { translator } from '../../i18n.js';
import { loadCss, clickable, clickSelector, bringIntoViewSoon } from '../common.js';
import { defineGame, turnCard } from '../base.js';
import strings from './strings.js';
import rules from './rules.js';

const styled = loadCss(new URL('./super15.css', import.meta.url));

const ROLES = ['light', 'dark'];
const FILES = 'abcdefgh';
const FORBIDDEN = new Set(['d5', 'e5', 'd6', 'e6']);
const VALUES = [5, 4, 3, 2, 2, 3, 4, 5, 1, 2, 3, 1, 1, 3, 2, 1]; // by id % 16 (protocol/games/super15/README.md)
const t = translator(strings);
const role = (seat) => t(`role.${ROLES[seat]}`);

// --- words -------------------------------------------------------------------------------------------

function notation(e) {
  const a = e.action || {};
  const o = e.outcome && typeof e.outcome === 'object' ? e.outcome : {};
  const parts = [t('n.move', { who: role(e.seat), from: a.from, to: a.to })];
  const n = Array.isArray(o.captured) ? o.captured.length : 0;
  if (n) parts.push(t('n.capture', { n, gained: o.gained ?? 0 }));
  if (o.promoted) parts.push(t('n.promoted'));
  return parts.join(', ');
}

const pieceWords = (p) => t('words.piece', { value: p.value, square: p.square })
  + (p.points ? t('words.points', { n: p.points }) : '') + (p.super ? t('words.super') : '');

function describeBoard(state) {
  const pieces = (state.view && state.view.pieces) || [];
  const lines = [0, 1].map((seat) => {
    const mine = pieces.filter((p) => p.seat === seat);
    return t('words.side', { role: role(seat), n: mine.length, list: mine.map(pieceWords).join(', ') });
  });
  if (state.view) lines.push(t('words.quiet', { n: state.view.quiet }));
  const toAct = state.status === 'playing' ? state.to_act || [] : [];
  if (toAct.length) lines.push(t('words.turn', { role: role(toAct[0]) }));
  return lines;
}

// --- drawing -----------------------------------------------------------------------------------------

const squareName = (file, rank) => `${FILES[file]}${rank}`;
const isDarkSquare = (file, rank) => (file + rank) % 2 === 1;

function pieceEl(p) {
  return h('span', { class: ['s15-piece', `s15-${ROLES[p.seat]}`, p.super ? 's15-super' : null], 'aria-hidden': 'true' },
    h('span.s15-value', String(p.value)),
    p.points ? h('span.s15-points', String(p.points)) : null,
    p.super ? h('span.s15-crown', '★') : null);
}

function legend() {
  const mini = (p) => h('span.s15-legend-cell', pieceEl(p));
  const cell = (cls, text) => h('span', { class: ['s15-legend-cell', cls] }, text || '');
  return [
    { mark: mini({ seat: 0, value: 3, points: 4, super: false }), text: t('leg.light') },
    { mark: mini({ seat: 1, value: 3, points: 0, super: false }), text: t('leg.dark') },
    { mark: mini({ seat: 0, value: 2, points: 12, super: true }), text: t('leg.super') },
    { mark: h('span.s15-legend-cell.s15-movable', pieceEl({ seat: 0, value: 2, points: 0, super: false })), text: t('leg.movable') },
    { mark: cell('s15-legend-target'), text: t('leg.target') },
    { mark: cell('s15-legend-capture'), text: t('leg.capture') },
    { mark: cell('s15-forbidden', '×'), text: t('leg.forbidden') },
    { mark: cell('s15-last-to'), text: t('leg.last') },
    { mark: cell('s15-forced'), text: t('leg.forced') },
  ];
}

// --- the view ----------------------------------------------------------------------------------------

function createView(ctx) {
  let state = null;
  let selected = null; // {ply, square}
  let marked = null;   // {from, to} of a highlighted log entry
  let shownTurn = null; // the ply of the latest turn of this view's seat brought into view
  const board = h('div.s15-board', { role: 'group', 'aria-label': t('aria.board') });
  ctx.board.append(h('div.s15-board-wrap', board));

  const render = () => {
    const legal = Array.isArray(state.legal) ? state.legal : [];
    const pieces = (state.view && state.view.pieces) || [];
    const at = new Map(pieces.map((p) => [p.square, p]));
    const froms = new Set(legal.map((a) => a.from));
    if (selected && (selected.ply !== state.ply || !froms.has(selected.square))) selected = null;
    const targets = new Map(selected ? legal.filter((a) => a.from === selected.square).map((a) => [a.to, a]) : []);
    const mover = selected && at.get(selected.square);
    // What each stop does by the local rules: {captured: [square], promoted}; a stop on an enemy without them.
    const effects = new Map();
    for (const [sq, a] of targets) {
      const pv = ctx.preview ? ctx.preview(a) : null;
      const o = pv && pv.outcome;
      if (o && Array.isArray(o.captured)) effects.set(sq, { captured: o.captured.map((c) => c.square), promoted: !!o.promoted, source: 'rules' });
      else effects.set(sq, { captured: at.get(sq) && at.get(sq).seat !== mover.seat ? [sq] : [], promoted: false, source: 'dice' });
    }
    const taken = new Set([...effects.values()].flatMap((e) => e.captured));
    const last = state.last && state.last.action;
    clear(board);
    for (let rank = 10; rank >= 1; rank--) {
      for (let file = 0; file < 8; file++) {
        const sq = squareName(file, rank);
        const p = at.get(sq);
        const cls = ['s15-square', isDarkSquare(file, rank) ? 's15-dark-sq' : 's15-light-sq'];
        if (FORBIDDEN.has(sq)) cls.push('s15-forbidden');
        if (last && last.from === sq) cls.push('s15-last-from');
        if (last && last.to === sq) cls.push('s15-last-to');
        if (marked && (marked.from === sq || marked.to === sq)) cls.push('s15-marked');
        if (selected && selected.square === sq) cls.push('s15-selected');
        if (taken.has(sq)) cls.push('s15-taken');
        // The square's tap area: a stop of the selected piece, or a piece that can move.
        let hit = null;
        const target = targets.get(sq);
        if (target) {
          const fx = effects.get(sq);
          const capture = fx.captured.length > 0;
          cls.push('s15-target');
          if (capture) cls.push('s15-capture');
          if (capture && mover.super) cls.push('s15-forced');
          if (fx.promoted) cls.push('s15-promotes');
          hit = h('div.s15-hit', { ...clickable(`to:${sq}`, t(capture ? 'aria.capture' : 'aria.target', { square: sq }), () => {
            selected = null;
            ctx.act(target);
          }), 'data-square': sq, 'data-preview': fx.source, 'data-captures': fx.captured.join(' ') || null });
        } else if (froms.has(sq) && p) {
          cls.push('s15-movable');
          hit = h('div.s15-hit', { ...clickable(`piece:${sq}`, t('aria.select', { role: role(p.seat), value: p.value, square: sq }), () => {
            selected = selected && selected.square === sq ? null : { ply: state.ply, square: sq };
            render();
          }), 'data-square': sq, 'aria-pressed': selected && selected.square === sq ? 'true' : 'false' });
        }
        board.append(h('div', { class: cls, 'data-square': sq },
          p ? pieceEl(p) : null, FORBIDDEN.has(sq) ? h('span.s15-x', { 'aria-hidden': 'true' }, '×') : null,
          file === 0 ? h('span.s15-rank', { 'aria-hidden': 'true' }, String(rank)) : null,
          rank === 1 ? h('span.s15-file', { 'aria-hidden': 'true' }, FILES[file]) : null,
          hit));
      }
    }
    drawSide(at);
    clear(ctx.panel);
    if (legal.length) {
      const forced = mover && mover.super && [...effects.values()].some((e) => e.captured.length);
      ctx.panel.append(h('p.hint.s15-hint', t(forced ? 'hint.forced' : selected ? 'hint.stop' : 'hint.move')));
    }
  };

  // Whose turn, the last move, the points on the board and the pieces each side has lost.
  const drawSide = (at) => {
    const pieces = [...at.values()];
    const onBoard = new Set(pieces.map((p) => p.id));
    const lost = (seat) => {
      const ids = Array.from({ length: 16 }, (_, i) => seat * 16 + i).filter((id) => !onBoard.has(id));
      return h('div.s15-captured', { 'data-seat': seat },
        t('captured', { role: role(seat), list: ids.length ? '' : t('captured.none') }),
        ...ids.map((id) => h('span', { class: ['s15-mini', `s15-${ROLES[seat]}`] }, String(VALUES[id % 16]))));
    };
    const points = (seat) => h('div.s15-points-line',
      t('points', { role: role(seat), n: pieces.filter((p) => p.seat === seat).reduce((n, p) => n + p.points, 0) }));
    clear(ctx.side).append(turnCard(game, 's15-side', state, ctx.mySeat(),
      points(0), points(1), lost(0), lost(1),
      h('div.s15-quiet', t('quiet', { n: state.view ? state.view.quiet : 0 }))));
  };

  return {
    update(st) {
      state = st;
      render();
      // A turn of this view's seat begins: the board and the hint on the screen, so that it needs no scroll.
      if (Array.isArray(st.legal) && st.legal.length && shownTurn !== st.ply) {
        shownTurn = st.ply;
        bringIntoViewSoon([ctx.board, ctx.panel], styled);
      }
    },
    destroy() { selected = null; },
    highlight(entry) {
      marked = entry && entry.action ? { from: entry.action.from, to: entry.action.to } : null;
      if (state) render();
    },
  };
}

// --- the browser-test contract -------------------------------------------------------------------

function clicksFor(action) {
  if (!action || typeof action.from !== 'string' || typeof action.to !== 'string') return null;
  return [clickSelector(`piece:${action.from}`), clickSelector(`to:${action.to}`)];
}

const game = defineGame({
  id: 'super15',
  label: 'Super 1 al 5',
  roles: ROLES,
  dice: false,
  strings,
  t,
  rules,
  resultReasons: ['last_piece', 'no_moves', 'adjudication', 'resign', 'forfeit'],
  createView,
  notation,
  describeBoard,
  legend,
  clicksFor,
});

export default game;
