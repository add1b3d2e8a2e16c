// quinteto.js: Quinteto as a game module of the web client (built on ../base.js, where the contract is).
// The pentagonal board (board.js) goes in ctx.board; the dice, Roll, whose turn, the plan with Play and Undo,
// the options as buttons, the arranger's circle builder and the place buttons in ctx.panel (beside the board
// on a desktop and a phone on its side, right under it on a phone upright: quinteto.css); the phase, whose
// turn, the circle in words and what the last action did (a short event message: a capture, an elimination,
// a Quinteto) in ctx.side. Its words are in strings.js (three languages), its rules page in rules.js.
//
// Only what is legal can be built: every choice offered is read from `legal`. A plan is built on the board,
// as in a board app: tap a glowing stone ("stone:<id>"), then the ringed room (or limbo) where it goes
// ("go:<die>:<kind>:<n>"; the room itself takes the tap); in the duel a die showing 5 makes the opponent's
// stones glow red, and a tap on one kills it ("kill:<die>:<id>"). Play ("play") sends the plan once it is a
// whole legal one: a mis-tap costs nothing until then (Undo takes a step back), so no tap sends a plan by
// itself. Fewer taps: when only one stone can make the next step (a hunter with one stone left, the second
// step of a pair) the view chooses it. Where two steps take a stone to one place (equal dice; an exit with
// either die) the board's target makes the first (die 0 before die 1, a die before the sum) and the others are
// buttons; every option is also a button in the panel in plain words ("opt:<die>:<kind>:<n>",
// "kill-opt:<die>:<id>"), for the keyboard and screen readers. After the first step the board shows the
// position it leaves, and every option says where the stone lands and what it would capture: the local
// rules' answers (ctx.preview, the same C as the server's); without a preview a move's room is counted on the
// ring and captures are not shown. The arranger picks hunters in slot order ("arr:<seat>", the chain drawn
// on the circle as it grows; the last hunter is added by itself; after an elimination "arrange-keep" takes
// the circle as it stands) and confirms ("arrange-ok"); places with
// "place:<side>"; everyone rolls with "roll". A half-built plan or circle survives other states of the same
// ply and is dropped when the ply moves on. seatOut() says which hunters are out of play (the board crosses
// their limbo out, the side card lists them), seatLabel() names a seat by its colour ("Red hunter").

import { h, s, clear } from '../../dom.js';
import { translator } from '../../i18n.js';
import { loadCss, actionButton, clickSelector, sameAction, capitalize } from '../common.js';
import { defineGame, autorollInput } from '../base.js';
import { createBoard, ROLES, HOMES } from './board.js';
import strings from './strings.js';
import rules from './rules.js';

loadCss(new URL('./quinteto.css', import.meta.url));

const t = translator(strings);
const who = (seat) => t(`who.${seat}`);
const SUM = 'sum';

// --- steps and positions -----------------------------------------------------------------------------

// The token of a plan step's button (a kill's, or a stone's option once the stone is chosen).
function stepToken(st) {
  if ('kill' in st) return `kill:${st.die}:${st.kill}`;
  const kind = st.enter ? 'enter' : st.exit ? 'exit' : 'm';
  return `opt:${st.die}:${kind}:${st.steps ?? 0}`;
}

function whereKey(st) {
  if (!st) return null;
  if (st.where === 'room') return `r${st.room}`;
  if (st.where === 'limbo') return `l${st.seat === 5 ? 'a' : st.seat}`;
  return null;
}

// Plans of `legal` that begin with `steps`; the next steps they offer (distinct); the plan equal to `steps`.
function plansAfter(legal, steps) {
  return legal.filter((a) => a && Array.isArray(a.plan) && a.plan.length >= steps.length &&
    steps.every((st, i) => sameAction(a.plan[i], st)));
}

function nextSteps(legal, steps) {
  const out = [];
  for (const a of plansAfter(legal, steps)) {
    const st = a.plan[steps.length];
    if (st && !out.some((x) => sameAction(x, st))) out.push(st);
  }
  return out;
}

function wholePlan(legal, steps) {
  return plansAfter(legal, steps).find((a) => a.plan.length === steps.length) || null;
}

// The stone the next step must move when only one can (a hunter with one stone left; the second step of a
// pair, D6), and no kill is offered beside it: the view chooses it for the player. null otherwise.
function autoStone(plans, steps) {
  const next = nextSteps(plans, steps);
  if (!next.length || next.some((st) => 'kill' in st)) return null;
  const ids = new Set(next.map((st) => st.stone));
  return ids.size === 1 ? [...ids][0] : null;
}

