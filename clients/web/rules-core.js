// rules-core.js: the games' rules core in WebAssembly (/wasm/rules.wasm, built from protocol/ by meson: the same
// C as the server's rules and the same C writing the wire's JSON), for the page, its Web Worker and Node alike.
// Nothing here knows a game: views, legal actions, outcomes and results come out of the module as the JSON the
// server sends.
//
//   const core = await loadRules('/wasm/rules.wasm');        // or loadRules(bytes) in Node
//   const m = core.newMatch('ur', seedBytes, { max_turns });  // seedBytes: Uint8Array(32)
//   m.toAct(); m.view(); m.legal(seat); m.apply(seat, action) -> { outcome, outcomeText } or { error }
//   const snap = m.snapshot(); ...; m.restore(snap);          // a match is plain bytes
//
// The module holds one working match; a Match keeps its own bytes and is loaded into the module when used, so
// any number of matches (a replay, an analysis variation, a room's preview) live side by side.

const enc = new TextEncoder();
const dec = new TextDecoder();

// The module's codes (protocol/wasm/exports.c and rules.h), as words.
const CODES = {
  [-1000]: 'illegal', [-1001]: 'not_to_act', [-1002]: 'game_over', [-1003]: 'bad_options', [-1004]: 'bad_seat',
  [-1005]: 'out_of_play', [-1800]: 'illegal', [-1801]: 'too_large', [-1802]: 'no_game', [-1803]: 'bad_view',
  [-1804]: 'illegal',
};
export const EVENT_KINDS = { resign: 1, forfeit: 2 };

export function errorName(code) { return CODES[code] || `error_${code}`; }

// JSON with every object's keys sorted: two values are the same JSON exactly when these strings are equal.
export function canonical(v) {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`).join(',')}}`;
  }
  return JSON.stringify(v);
}

export class RulesCore {
  constructor(instance) {
    this.x = instance.exports;
    this.io = this.x.qw_io();
    this.ioSize = this.x.qw_io_size();
    this.matchAt = this.x.qw_match();
    this.matchSize = this.x.qw_match_size();
    this.loaded = null; // the Match whose bytes are in the module's working match
    this.games = [];
    for (let i = 0; i < this.x.qw_game_count(); i++) {
      const p = this.x.qw_game_id(i);
      const mem = this.mem();
      let end = p;
      while (mem[end]) end++;
      this.games.push({ id: dec.decode(mem.subarray(p, end)), seats: this.x.qw_game_seats(i), index: i });
    }
  }

  // The module's memory as bytes (it never grows: the C allocates nothing, so one view serves every call).
  mem() {
    if (this.u8?.buffer !== this.x.memory.buffer) this.u8 = new Uint8Array(this.x.memory.buffer);
    return this.u8;
  }

  game(id) { return this.games.find((g) => g.id === id) || null; }

  // Keeps the working match's bytes in its Match before a call writes another match there (newMatch,
  // fromView): a match played on and not yet saved must not lose those plies.
  park() {
    if (this.loaded) this.loaded.sync();
    this.loaded = null;
  }

  // Text into the I/O buffer; its length.
  put(text) {
    if (typeof text === 'string') {
      const { read, written } = enc.encodeInto(text, this.mem().subarray(this.io, this.io + this.ioSize));
      if (read !== text.length) throw new RangeError('text too large for the rules module');
      return written;
    }
    if (text.length > this.ioSize) throw new RangeError('text too large for the rules module');
    this.mem().set(text, this.io);
    return text.length;
  }

  // The text a call left in the I/O buffer (n its result: a length, or a negative code).
  take(n) {
    if (n < 0) return null;
    return dec.decode(this.mem().subarray(this.io, this.io + n));
  }

  sha256(bytes) {
    const n = this.put(bytes);
    this.x.qw_sha256(n);
    return this.mem().slice(this.io, this.io + 32);
  }

  // protocol: match_seed = SHA-256(server_seed || cs0 || 0x00 || ... || csN || 0x00).
  matchSeed(serverSeed, clientSeeds) {
    const parts = [serverSeed];
    for (const cs of clientSeeds) parts.push(enc.encode(cs || ''), new Uint8Array(1));
    const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of parts) { all.set(p, at); at += p.length; }
    return this.sha256(all);
  }

  // A new match of `gameId` from a 32-byte seed; throws on an unknown game or options the rules refuse.
  newMatch(gameId, seed, options = {}) {
    const g = this.game(gameId);
    if (!g) throw new Error(`no rules for the game ${gameId}`);
    this.put(seed);
    this.park();
    const rc = this.x.qw_start(g.index, options.max_turns || 0);
    if (rc !== 0) {
      const e = new Error(rc === -1802 ? `no rules module for the game ${gameId}` : `the rules refuse these options (${errorName(rc)})`);
      e.code = errorName(rc);
      throw e;
    }
    const m = new Match(this, g);
    m.bytes = this.mem().slice(this.matchAt, this.matchAt + this.matchSize);
    this.loaded = m;
    return m;
  }

  // The match a `state` message shows (its view, to_act, the legal list it sent, ply), rebuilt by the game's
  // own C for a local preview; null when the game cannot rebuild exactly that position (then do not preview).
  fromView(gameId, { view, to_act: toAct, legal = null, ply = 0 }, options = {}) {
    const g = this.game(gameId);
    if (!g) return null;
    const n = this.put(JSON.stringify({ view, to_act: toAct, legal, ply }));
    this.park();
    if (this.x.qw_from_view(g.index, options.max_turns || 0, n) !== 0) return null;
    const m = new Match(this, g);
    m.bytes = this.mem().slice(this.matchAt, this.matchAt + this.matchSize);
    this.loaded = m;
    return m;
  }
}

