// quinteto.js: Quinteto as a game module of the web client (built on ../base.js, where the contract is).
// The pentagonal board (board.js) goes in ctx.board; the dice, the roll-off, the plan builder, the arranger's
// circle builder and the place buttons in ctx.panel; whose turn, the phase, the circle in words and what the
// last action did (a short event message: a capture, an elimination, a phase change, a Quinteto) in ctx.side.
// Its words are in strings.js (three languages), its rules page in rules.js.
//
// Only what is legal can be built: every choice offered is read from `legal`. A plan is built step by
// step: a glowing stone ("stone:<id>") opens its options for the next step (a die or the sum, a direction,
// into or out of limbo: "opt:<die>:<kind>:<n>"), a kill is a button of its own ("kill:<die>:<id>"), and
// "play" sends the plan once it is a whole legal one. After the first step the board shows the position
// it leaves, and every option says where the stone lands and what it would capture: the local rules'
// answers (ctx.preview, the same C as the server's), never worked out here; without a preview the options
// say only the die and the direction, and the board shows the state as it is. The arranger picks
// hunters in slot order ("arr:<seat>", the chain drawn on the circle as it grows) and confirms
// ("arrange-ok"); places with "place:<side>"; everyone rolls with "roll". A half-built plan or circle
// survives other states of the same ply and is dropped when the ply moves on.

import { h, s, clear } from '../../dom.js';
import { translator } from '../../i18n.js';
import { loadCss, actionButton, clickSelector, sameAction } from '../common.js';
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

function whereText(st) {
  if (!st) return '?';
  if (st.where === 'room') return HOMES.includes(st.room) ? t('where.home', { room: st.room }) : t('where.room', { room: st.room });
  return t('where.limbo');
}

// One step in words, from the position before it (or, without it, back from the position after the plan:
// a stone acts once in a plan, D6, so its place after the plan is where this step left it).
function stepText(st, seat, before, after) {
  const k = st.stone ?? st.kill;
  const from = before?.stones?.[k];
  if ('kill' in st) {
    const owner = who(Math.floor(st.kill / 3));
    return from?.room === undefined ? t('n.killAny', { who: owner }) : t('n.kill', { who: owner, room: from.room });
  }
  if (st.enter) return from?.room === undefined ? t('n.enterAny') : t('n.enter', { from: from.room });
  if (st.exit) return t('n.exit');
  let a = from?.room;
  if (a === undefined && after?.stones?.[k]?.where === 'room') a = (after.stones[k].room - st.steps + 50) % 25;
  return t('n.move', { from: a ?? '?', to: a === undefined ? '?' : (a + st.steps + 25) % 25 });
}

// A log entry (core.js roomLog, kind 'action') in the board's words, who included.
function notation(e) {
  const a = e.action || {};
  const o = e.outcome && typeof e.outcome === 'object' ? e.outcome : {};
  const parts = [];
  if (a.arrange) parts.push(t('n.arrange', { chain: a.arrange.map(who).join(' → ') }));
  else if (a.roll && o.rolloff !== null && o.rolloff !== undefined) parts.push(t('n.rolloff', { who: who(e.seat), v: o.rolloff }));
  else if (a.roll) parts.push(t('n.roll', { who: who(e.seat), a: o.dice?.[0] ?? '?', b: o.dice?.[1] ?? '?' }));
  else if ('place' in a) parts.push(t('n.place', { who: who(a.place), room: HOMES[a.place] }));
  else if (Array.isArray(a.plan)) {
    // A stone acts once in a plan (D6): where it stood before the plan is where its step began.
    const steps = a.plan.map((st) => stepText(st, e.seat, e.prev, e.view));
    parts.push(t('n.plan', { who: who(e.seat), steps: steps.join(', ') }));
  } else parts.push(`${who(e.seat)} ${JSON.stringify(a)}`);
  if (o.tied && o.tied.length) parts.push(t('n.tied', { list: o.tied.map(who).join(', ') }));
  if (o.starts !== null && o.starts !== undefined) parts.push(t('n.starts', { who: who(o.starts) }));
  if (o.captured && o.captured.length) parts.push(t('n.captured', { n: o.captured.length }));
  for (const x of o.eliminated || []) parts.push(t('n.eliminated', { who: who(x) }));
  if (o.quinteto) parts.push(t('n.quinteto'));
  if (o.phase) parts.push(t('n.phase', { phase: t(`phase.${o.phase}`) }));
  return parts.join(', ');
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
  return { text: t(`result.${key}`, { who: who(r.winner) }), winners: [r.winner] };
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
    lines.push(t('words.seat', { who: who(seat), list: list.length ? list.join(', ') : t('words.none') }));
  }
  lines.push(Array.isArray(v.dice) ? t('words.dice', { a: v.dice[0], b: v.dice[1] }) : t('words.noDice'));
  const toAct = state.status === 'playing' ? state.to_act || [] : [];
  if (toAct.length) lines.push(t('words.turn', { list: toAct.map(who).join(', ') }));
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

