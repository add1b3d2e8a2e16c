// replay-worker.js: the replay page's Web Worker (a module worker, started by archive.js). It fetches an
// archived match's record (GET /api/matches/{id}) and re-derives the match from it alone with the rules module (rules-core.js, /wasm/rules.wasm) and derive.js,
// off the page's thread so that a match of tens of thousands of plies leaves the page responsive, keeps
// derive's snapshots (one every SNAPSHOT_EVERY steps), and answers the page's requests from them: a page of
// steps in the shape of GET /api/matches/{id}/replay's `steps`, and the match bytes at a step (the analysis
// board's start). Nothing it answers comes from the server's replay: every view, to_act and outcome is
// the module's, computed again from the nearest snapshot; the record gives only what was played.
//
// Messages (each request carries an `id`, echoed in its answer):
//   page -> worker  {type:'derive', id, url, wasm}          url: the record's (GET /api/matches/{id}),
//                                                            wasm: the module's
//   worker -> page  {type:'record', id, record}              the record without its actions and events (plies,
//                                                            events: their counts; standIn: the plies a stand-in
//                                                            played), as soon as it came
//                   {type:'progress', done, total}           while deriving
//                   {type:'derived', id, ok, total, mismatch, ms}  ms: {record, module, derive}, how long each took
//                     total: the steps that can be shown (all of them when ok; those before the first
//                     disagreement otherwise, 0 when not even the start can be derived)
//   page -> worker  {type:'steps', id, from, limit}  ->  {type:'steps', id, steps:[{ply, event, view, to_act, last}]}
//   page -> worker  {type:'match', id, step}         ->  {type:'match', id, game, bytes}   (bytes: Uint8Array)
//   page -> worker  {type:'eye', id}  (after 'derived': the bot's eye, eye.js)
//                   ->  {type:'eye', id, level, steps}  steps: how many positions will be weighed (0: the game
//                       has no strong bot), then while it weighs them:
//                   {type:'eyePoints', points, costly, done, total}  points: [{step, ply, seat, est, choice, n}],
//                       costly: every [step, loss] found so far (eye.js costlyMoves), done/total: positions
//   any failure     {type:<the request's>, id, error, status}  error 'no_rules': the module has no text codec for
//                                                            the game; status: the record's HTTP status
// Steps and match bytes are only answered for steps the derivation reached without disagreeing.

import { loadRules } from './rules-core.js';
import { derive } from './derive.js';
import { canonical } from './rules-core.js';
import { EYE_LEVEL, eyeSteps, eyeRun, costlyMoves } from './eye.js';

const SNAPSHOT_EVERY = 256; // steps between snapshots: a request replays at most this many steps first
let core = null;
let arch = null;
let run = null; // derive's answer: { order, snapshots, mismatch, ... }
let shown = 0;  // the steps that may be answered

// The steps derive() stopped without disagreeing at: all of them, or those before the first mismatch (a
// wrong result still leaves every step derived and agreeing).
function shownSteps(r) {
  if (r.ok) return r.order.length;
  if (r.mismatch.what === 'result') return r.order.length;
  return r.mismatch.step;
}

// The record's parts the page shows itself (everything but the actions and events, which stay here):
// sent as soon as the record came, before the derivation.
function summary(a) {
  const { actions, events, ...rest } = a;
  const list = Array.isArray(actions) ? actions : [];
  return { ...rest, seats: Array.isArray(a.seats) ? a.seats : [], plies: list.length,
    events: Array.isArray(events) ? events.length : 0,
    standIn: list.filter((x) => x?.stand_in === true).map((x) => x.ply) };
}

async function getRecord(url) {
  const res = await fetch(url, { headers: { accept: 'application/json' } });
  const body = await res.json().catch(() => null);
  if (!res.ok || !body || typeof body !== 'object') {
    throw Object.assign(new Error(body?.message || `HTTP ${res.status}`), { status: res.status });
  }
  return body;
}

// The record is fetched here, not in the page, so that a long one (tens of MB of JSON) is parsed off the
// page's thread and never copied between the two.
async function onDerive(msg) {
  const t0 = performance.now();
  const module = core ? Promise.resolve(core) : loadRules(msg.wasm);
  module.catch(() => {}); // a failure is the request's, below
  arch = await getRecord(msg.url);
  const t1 = performance.now();
  postMessage({ type: 'record', id: msg.id, record: summary(arch) });
  core = await module;
  const t2 = performance.now();
  if (core.game(arch.game)) { // a game the module lists but cannot write the JSON of yet: not the record's fault
    try {
      core.newMatch(arch.game, new Uint8Array(32), { max_turns: arch.options?.max_turns || 0 });
    } catch (e) {
      if (e.code === 'no_game') throw new Error('no_rules');
    }
  }
  const r = derive(core, arch, { snapshotEvery: SNAPSHOT_EVERY, progressEvery: 500,
    onProgress: (done, total) => postMessage({ type: 'progress', done, total }) });
  run = r;
  shown = shownSteps(r);
  const m = r.mismatch;
  // ms: fetching and parsing the record, then waiting for the module, then deriving (the benchmark's figures)
  const ms = { record: t1 - t0, module: t2 - t1, derive: performance.now() - t2 };
  return { ok: r.ok, total: shown, plies: (arch.actions || []).length, ms,
    mismatch: m && { ply: m.ply, step: m.step, what: m.what, seat: m.seat, recorded: m.recorded ?? null,
      derived: m.derived ?? null, played: m.played ?? null } };
}