// Where a step takes its stone, independent of the die that does it: steps of one stone with the same
// place share it (equal dice; an exit with either die).
function placeOf(st) {
  if (st.enter) return 'enter';
  if (st.exit) return 'exit';
  return `m${st.steps}`;
}

// Of the steps `mine` (one stone's), the one the board's target for st's place makes: die 0 before die 1,
// a die before the sum. The others are the panel's buttons.
function preferredStep(mine, st) {
  const rank = (x) => (x.die === SUM ? 2 : x.die);
  return mine.filter((x) => placeOf(x) === placeOf(st)).sort((a, b) => rank(a) - rank(b))[0];
}

// The room number of a cell key ("r8" -> 8), or null for a limbo or nothing.
const roomOf = (key) => (key && key[0] === 'r' ? Number(key.slice(1)) : null);

// The board cell where step st leaves its stone: a move's room (arithmetic on the ring), a limbo, an exit's
// home (a hunter's own; the arranger's, from the local rules, or its limbo while they are not loaded).
function landingKey(st, shown, r) {
  const k = st.stone;
  const owner = Math.floor(k / 3);
  const from = shown.stones?.[k];
  if (st.enter) return `l${owner === 5 ? 'a' : owner}`;
  if (st.exit) {
    if (owner < 5) return `r${HOMES[owner]}`;
    return r && r.to !== null ? `r${r.to}` : 'la';
  }
  if (!from || from.where !== 'room') return r && r.to !== null ? `r${r.to}` : null;
  return `r${(((from.room + st.steps) % 25) + 25) % 25}`;
}

// What the next step `st` after `steps` does, by the local rules: {place: where its stone ends ({where, room?},
// as in the view), to: that room or null, captured: [stone ids]}, or null without a preview. Every legal plan
// that begins with steps and st moves st's stone the same way, and a stone acts once in a plan (README, D6), so
// the shortest of them is applied to the state's position (preview) and the stone's place read off the view it
// leaves; the stones the step captures are those of the outcome's `captured` that stood, in `before` (the
// position after `steps`), in the room it lands on.
function stepResult(preview, plans, steps, st, before) {
  const plan = plansAfter(plans, [...steps, st]).sort((a, b) => a.plan.length - b.plan.length)[0];
  const p = plan && preview ? preview(plan) : null;
  if (!p || !p.view || !Array.isArray(p.view.stones)) return null;
  if ('kill' in st) return { place: p.view.stones[st.kill], to: null, captured: [] };
  const place = p.view.stones[st.stone];
  const to = place && place.where === 'room' ? place.room : null;
  const captured = to === null ? [] : (p.outcome?.captured || [])
    .filter((j) => before.stones[j]?.where === 'room' && before.stones[j].room === to);
  return { place, to, captured };
}

// The position after `steps` (a beginning of legal plans), built from the local rules' answers step by
// step; null without a preview.
function positionAfter(preview, plans, view, steps) {
  let v = view;
  for (let i = 0; i < steps.length; i++) {
    const r = stepResult(preview, plans, steps.slice(0, i), steps[i], v);
    if (!r) return null;
    const stones = v.stones.map((x) => ({ ...x }));
    const k = steps[i].stone ?? steps[i].kill;
    stones[k] = { ...r.place };
    for (const j of r.captured) stones[j] = { seat: stones[j].seat, where: 'out' };
    v = { ...v, stones };
  }
  return v;
}

// --- words -----------------------------------------------------------------------------------------

// A seat for people: "Red hunter", "Arranger" (the contract's seatLabel).
const seatLabel = (seat) => t(`seat.${seat}`);
// A stone by its owner's colour, as inside a sentence: "red stone"; Stone() at the start of one.
const stoneName = (k) => t(`stone.${Math.floor(k / 3)}`);
const Stone = (k) => capitalize(stoneName(k));

function whereText(st) {
  if (!st) return '?';
  if (st.where === 'room') return HOMES.includes(st.room) ? t('where.home', { room: st.room }) : t('where.room', { room: st.room });
  return t('where.limbo');
}

// The circle as it is built: "1. Red → 2. Blue → …".
const chainText = (chain) => chain.map((x, i) => `${i + 1}. ${who(x)}`).join(' → ');

// A kill step in words: "Kill Blue's stone on room 8 (with the 5)".
function killText(st, target) {
  return t('act.kill', { stone: stoneName(st.kill), room: target?.room ?? '?' });
}