function rolloffBox(view) {
  const vals = view.rolloff || [];
  if (!vals.some((x) => x !== null) && view.phase !== 'rolloff') return null;
  return h('div.q-rolloff', h('span.q-rolloff-title', t('rolloff.title')),
    ...vals.map((v, seat) => h('span', { class: ['q-chip', `seat-c${seat}`] },
      `${who(seat)} ${v ?? (view.phase === 'rolloff' ? '…' : '–')}`)));
}

// An option's words; `r` is what the local rules say the step does (stepResult), or null.
function optionLabel(st, r, dice) {
  const die = st.die === SUM ? 'Σ' : `#${st.die + 1}`;
  if (st.enter) return `${die}: ${t('opt.enter', { die: st.die + 1 })}`;
  const n = r ? r.captured.length : 0;
  const cap = n ? `, ${t('opt.captures', { n })}` : '';
  if (st.exit) return `${die}: ${t('opt.exit', { die: st.die + 1, v: dice[st.die] })}${cap}`;
  const text = t(st.die === SUM ? 'opt.sum' : 'opt.move', { dir: t(st.steps > 0 ? 'dir.cw' : 'dir.ccw'), n: Math.abs(st.steps), to: r?.to ?? '?' });
  return `${die}: ${text}${cap}`;
}

// --- the view ----------------------------------------------------------------------------------------

