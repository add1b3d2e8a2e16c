// rules_wasm.test.mjs: the rules core compiled to WebAssembly (protocol/wasm/) is the rules core. The module
// of every listed game is built by `meson compile` (clang --target=wasm32, freestanding, wasm-ld), imports
// nothing and stays within issue 21's budget of 200 KB; the same perft_count() built into a wasm module of
// its own gives, for every seed line of tests/perft/<game>.txt, the count the C rules tests pin.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

const SOURCE = process.env.QUINTETO_SOURCE;
const RULES = path.join(process.env.QUINTETO_TEST_WASM || '', 'rules.wasm');
const PERFT = process.env.QUINTETO_TEST_PERFT_WASM || '';
const MAX_COUNT = 2_000_000; // the larger pinned counts stay with the C tests (time, not meaning)

function load(file) {
  assert.ok(existsSync(file), `${file} is built (clang and wasm-ld installed: deploy/dev.sh)`);
  const bytes = readFileSync(file);
  const module = new WebAssembly.Module(bytes);
  return { bytes, module };
}

test('rules.wasm: built, nothing imported, its interface (protocol/wasm/exports.c) exported, under 200 KB', () => {
  const { bytes, module } = load(RULES);
  assert.deepEqual(WebAssembly.Module.imports(module), [], 'freestanding: no import');
  const names = WebAssembly.Module.exports(module).map((e) => e.name);
  for (const f of ['qw_io', 'qw_match', 'qw_match_size', 'qw_start', 'qw_to_act', 'qw_view', 'qw_legal', 'qw_apply_text',
    'qw_apply_index', 'qw_event', 'qw_result', 'qw_from_view', 'memory']) assert.ok(names.includes(f), `exports ${f}`);
  assert.ok(bytes.length <= 200 * 1024, `${bytes.length} bytes`);
});

test('the wasm rules count every pinned perft of every game as the C rules do', () => {
  const { module } = load(PERFT);
  const { exports: x } = new WebAssembly.Instance(module, {});
  const mem = () => new Uint8Array(x.memory.buffer);
  const games = readdirSync(path.join(SOURCE, 'tests', 'perft')).filter((f) => f.endsWith('.txt'))
    .map((f) => f.slice(0, -4));
  assert.ok(games.length >= 4, 'a perft file per game');
  let checked = 0;
  for (const game of games) {
    const lines = readFileSync(path.join(SOURCE, 'tests', 'perft', `${game}.txt`), 'utf8').split('\n');
    let cases = 0;
    for (const line of lines) {
      // "<seed> <depth> <count>", or "<depth> <count>" from the opening of a game without dice
      const m = /^([0-9a-f]{64}) (\d+) (\d+)$/.exec(line.trim()) ||
        /^()(\d+) (\d+)$/.exec(line.trim());
      if (!m || Number(m[3]) > MAX_COUNT) continue;
      m[1] = m[1] || '00'.repeat(32);
      const id = x.wasm_scratch(game.length + 1);
      mem().set(new TextEncoder().encode(`${game}\0`), id);
      mem().set(Buffer.from(m[1], 'hex'), x.wasm_seed.value);
      assert.equal(x.wasm_perft(id, Number(m[2])), BigInt(m[3]), `${game} ${m[1].slice(0, 8)}… depth ${m[2]}`);
      cases++;
    }
    assert.ok(cases > 0, `${game}: at least one seed line counted`);
    checked += cases;
  }
  assert.ok(checked >= 8, `${checked} cases`);
});