// One step of the selected stone in plain words: how far, which way, where to (`to`: the room it lands
// on, from landingKey, or null), what it captures (r: the local rules' answer, or null); `long` names the
// stone too (the board target's name, read on its own).
function optionLabel(st, r, dice, long, to) {
  let text;
  if (st.enter) text = t('opt.enter');
  else if (st.exit) text = to === null ? t('opt.exitHome', { v: dice[st.die] ?? '?' }) : t('opt.exit', { v: dice[st.die] ?? '?', to });
  else {
    const n = Math.abs(st.steps);
    const dir = t(st.steps > 0 ? 'dir.cw' : 'dir.ccw');
    text = t(st.die === SUM ? 'opt.sum' : 'opt.move', { n, dir, to: to ?? '?' });
  }
  if (st.die === 1 && dice[0] === dice[1]) text = t('opt.otherDie', { text });
  const n = r ? r.captured.length : 0;
  if (n) text = t('opt.withCapture', { text, captures: t('opt.captures', { n }) });
  return long ? t('opt.stone', { stone: Stone(st.stone), text }) : text;
}

// One step in words, from the position before it (or, without it, back from the position after the plan:
// a stone acts once in a plan, D6, so its place after the plan is where this step left it).
function stepText(st, seat, before, after) {
  const k = st.stone ?? st.kill;
  const from = before?.stones?.[k];
  if ('kill' in st) {
    const owner = stoneName(st.kill);
    return from?.room === undefined ? t('n.killAny', { stone: owner }) : t('n.kill', { stone: owner, room: from.room });
  }
  if (st.enter) return from?.room === undefined ? t('n.enterAny') : t('n.enter', { from: from.room });
  if (st.exit) return t('n.exit');
  let a = from?.room;
  if (a === undefined && after?.stones?.[k]?.where === 'room') a = (after.stones[k].room - st.steps + 50) % 25;
  return t('n.move', { from: a ?? '?', to: a === undefined ? '?' : (a + st.steps + 25) % 25 });
}

// A log entry (core.js roomLog, kind 'action') in the board's words, who included; without `phase`, the
// phase it moved to is left out (the card beside the board says the phase already).
function notation(e, { phase = true } = {}) {
  const a = e.action || {};
  const o = e.outcome && typeof e.outcome === 'object' ? e.outcome : {};
  const parts = [];
  const by = seatLabel(e.seat);
  if (a.arrange) parts.push(t('n.arrange', { chain: a.arrange.map(who).join(' → ') }));
  else if (a.roll && o.rolloff !== null && o.rolloff !== undefined) parts.push(t('n.rolloff', { who: by, v: o.rolloff }));
  else if (a.roll) parts.push(t('n.roll', { who: by, a: o.dice?.[0] ?? '?', b: o.dice?.[1] ?? '?' }));
  else if ('place' in a) parts.push(t('n.place', { who: who(a.place), room: HOMES[a.place] }));
  else if (Array.isArray(a.plan)) {
    // A stone acts once in a plan (D6): where it stood before the plan is where its step began.
    const steps = a.plan.map((st) => stepText(st, e.seat, e.prev, e.view));
    parts.push(t('n.plan', { who: by, steps: steps.join(', ') }));
  } else parts.push(`${by} ${JSON.stringify(a)}`);
  if (o.tied && o.tied.length) parts.push(t('n.tied', { list: o.tied.map(who).join(', ') }));
  if (o.starts !== null && o.starts !== undefined) parts.push(t('n.starts', { who: seatLabel(o.starts) }));
  if (o.captured && o.captured.length) parts.push(t('n.captured', { n: o.captured.length }));
  for (const x of o.eliminated || []) parts.push(t('n.eliminated', { who: seatLabel(x) }));
  if (o.quinteto) parts.push(t('n.quinteto'));
  const text = parts.join(', ');
  return phase && o.phase ? t('n.phase', { text, phase: t(`phase.${o.phase}`) }) : text;
}

// The latest action for the card beside the board (its phase is on the card's first line).
function describeLast(state) {
  const last = state && state.last;
  if (!last) return '';
  return notation({ seat: last.seat, action: last.action, outcome: last.outcome, view: state.view, prev: null }, { phase: false });
}

// The result in Quinteto's own words: two kinds of draw, and the winner named by colour (who.<seat>),
// not by role as base.js's describeResult does.
function describeResult(state) {
  const r = state && state.result;
  if (!r) return { text: '', winners: [] };
  if (r.draw || r.winner === null || r.winner === undefined) {
    return { text: r.reason === 'max_turns' ? t('result.drawTurns') : t('result.drawResign'), winners: [] };
  }
  const key = ['duel', 'quinteto', 'resign', 'forfeit'].includes(r.reason) ? r.reason : 'duel';
  return { text: t(`result.${key}`, { who: seatLabel(r.winner) }), winners: [r.winner] };
}