// A match at the snapshot at or before step k (a copy: the snapshots stay as they were taken).
function fromSnapshot(k) {
  let best = 0;
  for (const s of run.snapshots.keys()) if (s <= k && s > best) best = s;
  const m = core.newMatch(arch.game, new Uint8Array(32), { max_turns: arch.options?.max_turns || 0 });
  m.restore(run.snapshots.get(best));
  return { m, at: best };
}

// Plays step k (already derived once without disagreeing) on m; the derived outcome of an action.
function replayStep(m, k) {
  const st = run.order[k];
  if (st.kind === 'event') {
    const ev = arch.events[st.i];
    const r = m.event(ev.seat, ev.kind);
    if (r.error) throw new Error(`step ${k}: ${r.error}`);
    return null;
  }
  const a = arch.actions[st.i];
  const r = m.apply(a.seat, a.action);
  if (r.error) throw new Error(`step ${k}: ${r.error}`);
  return { seat: a.seat, action: a.action, outcome: r.outcome };
}

function stepOf(m, k, last) {
  const st = run.order[k];
  const ev = st.kind === 'event' ? arch.events[st.i] : null;
  return { ply: m.ply, event: ev && { seat: ev.seat, kind: ev.kind }, view: m.view(), to_act: m.toAct(), last };
}

function need(k) {
  if (!run) throw new Error('nothing derived yet');
  if (!Number.isInteger(k) || k < 0 || k >= shown) throw new RangeError(`no derived step ${k}`);
}

// Steps from..from+limit-1 (fewer at the end). `last` of a step is the latest action at or before it (an
// event leaves it, as the live room does), so the replay starts before that action to derive its outcome.
function onSteps({ from, limit }) {
  need(from);
  const end = Math.min(shown, from + Math.max(1, Math.min(limit || 200, 1000)));
  let a = from;
  while (a > 0 && run.order[a].kind !== 'action') a--;
  const { m, at } = fromSnapshot(Math.max(0, a - 1));
  let last = null;
  for (let k = at + 1; k < from; k++) last = replayStep(m, k) || last;
  const steps = [];
  if (from === 0) steps.push(stepOf(m, 0, null));
  for (let k = Math.max(from, 1); k < end; k++) {
    last = replayStep(m, k) || last;
    steps.push(stepOf(m, k, last));
  }
  return { steps };
}

// The match as it is after step k, as bytes a RulesCore of the same module loads (Match.restore).
function onMatch({ step }) {
  need(step);
  const { m, at } = fromSnapshot(step);
  for (let k = at + 1; k <= step; k++) replayStep(m, k);
  return { game: arch.game, bytes: m.snapshot() };
}

// The bot's eye (eye.js): the positions to weigh are kept as bytes, walked to once from the start in slices,
// then weighed coarse to fine; both yield between slices, so the page's requests (answered in the queue
// below) never wait long. Runs beside the queue, once per derivation.
let eyeStarted = false;
async function onEye(msg) {
  need(0);
  const m0 = core.newMatch(arch.game, new Uint8Array(32), { max_turns: arch.options?.max_turns || 0 });
  if (eyeStarted || !m0.botLevels().includes(EYE_LEVEL)) {
    postMessage({ type: 'eye', id: msg.id, level: null, steps: 0 });
    return;
  }
  eyeStarted = true;
  const steps = eyeSteps(run.order, shown);
  postMessage({ type: 'eye', id: msg.id, level: EYE_LEVEL, steps: steps.length });
  const want = new Set(steps);
  const bytes = new Map();
  const { m } = fromSnapshot(0);
  let t0 = performance.now();
  for (let k = 0; k <= steps[steps.length - 1]; k++) {
    if (k > 0) replayStep(m, k);
    if (want.has(k)) bytes.set(k, m.snapshot());
    if (performance.now() - t0 > 40) { await new Promise((r) => setTimeout(r, 0)); t0 = performance.now(); }
  }
  const points = new Map();
  const work = m.clone();
  const played = (j) => (run.order[j]?.kind === 'action' ? arch.actions[run.order[j].i] : null);
  await eyeRun({ steps, matchAt: (k) => { work.restore(bytes.get(k)); return work; },
    onPoints: (batch) => {
      for (const p of batch) points.set(p.step, p);
      postMessage({ type: 'eyePoints', points: batch, costly: [...costlyMoves(points, played, canonical)],
        done: points.size, total: steps.length });
    } });
}

const HANDLERS = { derive: onDerive, steps: onSteps, match: onMatch };

// One request at a time, in the order they came: a derivation runs to its end before the first page is
// answered (a page of steps needs the snapshots).
let queue = Promise.resolve();
self.onmessage = (ev) => {
  const msg = ev.data;
  if (msg.type === 'eye') { // beside the queue: it yields between slices of work
    queue.then(() => onEye(msg)).catch((e) => postMessage({ type: 'eye', id: msg.id, error: String(e?.message || e) }));
    return;
  }
  queue = queue.then(async () => {
    const fn = HANDLERS[msg.type];
    try {
      if (!fn) throw new Error(`unknown request ${msg.type}`);
      postMessage({ type: msg.type, id: msg.id, ...(await fn(msg)) });
    } catch (e) {
      postMessage({ type: msg.type, id: msg.id, error: String(e?.message || e), status: e?.status ?? null });
    }
  });
};
