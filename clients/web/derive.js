// derive.js: an archived match (GET /api/matches/{id}) re-derived from nothing but its record and the rules
// module (rules-core.js): the commit checked against the revealed server seed, the match seed computed from the
// seeds, then the record's actions and events merged by ply (an event at ply p after action p-1, before action
// p), each action found among the seat's legal ones and applied, every derived outcome compared with the
// recorded one, and last the result. The first disagreement stops the derivation and is named by its ply (the
// ply the match had reached, as `quinteto verify` names it) with what was recorded and what the rules give.
// The same order of checks as protocol/wire/archive_verify.c. Used by the replay page's Web Worker
// (replay-worker.js), by tools/verify-match.mjs in Node, and by the tests; knows no game.

import { canonical } from './rules-core.js';

export function hexBytes(hex, n) {
  if (typeof hex !== 'string' || hex.length !== 2 * n || !/^[0-9a-fA-F]*$/.test(hex)) return null;
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

export function bytesHex(bytes) { return [...bytes].map((b) => b.toString(16).padStart(2, '0')).join(''); }

// The steps of a record in the order they are derived: step 0 is the start, then each event (e, its index
// in `events`) and action (a) in turn. A recorded ply out of order is left for derive() to name.
export function stepOrder(arch) {
  const order = [{ kind: 'start' }];
  const actions = arch.actions || [];
  const events = arch.events || [];
  let e = 0;
  for (let i = 0; i <= actions.length; i++) {
    const ply = i < actions.length ? actions[i].ply : Infinity;
    for (; e < events.length && (events[e].ply <= ply || i === actions.length); e++) order.push({ kind: 'event', i: e });
    if (i < actions.length) order.push({ kind: 'action', i });
  }
  return order;
}

// Derives `arch` with `core` (a RulesCore). Options: until (stop after that step, unchecked beyond it: the
// analysis board's start), snapshotEvery (steps between kept snapshots of the match), onProgress(done, total) (called every progressEvery steps), onStep(k, step, match) after each step.
// Returns { ok, mismatch, order, snapshots: Map(step -> bytes), match, steps }: `mismatch` is null or
// { ply, step, what, seat, recorded, derived } (what: 'game', 'commit', 'seeds', 'options', 'ply', 'action',
// 'outcome', 'event', 'result'); `steps` counts those derived (all of them when ok).
export function derive(core, arch, { until = Infinity, snapshotEvery = 256, progressEvery = 2000, onProgress = null, onStep = null } = {}) {
  const order = stepOrder(arch);
  const snapshots = new Map();
  const fail = (k, ply, what, extra = {}) => ({ ok: false, order, snapshots, match: null, steps: k,
    mismatch: { ply, step: k, what, seat: null, recorded: null, derived: null, ...extra } });
  const g = core.game(arch.game);
  if (!g || !Array.isArray(arch.seats) || arch.seats.length !== g.seats) {
    return fail(0, 0, 'game', { recorded: arch.game });
  }
  const serverSeed = hexBytes(arch.server_seed, 32);
  const commit = hexBytes(arch.commit, 32);
  if (!serverSeed || !commit || bytesHex(core.sha256(serverSeed)) !== bytesHex(commit)) {
    return fail(0, 0, 'commit', { recorded: arch.commit, derived: serverSeed ? bytesHex(core.sha256(serverSeed)) : null });
  }
  const cs = arch.client_seeds || [];
  if (!Array.isArray(cs) || cs.length !== g.seats || cs.some((s) => typeof s !== 'string')) return fail(0, 0, 'seeds');
  let m;
  try {
    m = core.newMatch(arch.game, core.matchSeed(serverSeed, cs), { max_turns: arch.options?.max_turns || 0 });
  } catch (e) {
    return fail(0, 0, e.code === 'no_game' ? 'game' : 'options', { recorded: e.code === 'no_game' ? arch.game : arch.options });
  }
  snapshots.set(0, m.snapshot());
  if (until <= 0) return { ok: true, partial: true, mismatch: null, order, snapshots, match: m, steps: 0 };
  for (let k = 1; k < order.length; k++) {
    const st = order[k];
    const ply = m.ply;
    if (st.kind === 'event') {
      const ev = arch.events[st.i];
      if (ev.ply !== ply) return fail(k, ply, 'ply', { seat: ev.seat, recorded: ev.ply, derived: ply, event: st.i });
      const r = m.event(ev.seat, ev.kind);
      if (r.error) return fail(k, ply, 'event', { seat: ev.seat, recorded: ev.kind, derived: r.error, event: st.i });
    } else {
      const x = arch.actions[st.i];
      if (x.ply !== ply) return fail(k, ply, 'ply', { seat: x.seat, recorded: x.ply, derived: ply, action: st.i });
      const r = m.apply(x.seat, x.action);
      if (r.error) return fail(k, ply, 'action', { seat: x.seat, recorded: x.action, derived: r.error, action: st.i });
      const same = JSON.stringify(x.outcome) === r.outcomeText || canonical(x.outcome) === canonical(r.outcome);
      if (!same) return fail(k, ply, 'outcome', { seat: x.seat, recorded: x.outcome, derived: r.outcome, action: st.i, played: x.action });
    }
    if (k % snapshotEvery === 0) snapshots.set(k, m.snapshot());
    if (onStep) onStep(k, st, m);
    if (onProgress && k % progressEvery === 0) onProgress(k, order.length - 1);
    if (k >= until) return { ok: true, partial: true, mismatch: null, order, snapshots, match: m, steps: k };
  }
  const result = m.result();
  if (canonical(result) !== canonical(arch.result ?? null)) {
    return fail(order.length - 1, m.ply, 'result', { recorded: arch.result ?? null, derived: result });
  }
  if (onProgress) onProgress(order.length - 1, order.length - 1);
  return { ok: true, mismatch: null, order, snapshots, match: m, steps: order.length - 1 };
}