// Every seat's stones, markers and victims, the dice, the phase and who acts: for screen readers.
function describeBoard(state) {
  const v = state.view || {};
  const lines = [t('words.phase', { phase: t(`phase.${v.phase || 'arrange'}`), turns: v.turns ?? 0 })];
  for (let seat = 0; seat < 6; seat++) {
    const mine = (v.stones || []).map((st, k) => ({ st, k })).filter((x) => x.st.seat === seat);
    const list = [];
    for (const { st } of mine) if (st.where === 'room' || st.where === 'limbo') list.push(whereText(st));
    const slot = (v.circle || []).indexOf(seat);
    if (slot >= 0) list.push(t('words.marker', { slot: slot + 1 }));
    const reserve = mine.filter((x) => x.st.where === 'reserve').length;
    if (reserve) list.push(t('words.reserve', { n: reserve }));
    const vic = (v.victim || [])[seat];
    if (vic !== null && vic !== undefined) list.push(t('words.hunts', { who: who(vic) }));
    if (seat < 5 && !mine.some((x) => x.st.where === 'room' || x.st.where === 'limbo') && slot < 0 && v.phase !== 'arrange') list.unshift(t('words.out'));
    lines.push(t('words.seat', { who: seatLabel(seat), list: list.length ? list.join(', ') : t('words.none') }));
  }
  lines.push(Array.isArray(v.dice) ? t('words.dice', { a: v.dice[0], b: v.dice[1] }) : t('words.noDice'));
  const toAct = state.status === 'playing' ? state.to_act || [] : [];
  if (toAct.length) lines.push(t('words.turn', { list: toAct.map(seatLabel).join(', ') }));
  return lines;
}

// --- options -------------------------------------------------------------------------------------

function optionsForm() {
  const autoroll = autorollInput(t);
  const maxTurns = h('input#max-turns', { type: 'number', name: 'max_turns', min: 10, max: 100000, step: 1, value: 2000 });
  const el = h('div.options',
    autoroll.label,
    h('label', { for: 'max-turns' }, t('opt.maxTurns'), ' ', maxTurns));
  return {
    el,
    value: () => {
      const o = { autoroll: autoroll.input.checked };
      const n = Number(maxTurns.value);
      if (Number.isInteger(n) && n >= 10 && n <= 100000 && n !== 2000) o.max_turns = n;
      return o;
    },
  };
}

function describeOptions(options) {
  const out = [];
  if (options && options.autoroll) out.push(t('opt.autorollTag'));
  if (options && options.max_turns && options.max_turns !== 2000) out.push(t('opt.maxTurnsTag', { n: options.max_turns }));
  return out;
}

// --- the legend ----------------------------------------------------------------------------------

function mini(children) {
  return s('svg', { viewBox: '0 0 40 36', class: 'legend-svg', 'aria-hidden': 'true', focusable: 'false' }, ...children);
}

function legend() {
  return [
    { mark: mini([s('circle', { cx: 14, cy: 18, r: 8, class: 'stone-body seat-c0 q-legend-stone' }),
      s('circle', { cx: 28, cy: 18, r: 8, class: 'stone-body seat-c5 q-legend-stone' })]), text: t('leg.stone') },
    { mark: mini([s('circle', { cx: 20, cy: 18, r: 11, class: 'q-room-bg' }), s('circle', { cx: 20, cy: 18, r: 15, class: 'q-home-ring seat-c2' })]), text: t('leg.home') },
    { mark: mini([s('rect', { x: 6, y: 8, width: 28, height: 20, rx: 6, class: 'q-limbo' })]), text: t('leg.limbo') },
    { mark: mini([s('circle', { cx: 20, cy: 18, r: 14, class: 'q-circle' }), s('circle', { cx: 20, cy: 6, r: 5, class: 'q-marker seat-c1' })]), text: t('leg.circle') },
    { mark: mini([s('circle', { cx: 20, cy: 18, r: 12, class: 'q-last' })]), text: t('leg.last') },
    { mark: mini([s('rect', { x: 6, y: 8, width: 28, height: 20, rx: 6, class: 'q-limbo' }),
      s('path', { d: 'M 10 11 L 30 25 M 10 25 L 30 11', class: 'q-out-cross' })]), text: t('leg.out') },
    { mark: '⚄ ⚅', text: t('leg.dice') },
    { mark: '0 … 24', text: t('leg.rooms') },
  ];
}

// --- the panel ---------------------------------------------------------------------------------------

const button = (token, text, fire, cls) => actionButton(token, text, fire, cls);

