// eye.js: the bot's eye on a replay: at the positions of a derived match, what the strong bot (the server's own
// C, through the rules module: rules-core.js botChoice/botEstimate) estimates each seat's chance to win to be,
// and the move it would choose. Run by the replay's Web Worker (replay-worker.js) on the match it derived;
// knows no game. Deterministic: position k is searched with the bot's own stream k + 1 and a fixed budget, so
// the same record gives the same graph in every browser (the module is bit for bit the native build:
// rules_wasm).
//
// The positions weighed are the start and every step after an action (an event's step is the same position
// for the seats still in play), at most MAX_POINTS of them, evenly spread over a long match. They are weighed
// coarse to fine (every STRIDE-th first, then the ones between), so the graph has its shape early and fills in.

export const EYE_LEVEL = 'strong';
export const EYE_BUDGET = 1024;  // work units per position (the level's own: nodes); 0.4 to 6 ms each in the module
export const MAX_POINTS = 600;   // positions weighed in a long match
const STRIDE = 8;                // the coarse pass weighs every STRIDE-th position
const SLICE_MS = 40;             // work between yields (the worker answers the page's requests meanwhile)

// The steps to weigh among `total` steps (order: derive's step kinds), as a sorted array. A long match is
// sampled in pairs (a position and the one after its action), so that a sampled move's cost is still known.
export function eyeSteps(order, total, max = MAX_POINTS) {
  const all = [];
  for (let k = 0; k < total; k++) if (k === 0 || order[k].kind === 'action') all.push(k);
  if (all.length <= max) return all;
  const out = new Set();
  const pairs = Math.floor(max / 2);
  for (let i = 0; i < pairs; i++) {
    const at = 1 + Math.round((i * (all.length - 2)) / Math.max(1, pairs - 1));
    out.add(all[at - 1]);
    out.add(all[at]);
  }
  return [...out].sort((a, b) => a - b);
}

// The coarse-to-fine order of indexes 0..n-1: every STRIDE-th first, then the rest.
export function coarseToFine(n) {
  const first = [];
  const rest = [];
  for (let i = 0; i < n; i++) (i % STRIDE === 0 || i === n - 1 ? first : rest).push(i);
  return [...first, ...rest];
}

// One position weighed: { step, ply, seat, est: [chance per seat] | null, choice: action | null, n: legal count }.
// `m` is a Match (not changed). At the end nobody chooses, and the estimate is the result.
export function weigh(m, step, { level = EYE_LEVEL, budget = EYE_BUDGET } = {}) {
  const toAct = m.toAct();
  const point = { step, ply: m.ply, seat: toAct.length ? toAct[0] : null, est: null, choice: null, n: 0 };
  if (!toAct.length) { // the end: the result is the chance (a winner 1, a draw shared), when the match says one
    const r = m.result();
    if (Number.isInteger(r?.winner) && r.winner >= 0) point.est = [...Array(m.game.seats)].map((_, s) => (s === r.winner ? 1 : 0));
    else if (r?.draw === true) point.est = [...Array(m.game.seats)].map(() => Math.round(1000 / m.game.seats) / 1000);
    return point;
  }
  const legal = m.legal(point.seat);
  point.n = legal.length;
  const i = m.botChoice(level, point.seat, BigInt(step + 1), budget);
  if (i === null) return point;
  point.choice = legal[i];
  const est = m.botEstimate();
  if (est) point.est = est.map((x) => Math.round(x * 1000) / 1000);
  return point;
}

// Weighs `steps` (positions as match bytes from bytesAt(step), a Match from matchOf(bytes)) coarse to fine,
// calling onPoints(points) after each slice of work and yielding between slices; stops when cancelled() says.
export async function eyeRun({ steps, matchAt, onPoints, cancelled = () => false, budget = EYE_BUDGET }) {
  const order = coarseToFine(steps.length);
  let batch = [];
  let t0 = performance.now();
  for (const i of order) {
    if (cancelled()) return false;
    batch.push(weigh(matchAt(steps[i]), steps[i], { budget }));
    if (performance.now() - t0 >= SLICE_MS) {
      onPoints(batch);
      batch = [];
      await new Promise((r) => setTimeout(r, 0));
      t0 = performance.now();
    }
  }
  if (batch.length) onPoints(batch);
  return true;
}

// The moves that lost much of their mover's chance: for each action at step j whose mover had a choice
// (more than one legal action) and played something else than the bot's choice, the mover's estimate before
// (step j-1's position, weighed) minus after (step j's, weighed): those of at least `threshold` (0..1).
// points: Map(step -> point); played(j): { seat, action } of step j's action. Returns Map(j -> loss).
export function costlyMoves(points, played, canonical, threshold = 0.15) {
  const out = new Map();
  for (const [j, after] of points) {
    const before = points.get(j - 1);
    if (!before || !before.est || !after.est || before.n < 2 || before.choice === null) continue;
    const p = played(j);
    if (!p || p.seat !== before.seat || canonical(p.action) === canonical(before.choice)) continue;
    const loss = before.est[p.seat] - after.est[p.seat];
    if (loss >= threshold) out.set(j, loss);
  }
  return out;
}