export class Match {
  constructor(core, game) {
    this.core = core;
    this.game = game;
    this.bytes = null;
  }

  // Makes this match the module's working match (saving the one that was there).
  load() {
    const c = this.core;
    if (c.loaded === this) return c.x;
    if (c.loaded) c.loaded.bytes = c.mem().slice(c.matchAt, c.matchAt + c.matchSize);
    c.mem().set(this.bytes, c.matchAt);
    c.loaded = this;
    return c.x;
  }

  sync() { if (this.core.loaded === this) this.bytes = this.core.mem().slice(this.core.matchAt, this.core.matchAt + this.core.matchSize); }

  snapshot() { this.sync(); return this.bytes.slice(); }

  restore(bytes) {
    this.bytes = bytes.slice();
    if (this.core.loaded === this) this.core.loaded = null;
  }

  clone() {
    const m = new Match(this.core, this.game);
    m.bytes = this.snapshot();
    return m;
  }

  get ply() { return this.load().qw_ply(); }

  toAct() {
    const bits = this.load().qw_to_act();
    const out = [];
    for (let s = 0; s < this.game.seats; s++) if (bits & (1 << s)) out.push(s);
    return out;
  }

  outOfPlay() {
    const bits = this.load().qw_out();
    const out = [];
    for (let s = 0; s < this.game.seats; s++) if (bits & (1 << s)) out.push(s);
    return out;
  }

  viewText() { return this.core.take(this.load().qw_view()); }
  view() { return JSON.parse(this.viewText()); }
  resultText() { return this.core.take(this.load().qw_result()); }
  result() { return JSON.parse(this.resultText()); }
  legalText(seat) { return this.core.take(this.load().qw_legal(seat)); }
  legal(seat) { return JSON.parse(this.legalText(seat)); }

  // Applies `action` (a value, or its JSON text) for `seat`: { outcome, outcomeText } when it is one of the
  // seat's legal actions (compared as JSON: key order does not matter), else { error } with the match untouched.
  apply(seat, action) {
    const x = this.load();
    const text = typeof action === 'string' ? action : JSON.stringify(action);
    let n = x.qw_apply_text(seat, this.core.put(text));
    if (n === -1800) { // not byte for byte: compare as JSON
      const want = canonical(typeof action === 'string' ? JSON.parse(action) : action);
      const i = this.legal(seat).findIndex((a) => canonical(a) === want);
      if (i < 0) return { error: 'illegal' };
      n = x.qw_apply_index(seat, i);
    }
    if (n < 0) return { error: errorName(n) };
    const outcomeText = this.core.take(n);
    return { outcome: JSON.parse(outcomeText), outcomeText };
  }

  applyIndex(seat, i) {
    const n = this.load().qw_apply_index(seat, i);
    if (n < 0) return { error: errorName(n) };
    const outcomeText = this.core.take(n);
    return { outcome: JSON.parse(outcomeText), outcomeText };
  }

  // An event ('resign' or 'forfeit') for `seat`: {} or { error }.
  event(seat, kind) {
    const k = EVENT_KINDS[kind];
    if (!k) return { error: 'illegal' };
    const rc = this.load().qw_event(seat, k);
    return rc === 0 ? {} : { error: errorName(rc) };
  }

  // The bot levels of this game (the server's bots, the same C), e.g. ['greedy', 'random'].
  botLevels() {
    const n = this.load().qw_bot_levels();
    return n > 0 ? this.core.take(n).split(', ') : [];
  }

  // The index in legal(seat) of what the bot of `level` would play here, drawing from its own stream `rng`
  // (a non-zero BigInt below 2^64), within `budget` units of work (0: the level's default); null when it
  // has nothing to play. The match is not changed.
  botChoice(level, seat, rng = 1n, budget = 0) {
    const x = this.load();
    const i = x.qw_bot(this.core.put(level), seat, Number(rng & 0xffffffffn), Number(rng >> 32n), budget);
    return i >= 0 ? i : null;
  }

  // The estimate the last botChoice() (of any match of this module) gave: each seat's chance to win, 0..1, as
  // the bot saw it (the C float, unchanged), or null when its level estimates nothing (random, greedy).
  botEstimate() {
    const x = this.core.x;
    if (x.qw_bot_estimate(0) < 0) return null;
    const out = [];
    for (let s = 0; s < this.game.seats; s++) out.push(x.qw_bot_estimate(s));
    return out;
  }

  // The work the last botChoice() did, in its level's budget units.
  botSpent() { return this.core.x.qw_bot_spent(); }

  // The rest of the dice stream from a seed of one's own (32 bytes): the analysis board's dice.
  reseed(seed) {
    const x = this.load();
    this.core.put(seed);
    x.qw_reseed();
  }
}

// Instantiates the module from a URL (fetched; served as application/wasm, compiled while it streams) or from
// its bytes.
export async function loadRules(source) {
  let instance;
  if (typeof source === 'string' || source instanceof URL) {
    const res = await fetch(source);
    if (!res.ok) throw new Error(`${source}: HTTP ${res.status}`);
    if (WebAssembly.instantiateStreaming && (res.headers.get('content-type') || '').startsWith('application/wasm')) {
      ({ instance } = await WebAssembly.instantiateStreaming(res, {}));
    } else ({ instance } = await WebAssembly.instantiate(await res.arrayBuffer(), {}));
  } else ({ instance } = await WebAssembly.instantiate(source, {}));
  return new RulesCore(instance);
}