function diceBox(view) {
  const dice = Array.isArray(view.dice) ? view.dice : null;
  const label = t('dice.label', { value: dice ? dice.join(' + ') : t('dice.none') });
  const box = h('div.q-dice', { role: 'img', 'aria-label': label });
  for (let i = 0; i < 2; i++) box.append(h('span.q-die', { 'data-die': i }, dice ? String(dice[i]) : '–'));
  return box;
}

// The roll-off's values, while the roll-off goes on (they stay in the view after it, but no longer matter).
function rolloffBox(view) {
  if (view.phase !== 'rolloff') return null;
  const vals = view.rolloff || [];
  return h('div.q-rolloff', h('span.q-rolloff-title', t('rolloff.title')),
    ...vals.map((v, seat) => (seatGone(view, seat) ? null : h('span', { class: ['q-chip', `seat-c${seat}`] },
      `${who(seat)} ${v ?? '…'}`))));
}

// --- the view ----------------------------------------------------------------------------------------

function createView(ctx) {
  let state = null;
  // The half-built action: the plan's steps so far, the stone chosen for the next one, the circle so far.
  // `manual` is the step count at which the player chose a stone themself (no automatic choice then).
  let build = { ply: -1, steps: [], stone: null, chain: [], manual: -1 };
  let hl = [];
  let lastPly = null;
  let turnPly = null; // the ply of the last turn of this seat brought into view
  const reset = (ply) => { build = { ply, steps: [], stone: null, chain: [], manual: -1 }; };
  const board = createBoard({ tap: (token) => taps.get(token)?.() }, t);
  const taps = new Map(); // board token -> what a tap does, rebuilt with every render
  ctx.board.append(h('div.q-board-wrap', board.el));

  const addStep = (st) => { build.steps.push(st); build.stone = null; build.manual = -1; render(); };
  const choose = (k) => { build.stone = k; build.manual = build.steps.length; render(); };
  const play = (a) => { reset(state.ply); ctx.act(a); };

  const render = () => {
    const legal = Array.isArray(state.legal) ? state.legal : [];
    const view = state.view || {};
    const seat = (state.to_act || []).find((x) => x === ctx.mySeat()) ?? null;
    if (build.ply !== state.ply) reset(state.ply);
    const plans = seat !== null ? legal.filter((a) => a && a.plan) : [];
    // drop a half-made plan or circle that is no longer legal (a new state of the same ply that changed it)
    if (build.steps.length && !plansAfter(plans, build.steps).length) reset(state.ply);
    const arranges = legal.filter((a) => a && a.arrange);
    if (build.chain.length && !arranges.some((a) => build.chain.every((x, i) => a.arrange[i] === x))) build.chain = [];
    const preview = seat !== null ? ctx.preview : null;
    const shown = (plans.length && positionAfter(preview, plans, view, build.steps)) || view;
    const next = nextSteps(plans, build.steps);
    if (build.stone !== null && !next.some((st) => st.stone === build.stone)) build.stone = null;
    const auto = autoStone(plans, build.steps);
    if (build.stone === null && auto !== null && build.manual !== build.steps.length) build.stone = auto;
    taps.clear();
    const stones = new Map();
    for (const st of next) {
      if ('kill' in st) {
        const token = stepToken(st);
        const target = shown.stones[st.kill];
        stones.set(st.kill, { token, label: killText(st, target) });
        taps.set(token, () => addStep(st));
      } else if (!stones.has(st.stone)) {
        const token = `stone:${st.stone}`;
        stones.set(st.stone, { token, label: t('aria.stone', { stone: stoneName(st.stone), where: whereText(shown.stones[st.stone]) }) });
        const k = st.stone;
        taps.set(token, () => choose(k));
      }
    }
    // The selected stone's steps: what each does (local rules) and the board's target for each place it reaches.
    const mine = build.stone === null ? [] : next.filter((st) => st.stone === build.stone && !('kill' in st));
    const results = new Map(mine.map((st) => [st, stepResult(preview, plans, build.steps, st, shown)]));
    const targets = [];
    for (const st of mine) {
      if (preferredStep(mine, st) !== st) continue; // one target per place: the others are in the panel
      const r = results.get(st);
      const key = landingKey(st, shown, r);
      if (!key) continue;
      const token = `go:${stepToken(st).slice(4)}`;
      targets.push({ key, token, label: optionLabel(st, r, view.dice || [], true, roomOf(key)), captures: r ? r.captured.length : null });
      taps.set(token, () => addStep(st));
    }
    const circle = build.chain.length ? [0, 1, 2, 3, 4].map((i) => build.chain[i] ?? null) : view.circle;
    const lastKeys = lastCells(state);
    const animate = !ctx.reducedMotion() && lastPly !== null && state.ply === lastPly + 1;
    const out = [0, 1, 2, 3, 4].filter((x) => seatOut(state, x));
    board.render({ view: shown, stones, selected: build.stone, targets, last: lastKeys, hl, circle, out, animate, landed: lastKeys });
    lastPly = state.ply;

    clear(ctx.panel);
    const panel = h('div.q-panel');
    const top = h('div.q-dice-row', diceBox(view));
    for (const a of legal) if (a && a.roll) top.append(button('roll', t('act.roll'), () => ctx.act(a), 'primary roll'));
    top.append(h('p.q-now', turnLine(state, ctx.mySeat())));
    panel.append(top);
    const rolloff = rolloffBox(view);
    if (rolloff) panel.append(rolloff);
    const buttons = h('div.actions', { role: 'group', 'aria-label': t('act.group') });
    if (arranges.length) drawArrange(buttons, arranges);
    const places = legal.filter((a) => a && 'place' in a);
    if (places.length) {
      buttons.append(h('p.hint', t('hint.place')));
      const row = h('div.q-options');
      for (const a of places) row.append(button(`place:${a.place}`, t('act.place', { who: who(a.place), room: HOMES[a.place] }), () => ctx.act(a), `place q-pick seat-c${a.place}`));
      buttons.append(row);
    }
    if (plans.length) drawPlan(buttons, plans, next, mine, shown, seat, view.dice || [], results);
    panel.append(buttons);
    ctx.panel.append(panel);
    drawSide(view);
    // My turn begins: the board and its controls come into view (a phone on its side shows the board whole).
    if (seat !== null && legal.length && turnPly !== state.ply) {
      turnPly = state.ply;
      bringIntoView(ctx.board.closest('.game-column') || ctx.board);
    }
  };

  const drawArrange = (box, arranges) => {
    const living = [...arranges[0].arrange].sort((a, b) => a - b);
    box.append(h('p.hint', t('hint.arrange', { k: living.length })));
    const row = h('div.q-arrange');
    for (const x of living) {
      if (build.chain.includes(x)) continue;
      row.append(button(`arr:${x}`, who(x), () => {
        build.chain.push(x);
        const left = living.filter((y) => !build.chain.includes(y));
        if (left.length === 1) build.chain.push(left[0]); // the last slot has one hunter left for it
        render();
      }, `q-pick seat-c${x}`));
    }
    // After an elimination: the circle as it stands, closed up, in one tap (then Confirm).
    const kept = (state.view.circle || []).filter((x) => x !== null && x !== undefined && living.includes(x));
    if (!build.chain.length && kept.length === living.length) {
      row.append(button('arrange-keep', t('act.keep'), () => { build.chain = kept; render(); }, 'secondary'));
    }
    box.append(row);
    box.append(h('div.q-chain', h('strong', `${t('chain.title')}: `),
      build.chain.length ? chainText(build.chain) : t('chain.none')));
    const done = arranges.find((a) => a.arrange.length === build.chain.length && a.arrange.every((x, i) => x === build.chain[i]));
    const row2 = h('div.q-confirm');
    if (done) row2.append(button('arrange-ok', t('act.confirm'), () => play(done), 'primary'));
    if (build.chain.length) row2.append(button('arrange-clear', t('act.clear'), () => { build.chain = []; render(); }, 'secondary'));
    if (row2.firstChild) box.append(row2);
  };

  const drawPlan = (box, plans, next, mine, shown, seat, dice, results) => {
    const done = wholePlan(plans, build.steps);
    // A stone acts once in a plan (D6): the state's view says where each step's stone began.
    const summary = build.steps.length ? build.steps.map((st) => ('kill' in st ? stepText(st, seat, state.view)
      : t('plan.step', { stone: Stone(st.stone), step: stepText(st, seat, state.view) }))).join('; ') : t('plan.empty');
    const row = h('div.q-confirm');
    if (done) row.append(button('play', t('act.play'), () => play(done), 'primary'));
    if (build.steps.length) row.append(button('undo', t('act.undo'), () => { build.steps.pop(); build.stone = null; build.manual = -1; render(); }, 'secondary'));
    box.append(h('div.q-plan', h('strong', `${t('plan.title')}: `), h('span.q-plan-steps', summary)));
    if (row.firstChild) box.append(row);
    const more = next.length > 0;
    let hint;
    if (build.stone !== null) hint = t('hint.stone', { stone: stoneName(build.stone), where: whereText(shown.stones[build.stone]) });
    else if (!build.steps.length) hint = t('hint.pick');
    else if (more && done) hint = t('hint.next');
    else if (more) hint = t('hint.second');
    else hint = t('hint.done');
    const hintEl = h('p.hint', { id: 'q-hint' }, hint);
    box.append(hintEl);
    if (mine.length) {
      // The options as buttons, for the keyboard and screen readers (the board's targets do the same):
      // those the board has no target for come first.
      const opts = [...mine].sort((a, b) => (preferredStep(mine, a) === a) - (preferredStep(mine, b) === b));
      const list = h('div.q-options', { role: 'group', 'aria-labelledby': 'q-hint' });
      for (const st of opts) {
        const to = roomOf(landingKey(st, shown, results.get(st) || null));
        list.append(button(stepToken(st), optionLabel(st, results.get(st) || null, dice, false, to), () => addStep(st), 'q-option'));
      }
      box.append(list);
    }
    const kills = next.filter((x) => 'kill' in x);
    if (kills.length) {
      const list = h('div.q-options');
      for (const st of kills) list.append(button(`kill-opt:${st.die}:${st.kill}`, killText(st, shown.stones[st.kill]), () => addStep(st), 'q-kill'));
      box.append(list);
    }
  };

  const drawSide = (view) => {
    const toAct = state.status === 'playing' ? state.to_act || [] : [];
    const victims = (view.victim || []).map((v, a) => (v === null || v === undefined ? null : t('chain.hunts', { a: who(a), b: who(v) }))).filter(Boolean);
    const ev = eventText(state);
    const mine = ctx.mySeat();
    const outNote = mine !== null && seatOut(state, mine) ? h('p.q-out-note', { id: 'q-out-note' }, t('out.you', { who: seatLabel(mine) })) : null;
    const outs = [0, 1, 2, 3, 4].filter((x) => seatOut(state, x));
    clear(ctx.side).append(h('div.card.q-turn',
      h('div.q-phase', { 'data-phase': view.phase || '' }, t(`phase.${view.phase || 'arrange'}`)),
      h('div.turn', { id: 'turn', class: toAct.length === 1 ? `seat-c${toAct[0]}` : '' }, turnLine(state, mine)),
      outNote,
      outs.length ? h('p.q-outs', { id: 'q-outs' }, t('out.list', { list: outs.map(seatLabel).join(', ') })) : null,
      ev ? h('div.q-event', { role: 'status', 'data-event': ev.kind }, ev.text) : null,
      h('div.last', { id: 'last-outcome' }, game.describeLast(state)),
      h('div.q-victims', victims.length ? victims.join(' · ') : t('chain.none'))));
  };

  return {
    update(st) { state = st; render(); },
    destroy() { reset(-1); },
    highlight(entry) { hl = entry ? entryCells(entry) : []; if (state) render(); },
  };
}

