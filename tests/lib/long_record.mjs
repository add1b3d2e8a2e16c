// long_record.mjs: a valid archived record of a long match, built with the rules module (clients/web/
// rules-core.js) in Node, for tests/bench/replay_long.mjs and the browser tests of long replays: a real server
// seed and its commit, client seeds, the match seed from them, every action and its outcome as the module
// gives them, and the result. Random play ends a match in a few hundred plies, so the seats play carefully,
// as tests/bench/long_match.c does in C: each takes, in a random order, the first legal action whose outcome
// captures, kills, eliminates, bears off, rolls a Quinteto or wins nothing, backing up to an earlier choice
// when a position offers none (the dice are the seed's whatever the choices, so the future is known), and
// gives in after 20,000 backtracks. With Quinteto and a large max_turns the match runs to max_turns and ends
// drawn, two plies a turn.

import { createHash } from 'node:crypto';

const BACKTRACK = 20000;
const sha256 = (b) => createHash('sha256').update(b).digest();
const hex = (b) => Buffer.from(b).toString('hex');

// What careful players avoid: an outcome that takes something off the board or ends the match.
function harmful(o) {
  for (const k of ['captured', 'killed', 'eliminated', 'quinteto', 'won', 'borne_off']) {
    const v = o[k];
    if (Array.isArray(v) ? v.length : v) return true;
  }
  return false;
}

// The record of a careful match of `game` (core: a RulesCore). roles: the game's schema roles (game.json); a
// game with more seats than roles (Quinteto: five hunters and the arranger) gets the first for every seat
// but the last. onProgress(plies, seconds) every 10,000 plies.
export function longRecord(core, { game: gameId, roles, maxTurns = 0, seed = '1', onProgress = null }) {
  const game = core.game(gameId);
  let rng = 0x2545f4914f6cdd1dn ^ BigInt(createHash('sha256').update(String(seed)).digest().readUInt32BE(0));
  const rnd = (n) => {
    rng ^= (rng << 13n) & 0xffffffffffffffffn; rng ^= rng >> 7n; rng ^= (rng << 17n) & 0xffffffffffffffffn;
    return Number((rng >> 11n) % BigInt(n));
  };
  const roleOf = (seat) => (roles.length === game.seats ? roles[seat] : roles[seat === game.seats - 1 ? roles.length - 1 : 0]);
  const serverSeed = sha256(`long_record ${seed}`);
  const clientSeeds = Array.from({ length: game.seats }, (_, i) => (i === 0 ? `careful ${seed}` : ''));
  const options = maxTurns ? { autoroll: false, max_turns: maxTurns } : {};
  const start = core.newMatch(gameId, core.matchSeed(serverSeed, clientSeeds), { max_turns: maxTurns });
  // A depth-first search over snapshots: frames[p] is the match before ply p and the next candidate to try.
  const frames = [{ bytes: start.snapshot(), order: null, next: 0 }];
  const chosen = [];
  const m = start.clone();
  let ply = 0;
  let tries = 0;
  let furthest = 0;
  const t0 = Date.now();
  for (;;) {
    const f = frames[ply];
    m.restore(f.bytes);
    const toAct = m.toAct();
    if (!toAct.length) break;
    const seat = toAct[0];
    if (!f.order) {
      const n = m.legal(seat).length;
      f.order = Array.from({ length: n }, (_, i) => i);
      for (let i = n - 1; i > 0; i--) { const j = rnd(i + 1); [f.order[i], f.order[j]] = [f.order[j], f.order[i]]; }
    }
    let pick = -1;
    let played = null;
    for (; f.next < f.order.length && pick < 0; f.next++) {
      const c = m.clone();
      const r = c.applyIndex(seat, f.order[f.next]);
      if (!r.error && !harmful(r.outcome)) { pick = f.order[f.next]; played = c; }
    }
    if (pick < 0 && ply > 0 && tries < BACKTRACK) { tries++; ply--; continue; }
    if (pick < 0) { pick = f.order[0]; played = m.clone(); played.applyIndex(seat, pick); }
    chosen[ply] = { seat, index: pick };
    frames[ply + 1] = { bytes: played.snapshot(), order: null, next: 0 };
    if (++ply > furthest) { furthest = ply; tries = 0; }
    if (onProgress && ply % 10000 === 0) onProgress(ply, (Date.now() - t0) / 1000);
  }
  // Played once more to write the record (the search's last path is the match).
  const w = core.newMatch(gameId, core.matchSeed(serverSeed, clientSeeds), { max_turns: maxTurns });
  const actions = [];
  const at0 = Date.UTC(2026, 11, 1);
  for (let p = 0; p < ply; p++) {
    const { seat, index } = chosen[p];
    const action = w.legal(seat)[index];
    const r = w.applyIndex(seat, index);
    actions.push({ ply: p, seat, action, outcome: r.outcome, at: at0 + p * 1000 });
  }
  return {
    id: `long${seed}`, game: gameId, options, started_at: at0, ended_at: at0 + ply * 1000,
    seats: Array.from({ length: game.seats }, (_, seat) => ({ seat, role: roleOf(seat), name: `Careful ${seat + 1}`, bot: true })),
    commit: hex(sha256(serverSeed)), server_seed: hex(serverSeed), client_seeds: clientSeeds,
    actions, events: [], result: w.result(),
  };
}
