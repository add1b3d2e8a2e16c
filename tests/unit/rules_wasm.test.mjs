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

// --- The module through clients/web/rules-core.js, as the page, the worker and Node use it. ---------------------

const { loadRules } = await import(path.join(SOURCE, 'clients', 'web', 'rules-core.js'));
const { derive } = await import(path.join(SOURCE, 'clients', 'web', 'derive.js'));
const { execFile } = await import('node:child_process');
const { promisify } = await import('node:util');

// FNV-1a over the UTF-8 bytes of s, as text_trace.c digests the C's bytes. The texts are JSON and almost all
// ASCII, where a character is its byte: those are hashed as they are read, and from the first other character on
// the rest goes through TextEncoder (a string is hashed a few hundred thousand times a game: an encoder's buffer
// for each was a quarter of the test's time).
const utf8 = new TextEncoder();
function fnv(h, s) {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x80) {
      for (const b of utf8.encode(s.slice(i))) h = Math.imul(h ^ b, 16777619);
      return h >>> 0;
    }
    h = Math.imul(h ^ c, 16777619);
  }
  return h >>> 0;
}

// The matches of tests/unit/text_trace.c (its comment says every detail), through the module.
function trace(core, game, matches) {
  let h = 2166136261;
  let steps = 0;
  for (let i = 0; i < matches; i++) {
    const seed = new Uint8Array(32);
    new DataView(seed.buffer).setUint32(0, i, true);
    seed[31] = 0x33;
    const m = core.newMatch(game, seed);
    let s = (i + 1) >>> 0;
    const draw = () => { s = (Math.imul(s, 1664525) + 1013904223) >>> 0; return s >>> 8; };
    for (let k = 0; k < 4000; k++) {
      const act = m.toAct();
      h = fnv(h, m.viewText());
      h = fnv(h, String(act.reduce((b, x) => b | (1 << x), 0)));
      if (!act.length) break;
      steps++;
      const seat = act[draw() % act.length];
      const legal = m.legalText(seat);
      h = fnv(h, legal);
      if (k % 8 === 0) {
        for (const level of m.botLevels()) {
          const i = m.botChoice(level, seat, BigInt(k + 1), 64);
          h = fnv(h, String(i ?? -1));
          // the estimate as its float's bits (text_trace.c): it crosses the boundary unchanged
          const est = i === null ? null : m.botEstimate();
          if (est) for (const e of est) h = fnv(h, String(new Uint32Array(new Float32Array([e]).buffer)[0]));
        }
      }
      if (draw() % 300 === 0) {
        assert.deepEqual(m.event(seat, 'resign'), {});
        h = fnv(h, 'resign');
        continue;
      }
      const r = m.applyIndex(seat, draw() % JSON.parse(legal).length);
      assert.ok(!r.error, r.error);
      h = fnv(h, r.outcomeText);
    }
    h = fnv(h, m.resultText());
  }
  return { steps, digest: h.toString(16).padStart(8, '0') };
}

test('the module and the native rules give the same views, to_act, legal lists, bot choices, outcomes and results over 2,000 random matches of every game', { timeout: 840000 }, async () => {
  const core = await loadRules(readFileSync(RULES));
  // The native matches run in their own process while this one plays the module's: the two sides share
  // nothing until the digests are compared, so neither waits for the other (each is about a minute of CPU).
  const running = promisify(execFile)(process.env.QUINTETO_TEST_TRACE, ['2000'], { encoding: 'utf8' });
  running.catch(() => {}); // awaited below; not an unhandled rejection while the module plays
  const got = new Map(core.games.map((g) => [g.id, trace(core, g.id, 2000)]));
  const native = (await running).stdout.trim().split('\n').map((l) => l.split(' '));
  assert.ok(native.length >= 1, 'the native trace covers the games with a text codec');
  for (const [game, n, steps, digest] of native) {
    assert.equal(n, '2000', `${game}: every match played natively`);
    assert.ok(got.has(game), `${game}: in the module`);
    assert.equal(got.get(game).steps, Number(steps), `${game}: steps`);
    assert.equal(got.get(game).digest, digest, `${game}: the digest of every text`);
  }
  // A module that wrote one byte differently would be caught: the digest moves with any text.
  assert.notEqual(fnv(2166136261, '{"a":1}'), fnv(2166136261, '{"a":2}'));
});

test('derive.js agrees with quinteto verify on every archive of tests/golden/archive: verified, or the same ply named', async () => {
  const core = await loadRules(readFileSync(RULES));
  const dir = path.join(SOURCE, 'tests', 'golden', 'archive');
  let compared = 0;
  for (const name of readdirSync(dir)) {
    const expected = JSON.parse(readFileSync(path.join(dir, name, 'expected.json'), 'utf8'));
    if (expected.decode !== 'ok') continue; // refused before any replay: not a derivation's business
    const arch = JSON.parse(readFileSync(path.join(dir, name, 'archive.json'), 'utf8'));
    const r = derive(core, arch);
    if (expected.verify === 'ok') {
      assert.equal(r.ok, true, `${name}: ${JSON.stringify(r.mismatch)}`);
      assert.equal(r.steps, arch.actions.length + (arch.events || []).length, `${name}: every step derived`);
    } else {
      const ply = Number(/^ply (\d+):/.exec(expected.why)[1]);
      assert.equal(r.ok, false, `${name}: a mismatch`);
      assert.equal(r.mismatch.ply, ply, `${name}: named at ply ${ply} (${expected.why}), got ${JSON.stringify(r.mismatch)}`);
    }
    compared++;
  }
  assert.ok(compared >= 35, `${compared} archives compared`);
});

test('a match keeps its plies when another is started or rebuilt from a view in the same module', async () => {
  const core = await loadRules(readFileSync(RULES));
  const m = core.newMatch('ur', new Uint8Array(32));
  for (let i = 0; i < 5; i++) m.applyIndex(m.toAct()[0], 0);
  const ply = m.ply;
  const view = m.viewText();
  const seat = m.toAct()[0];
  assert.ok(core.fromView('ur', { view: m.view(), to_act: m.toAct(), legal: m.legal(seat), ply }), 'rebuilt from its view');
  assert.equal(m.ply, ply, 'fromView left the first match where it was');
  core.newMatch('ur', new Uint8Array(32).fill(1));
  assert.equal(m.ply, ply, 'newMatch left the first match where it was');
  assert.equal(m.viewText(), view);
});

test('derive.js stops at the step asked for (until: the analysis board\'s start): 0 is the start itself', async () => {
  const core = await loadRules(readFileSync(RULES));
  const dir = path.join(SOURCE, 'tests', 'golden', 'archive');
  const name = readdirSync(dir).find((n) => {
    const e = JSON.parse(readFileSync(path.join(dir, n, 'expected.json'), 'utf8'));
    const a = JSON.parse(readFileSync(path.join(dir, n, 'archive.json'), 'utf8'));
    return e.verify === 'ok' && core.game(a.game) && a.actions.length >= 3;
  });
  const arch = JSON.parse(readFileSync(path.join(dir, name, 'archive.json'), 'utf8'));
  const after = [];
  const full = derive(core, arch, { onStep: (k, st, m) => { after[k] = m.snapshot(); } });
  assert.ok(full.ok);
  after[0] = full.snapshots.get(0);
  for (const until of [0, 1, 3]) {
    const r = derive(core, arch, { until });
    assert.ok(r.ok && r.partial, `${name}: until ${until}`);
    assert.equal(r.steps, until);
    assert.deepEqual(r.match.snapshot(), after[until], `${name}: the match after step ${until}`);
  }
});