// On a screen too low for the room's head and the board together (a phone on its side), scrolls the game
// column to the top of the window when it is not wholly in view: at once, no smooth scrolling (the board must
// be still under a finger). Not in a replay (its analysis board steps through turns: the page stays put).
function bringIntoView(el) {
  if (typeof window === 'undefined' || !el || !el.getBoundingClientRect) return;
  if (!window.matchMedia('(max-height: 500px)').matches || el.closest('.replay')) return;
  const r = el.getBoundingClientRect();
  if (!r.height || (r.top >= 0 && r.bottom <= window.innerHeight)) return;
  window.scrollBy({ top: r.top - 2, behavior: 'instant' });
}

// Whose turn it is, for people: yours (naming your seat), another seat's by its colour, several rolling.
function turnLine(state, mine) {
  const toAct = state.status === 'playing' ? state.to_act || [] : [];
  if (state.status === 'waiting') return t('turn.waiting');
  if (state.status === 'finished') return ''; // the result says it, and the phase line
  if (toAct.length > 1) return toAct.includes(mine) ? t('turn.manyYou', { list: toAct.map(who).join(', ') }) : t('turn.many', { list: toAct.map(who).join(', ') });
  if (!toAct.length) return '';
  return toAct.includes(mine) ? t('turn.yours', { who: seatLabel(toAct[0]) }) : t('turn.other', { who: seatLabel(toAct[0]) });
}

