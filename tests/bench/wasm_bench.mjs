// wasm_bench.mjs: the rules module against native C on this machine (docs/BENCHMARKS.md, issue 21). Runs the
// same random playouts (wasm_playouts.c) in the WebAssembly build under Node and natively, median of ROUNDS
// rounds each, per action: rules only, and rules + the outcome and view written as text (what deriving a replay
// does in C); then, for the whole path a page takes, playouts through clients/web/rules-core.js (JS <-> module
// copies and JSON.parse of each outcome included).
//
//   node tests/bench/wasm_bench.mjs BUILD_DIR [ROUNDS]      (BUILD_DIR: a release build, e.g. build-release)
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const build = process.argv[2] || 'build-release';
const rounds = Number(process.argv[3] || 7);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const { instance } = await WebAssembly.instantiate(readFileSync(path.join(build, 'tests', 'bench', 'wasm-playouts.wasm')), {});
const x = instance.exports;
const { loadRules } = await import(path.join(here, '..', '..', 'clients', 'web', 'rules-core.js'));
const core = await loadRules(readFileSync(path.join(build, 'protocol', 'wasm', 'rules.wasm')));
const native = Object.fromEntries(execFileSync(path.join(build, 'tests', 'bench', 'wasm-playouts-native'), [String(rounds)],
  { encoding: 'utf8' }).trim().split('\n').map((l) => { const f = l.split(' '); return [f[0], { rules: Number(f[2]), text: Number(f[4]) }]; }));

// Playouts through rules-core.js: legal list as text, an action applied by index, outcome parsed, view text.
function viaCore(game, matches) {
  let s = 12345;
  let actions = 0;
  const draw = () => { s = (Math.imul(s, 1664525) + 1013904223) >>> 0; return s >>> 8; };
  for (let i = 0; i < matches; i++) {
    const seed = new Uint8Array(32);
    new DataView(seed.buffer).setUint32(0, i, true);
    const m = core.newMatch(game, seed);
    for (;;) {
      const act = m.toAct();
      if (!act.length) break;
      const seat = act[draw() % act.length];
      const n = m.legal(seat).length;
      const r = m.applyIndex(seat, draw() % n);
      if (r.error) break;
      m.viewText();
      actions++;
    }
  }
  return actions;
}

console.log('game      native rules  wasm rules  ratio | native +text  wasm +text  ratio | rules-core.js');
for (let gi = 0; gi < x.bench_game_count(); gi++) {
  if (!x.bench_has_text(gi)) continue;
  const game = core.games[gi].id;
  const ns = [[], []];
  for (let t = 0; t < 2; t++) {
    for (let r = 0; r < rounds; r++) {
      const t0 = process.hrtime.bigint();
      const n = x.bench_playouts(gi, 200, t);
      ns[t].push(Number(process.hrtime.bigint() - t0) / n);
    }
  }
  const js = [];
  for (let r = 0; r < rounds; r++) {
    const t0 = process.hrtime.bigint();
    const n = viaCore(game, 20);
    js.push(Number(process.hrtime.bigint() - t0) / n);
  }
  const [wr, wt, jc] = [median(ns[0]), median(ns[1]), median(js)];
  const nat = native[game];
  console.log(`${game.padEnd(9)} ${nat.rules.toFixed(0).padStart(9)} ns ${wr.toFixed(0).padStart(8)} ns ${(wr / nat.rules).toFixed(2).padStart(5)}x |` +
    ` ${nat.text.toFixed(0).padStart(9)} ns ${wt.toFixed(0).padStart(8)} ns ${(wt / nat.text).toFixed(2).padStart(5)}x | ${jc.toFixed(0).padStart(7)} ns` +
    `  (${Math.round(1e9 / wr)} actions/s in wasm)`);
}
