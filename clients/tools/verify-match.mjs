#!/usr/bin/env node
// verify-match.mjs: checks an archived match with nothing but Node (18 or later) and the rules module the
// server serves (/wasm/rules.wasm), or one built from the sources (meson compile: build/protocol/wasm/rules.wasm).
// The same derivation as the web client's replay page (clients/web/derive.js): the commit against the revealed
// server seed, the match seed, every action and event through the rules, every recorded outcome and the result
// compared with the derived ones. docs/VERIFYING.md explains it step by step.
//
//   node clients/tools/verify-match.mjs https://example.org/api/matches/k3x9q
//   node clients/tools/verify-match.mjs match.json --wasm build/protocol/wasm/rules.wasm
//   curl -s .../api/matches/k3x9q | node clients/tools/verify-match.mjs - --wasm https://example.org/wasm/rules.wasm
//
// Prints "verified: ..." and exits 0; prints "ply N: ..." (the first disagreement, as `quinteto verify` names
// it) and exits 1; exits 2 when the input is not an archive or the module cannot be loaded.

import { readFileSync } from 'node:fs';
import { loadRules } from '../web/rules-core.js';
import { derive } from '../web/derive.js';

const show = (v) => (v === undefined ? '(nothing)' : JSON.stringify(v));

// The first disagreement in words (derive.js's mismatch).
export function describe(m) {
  const seat = m.seat === null || m.seat === undefined ? '' : `seat ${m.seat} `;
  switch (m.what) {
  case 'game': return `ply 0: ${show(m.recorded)} is not a game of this rules module with this many seats`;
  case 'commit': return `ply 0: the commit ${show(m.recorded)} is not SHA-256 of the server seed (that is ${show(m.derived)})`;
  case 'seeds': return 'ply 0: client_seeds must be one string per seat';
  case 'options': return `ply 0: the rules refuse the options ${show(m.recorded)}`;
  case 'ply': return `ply ${m.ply}: ${m.event !== undefined ? `events[${m.event}]` : `actions[${m.action}]`} records ply ${m.recorded}`;
  case 'action': return `ply ${m.ply}: ${seat}may not play ${show(m.recorded)} here (${m.derived})`;
  case 'outcome': return `ply ${m.ply}: ${seat}played ${show(m.played)}: the archive records ${show(m.recorded)}, the rules and dice give ${show(m.derived)}`;
  case 'event': return `ply ${m.ply}: ${seat}cannot ${m.recorded} here (${m.derived})`;
  case 'result': return `ply ${m.ply}: result: the archive records ${show(m.recorded)}, the rules give ${show(m.derived)}`;
  default: return `ply ${m.ply}: ${m.what}`;
  }
}

async function read(src) {
  if (src === '-') {
    const chunks = [];
    for await (const c of process.stdin) chunks.push(c);
    return Buffer.concat(chunks);
  }
  if (/^https?:\/\//.test(src)) {
    const res = await fetch(src);
    if (!res.ok) throw new Error(`${src}: HTTP ${res.status}`);
    return Buffer.from(await res.arrayBuffer());
  }
  return readFileSync(src);
}

export async function main(argv) {
  const args = argv.slice();
  const w = args.indexOf('--wasm');
  let wasm = w >= 0 ? args.splice(w, 2)[1] : null;
  const src = args[0];
  if (!src || args.length !== 1) {
    console.error('usage: verify-match.mjs (ARCHIVE.json | - | https://HOST/api/matches/ID) [--wasm FILE|URL]');
    return 2;
  }
  if (!wasm) {
    if (!/^https?:\/\//.test(src)) {
      console.error('--wasm FILE|URL is needed when the archive is not read from its server');
      return 2;
    }
    wasm = new URL('/wasm/rules.wasm', src).href;
  }
  let arch, core;
  try {
    arch = JSON.parse((await read(src)).toString('utf8'));
    if (!arch || typeof arch !== 'object' || !Array.isArray(arch.actions)) throw new Error('not an archived match');
  } catch (e) {
    console.error(`${src}: ${e.message}`);
    return 2;
  }
  try {
    core = await loadRules(await read(wasm));
  } catch (e) {
    console.error(`${wasm}: ${e.message}`);
    return 2;
  }
  const r = derive(core, arch);
  if (!r.ok) {
    console.log(describe(r.mismatch));
    return 1;
  }
  console.log(`verified: ${arch.game} match ${arch.id}, ${arch.actions.length} actions, ${(arch.events || []).length} events, ` +
    `result ${JSON.stringify(arch.result)}`);
  return 0;
}

if (import.meta.url === `file://${process.argv[1]}`) process.exitCode = await main(process.argv.slice(2));