// A hunter out of play while the match goes on: no stone left on the ring or in limbo (captured,
// eliminated or resigned) once the circle exists. The arranger is never out (its resignation ends the match).
function seatOut(state, seat) {
  if (!state || state.status !== 'playing' || seat === 5 || seat < 0 || seat > 4) return false;
  return seatGone(state.view || {}, seat);
}

function seatGone(view, seat) {
  const stones = view.stones || [];
  if (stones.length < 18 || seat === 5) return false;
  return ![3 * seat, 3 * seat + 1].some((k) => stones[k].where === 'room' || stones[k].where === 'limbo');
}

// The short message a person should notice for the last action, or null.
function eventText(state) {
  const o = state.last && state.last.outcome;
  if (!o) return null;
  if (o.quinteto) return { kind: 'quinteto', text: t('ev.quinteto', { who: seatLabel(state.last.seat) }) };
  if (o.eliminated && o.eliminated.length) return { kind: 'eliminated', text: o.eliminated.map((x) => t('ev.eliminated', { who: seatLabel(x) })).join(' · ') };
  if (o.captured && o.captured.length) return { kind: 'captured', text: t('ev.captured') };
  return null;
}

// The cells the last action's stones stand on now (a plan's movers, a place's home).
function lastCells(state) {
  const a = state.last && state.last.action;
  const view = state.view || {};
  if (!a) return [];
  if ('place' in a) return [`r${HOMES[a.place]}`];
  if (!Array.isArray(a.plan)) return [];
  return a.plan.filter((st) => 'stone' in st).map((st) => whereKey(view.stones?.[st.stone])).filter(Boolean);
}