function createView(ctx) {
  let state = null;
  let build = { ply: -1, steps: [], stone: null, chain: [] };
  let hl = [];
  let lastPly = null;
  const reset = (ply) => { build = { ply, steps: [], stone: null, chain: [] }; };
  const board = createBoard({ stone(k) { build.stone = k; render(); } }, t);
  ctx.board.append(h('div.q-board-wrap', board.el));

  const render = () => {
    const legal = Array.isArray(state.legal) ? state.legal : [];
    const view = state.view || {};
    const seat = (state.to_act || []).find((x) => x === ctx.mySeat()) ?? null;
    if (build.ply !== state.ply) reset(state.ply);
    const plans = legal.filter((a) => a && a.plan);
    // drop a half-made plan or circle that is no longer legal (a new state of the same ply that changed it)
    if (build.steps.length && !plansAfter(plans, build.steps).length) reset(state.ply);
    const arranges = legal.filter((a) => a && a.arrange);
    if (build.chain.length && !arranges.some((a) => build.chain.every((x, i) => a.arrange[i] === x))) build.chain = [];
    const preview = seat !== null ? ctx.preview : null;
    const shown = (seat !== null && plans.length && positionAfter(preview, plans, view, build.steps)) || view;
    const next = seat !== null ? nextSteps(plans, build.steps) : [];
    const clickStones = new Map();
    for (const st of next) {
      if ('kill' in st) continue;
      if (!clickStones.has(st.stone)) clickStones.set(st.stone, t('aria.stone', { who: who(seat), where: whereText(shown.stones[st.stone]) }));
    }
    if (build.stone !== null && !clickStones.has(build.stone)) build.stone = null;
    const results = new Map(build.stone === null ? [] : next.filter((st) => st.stone === build.stone && !('kill' in st))
      .map((st) => [st, stepResult(preview, plans, build.steps, st, shown)]));
    const targets = [];
    for (const r of results.values()) { // one mark per room (two dice may land the stone in the same one)
      if (r && r.to !== null && !targets.some((x) => x.key === `r${r.to}`)) targets.push({ key: `r${r.to}`, captures: r.captured.length });
    }
    const circle = build.chain.length ? [0, 1, 2, 3, 4].map((i) => build.chain[i] ?? null) : view.circle;
    const lastKeys = lastCells(state);
    const animate = !ctx.reducedMotion() && lastPly !== null && state.ply === lastPly + 1;
    board.render({ view: shown, clickable: clickStones, selected: build.stone, targets, last: lastKeys, hl, circle, animate, landed: lastKeys });
    lastPly = state.ply;

    clear(ctx.panel);
    const panel = h('div.q-panel');
    panel.append(h('div.q-dice-row', diceBox(view), rolloffBox(view)));
    const buttons = h('div.actions', { role: 'group', 'aria-label': t('act.group') });
    for (const a of legal) if (a && a.roll) buttons.append(button('roll', t('act.roll'), () => ctx.act(a), 'primary roll'));
    if (arranges.length) drawArrange(buttons, arranges);
    for (const a of legal) if (a && 'place' in a) buttons.append(button(`place:${a.place}`, t('act.place', { who: who(a.place), room: HOMES[a.place] }), () => ctx.act(a), 'place'));
    if (legal.some((a) => a && 'place' in a)) buttons.append(h('p.hint', t('hint.place')));
    if (plans.length && seat !== null) drawPlan(buttons, plans, next, shown, seat, view.dice || [], results);
    panel.append(buttons);
    ctx.panel.append(panel);
    drawSide(view);
  };

  const drawArrange = (box, arranges) => {
    const living = [...arranges[0].arrange].sort((a, b) => a - b);
    box.append(h('p.hint', t('hint.arrange', { k: living.length })));
    const row = h('div.q-arrange');
    for (const x of living) {
      if (build.chain.includes(x)) continue;
      row.append(button(`arr:${x}`, who(x), () => { build.chain.push(x); render(); }, `q-pick seat-c${x}`));
    }
    box.append(row);
    box.append(h('div.q-chain', h('strong', `${t('chain.title')}: `),
      build.chain.length ? build.chain.map((x, i) => `${i + 1}. ${who(x)}`).join(' → ') : t('chain.none')));
    const done = arranges.find((a) => a.arrange.length === build.chain.length && a.arrange.every((x, i) => x === build.chain[i]));
    if (done) box.append(button('arrange-ok', t('act.confirm'), () => { const a = done; reset(state.ply); ctx.act(a); }, 'primary'));
    if (build.chain.length) box.append(button('arrange-clear', t('act.clear'), () => { build.chain = []; render(); }, 'secondary'));
  };

  const drawPlan = (box, plans, next, shown, seat, dice, results) => {
    const done = wholePlan(plans, build.steps);
    // A stone acts once in a plan (D6): the state's view says where each step's stone began.
    const summary = build.steps.length ? build.steps.map((st) => stepText(st, seat, state.view)).join(', ') : t('plan.empty');
    box.append(h('div.q-plan', h('strong', `${t('plan.title')}: `), summary));
    if (build.stone !== null) {
      box.append(h('p.hint', t('hint.stone', { where: whereText(shown.stones[build.stone]) })));
      const row = h('div.q-options');
      for (const st of next.filter((x) => x.stone === build.stone && !('kill' in x))) {
        row.append(button(stepToken(st), optionLabel(st, results.get(st) || null, dice), () => { build.steps.push(st); build.stone = null; render(); }, 'q-option'));
      }
      box.append(row);
    } else {
      box.append(h('p.hint', build.steps.length ? t('hint.next') : t('hint.pick')));
    }
    for (const st of next.filter((x) => 'kill' in x)) {
      const target = shown.stones[st.kill];
      box.append(button(stepToken(st), t('act.kill', { who: who(Math.floor(st.kill / 3)), room: target?.room ?? '?', die: st.die + 1 }),
        () => { build.steps.push(st); build.stone = null; render(); }, 'q-kill'));
    }
    if (done) box.append(button('play', t('act.play'), () => { const a = done; reset(state.ply); ctx.act(a); }, 'primary'));
    if (build.steps.length) box.append(button('undo', t('act.undo'), () => { build.steps.pop(); build.stone = null; render(); }, 'secondary'));
  };

  const drawSide = (view) => {
    const toAct = state.status === 'playing' ? state.to_act || [] : [];
    const mine = ctx.mySeat();
    let turn = '';
    if (state.status === 'waiting') turn = t('turn.waiting');
    else if (toAct.length > 1) turn = t('turn.many', { list: toAct.map(who).join(', ') });
    else if (toAct.length) turn = toAct.includes(mine) ? t('turn.yours', { who: who(toAct[0]) }) : t('turn.other', { who: who(toAct[0]) });
    const victims = (view.victim || []).map((v, a) => (v === null || v === undefined ? null : t('chain.hunts', { a: who(a), b: who(v) }))).filter(Boolean);
    const ev = eventText(state);
    clear(ctx.side).append(h('div.card.q-turn',
      h('div.q-phase', { 'data-phase': view.phase || '' }, t(`phase.${view.phase || 'arrange'}`)),
      h('div.turn', { id: 'turn', class: toAct.length === 1 ? `seat-c${toAct[0]}` : '' }, turn),
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

// The short message a person should notice for the last action, or null.
function eventText(state) {
  const o = state.last && state.last.outcome;
  if (!o) return null;
  if (o.quinteto) return { kind: 'quinteto', text: t('ev.quinteto', { who: who(state.last.seat) }) };
  if (o.eliminated && o.eliminated.length) return { kind: 'eliminated', text: o.eliminated.map((x) => t('ev.eliminated', { who: who(x) })).join(' · ') };
  if (o.phase) return { kind: 'phase', text: t('ev.phase', { phase: t(`phase.${o.phase}`) }) };
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

function clicksFor(action) {
  if (!action || typeof action !== 'object') return null;
  if (action.roll) return [clickSelector('roll')];
  if (Array.isArray(action.arrange)) return [...action.arrange.map((x) => clickSelector(`arr:${x}`)), clickSelector('arrange-ok')];
  if ('place' in action) return [clickSelector(`place:${action.place}`)];
  if (Array.isArray(action.plan)) {
    const out = [];
    for (const st of action.plan) {
      if (!('kill' in st)) out.push(clickSelector(`stone:${st.stone}`));
      out.push(clickSelector(stepToken(st)));
    }
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
  clicksFor,
  tutorial: () => import('./tutorial.js'),
});

export default game;