// The cells a log entry touched, for highlight(): where its stones went (and came from, when known).
function entryCells(e) {
  const a = e.action || {};
  if ('place' in a) return [`r${HOMES[a.place]}`];
  if (!Array.isArray(a.plan)) return [];
  const out = [];
  for (const st of a.plan) {
    const k = st.stone ?? st.kill;
    if (e.prev) out.push(whereKey(e.prev.stones?.[k]));
    out.push(whereKey(e.view?.stones?.[k]));
  }
  return out.filter(Boolean);
}

// --- the browser-test contract ---------------------------------------------------------------------

// The taps that make `action` in a view with nothing half-built (as the view is when a turn begins). A plan
// goes by the board: its stone (unless the view chose it, autoStone), then the room, limbo or stone (a
// kill) its step goes to, then Play; a step the board has no target for (the second of two steps to one
// place: equal dice, an exit with the other die) is its button in the panel. The circle: its hunters in
// slot order but the last (the view adds it), then Confirm.
function clicksFor(action, state) {
  if (!action || typeof action !== 'object') return null;
  if (action.roll) return [clickSelector('roll')];
  if (Array.isArray(action.arrange)) {
    const picks = action.arrange.length > 1 ? action.arrange.slice(0, -1) : action.arrange;
    return [...picks.map((x) => clickSelector(`arr:${x}`)), clickSelector('arrange-ok')];
  }
  if ('place' in action) return [clickSelector(`place:${action.place}`)];
  if (Array.isArray(action.plan)) {
    const plans = ((state && state.legal) || []).filter((a) => a && Array.isArray(a.plan));
    const out = [];
    action.plan.forEach((st, i) => {
      const steps = action.plan.slice(0, i);
      if ('kill' in st) { out.push(clickSelector(stepToken(st))); return; }
      if (autoStone(plans, steps) !== st.stone) out.push(clickSelector(`stone:${st.stone}`));
      const mine = nextSteps(plans, steps).filter((x) => x.stone === st.stone && !('kill' in x));
      const pref = mine.length ? preferredStep(mine, st) : st;
      out.push(clickSelector(sameAction(pref, st) ? `go:${stepToken(st).slice(4)}` : stepToken(st)));
    });
    out.push(clickSelector('play'));
    return out;
  }
  return null;
}

const game = defineGame({
  id: 'quinteto',
  label: 'Quinteto',
  roles: ROLES,
  strings,
  t,
  rules,
  optionsForm,
  describeOptions,
  createView,
  notation,
  describeBoard,
  legend,
  shortcuts: [{ key: 'r', token: 'roll' }, { key: 'p', token: 'play' }],
  describeResult,
  describeLast,
  clicksFor,
  seatOut,
  seatLabel,
  tutorial: () => import('./tutorial.js'),
});

export default game;

// What the live region tells a seat of an action (base.js concerns): its own, one that took or killed its
// stones or eliminated it, a new circle (the victims change) and a phase change; the others are in the log.
function concerns(entry, seat) {
  if (entry.seat === seat) return true;
  const o = entry.outcome && typeof entry.outcome === 'object' ? entry.outcome : {};
  const stones = (entry.prev || entry.view || {}).stones || [];
  const mine = (id) => stones[id] && stones[id].seat === seat;
  return !!(entry.action && entry.action.arrange) || !!o.phase || (o.eliminated || []).includes(seat) ||
    (o.captured || []).some(mine) || (o.killed || []).some(mine);
}
game.concerns = concerns;
