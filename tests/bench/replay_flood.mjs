// replay_flood.mjs: issue 19's replay flood, measured (docs/BENCHMARKS.md, "Issue 19: replay flood").
// One run: a server (any build: pass main's and this branch's to compare) on a fresh database; a match
// of bots (Ur, the longest of a few tries) is archived; the C load generator (quinteto-load) plays one
// Ur room at a fixed rate meanwhile, from 127.0.0.100. After its warm-up, FLOOD replay requests of the
// match are sent from 127.0.0.10..19 (each socket closed right after its request is written, as the
// issue's attacker did), then one honest `GET /api/matches?limit=1` from 127.0.0.2 is timed. Reported:
// that list's latency (a status of -1: the connection was closed unanswered), the generator's act ->
// state latency (p50, p99, max) over its window, and the CPU the server's loop thread used
// (/proc/PID/task/PID/stat) in the 3 s from the flood's start, accepting the flood included.
//
// Usage: node tests/bench/replay_flood.mjs --server BIN --load QUINTETO_LOAD [--flood N] [--runs R]
//          [--rate A] [--duration S]
//   e.g. node tests/bench/replay_flood.mjs --server build-rel/server/quinteto-server \
//          --load build-rel/tests/bench/quinteto-load --flood 1000 --runs 3
// Prints one line per run and the medians. Not a test; every process it starts is stopped at the end.
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const args = Object.fromEntries(process.argv.slice(2).reduce((acc, a, i, all) => {
  if (a.startsWith('--')) acc.push([a.slice(2), all[i + 1]]);
  return acc;
}, []));
const SOURCE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
process.env.QUINTETO_SOURCE = SOURCE;
process.env.QUINTETO_SERVER = path.resolve(args.server || 'build-rel/server/quinteto-server');
const LOAD = path.resolve(args.load || 'build-rel/tests/bench/quinteto-load');
const FLOOD = Number(args.flood ?? 1000);
const RUNS = Number(args.runs ?? 3);
const RATE = Number(args.rate ?? 50);
const DURATION = Number(args.duration ?? 10);
const WARMUP = 2;
const CPU_WINDOW_MS = 3000; // the loop's CPU is measured over the flood's first 3 s

const { Server } = await import('../lib/server.mjs');
const { watchRoom } = await import('../lib/client.mjs');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function loopCpu(pid) {
  const f = (await readFile(`/proc/${pid}/task/${pid}/stat`, 'utf8')).split(') ')[1].split(' ');
  return (Number(f[11]) + Number(f[12])) / 100;
}

// A finished Ur match of bots, the longest of `tries`: its id and plies.
async function longMatch(srv, tries = 4) {
  const w = await srv.player('Bench');
  let best = { id: null, plies: -1 };
  for (let i = 0; i < tries; i++) {
    const r = await w.request({ type: 'create', game: 'ur' });
    await watchRoom(w, r.room.id);
    for (const s of r.room.seats) await w.request({ type: 'add_bot', room: r.room.id, seat: s.seat });
    const st = await w.nextState(r.room.id, (x) => x.status === 'finished', 120000);
    if (st.ply > best.plies) best = { id: r.room.id, plies: st.ply };
  }
  await srv.archive(best.id);
  w.close?.();
  return best;
}

function dropped(port, pathname, from) {
  return new Promise((resolve) => {
    const s = net.connect({ host: '127.0.0.1', port, localAddress: from }, () => {
      s.write(`GET ${pathname} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`, () => { s.destroy(); resolve(); });
    });
    s.on('error', () => resolve());
  });
}

function timedGet(port, pathname, from, timeoutMs) {
  const t0 = process.hrtime.bigint();
  return new Promise((resolve) => {
    const req = http.get({ host: '127.0.0.1', port, path: pathname, localAddress: from, agent: false, timeout: timeoutMs }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode, ms: Number(process.hrtime.bigint() - t0) / 1e6 }));
    });
    req.on('timeout', () => { req.destroy(); resolve({ status: 0, ms: timeoutMs }); });
    req.on('error', () => resolve({ status: -1, ms: Number(process.hrtime.bigint() - t0) / 1e6 }));
  });
}

async function run() {
  const srv = await Server.start({ botDelayMs: 0 });
  try {
    const match = await longMatch(srv);
    const gen = spawn(LOAD, ['--port', String(srv.port), '--rooms', '1', '--rate', String(RATE), '--warmup', String(WARMUP),
      '--duration', String(DURATION), '--addr-first', '100', '--addrs', '1', '--json'], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    gen.stdout.on('data', (b) => { out += b; });
    const genDone = new Promise((r) => gen.on('exit', r));
    await sleep((WARMUP + 2) * 1000); // the room is formed and measured before the flood
    const c0 = await loopCpu(srv.proc.pid);
    const t0 = Date.now();
    const replay = `/api/matches/${match.id}/replay`;
    for (let k = 0; k < FLOOD; k += 100)
      await Promise.all(Array.from({ length: Math.min(100, FLOOD - k) }, (_, i) => dropped(srv.port, replay, `127.0.0.${10 + ((k + i) % 10)}`)));
    const floodMs = Date.now() - t0;
    const listing = timedGet(srv.port, '/api/matches?limit=1', '127.0.0.2', 600000);
    await sleep(t0 + CPU_WINDOW_MS - Date.now());
    const cpu = await loopCpu(srv.proc.pid) - c0;
    const list = await listing;
    await genDone;
    const m = await (await fetch(`${srv.url}/metrics`)).text();
    const metric = (name) => Number((new RegExp(`^${name} (\\S+)$`, 'm').exec(m) || [])[1] ?? NaN);
    const j = JSON.parse(out.trim().split('\n').filter((l) => l.startsWith('{')).pop());
    return { plies: match.plies, flood_ms: floodMs, list_ms: list.ms, list_status: list.status,
      loop_cpu_pct: 100 * cpu / (CPU_WINDOW_MS / 1000), move_p50: j.latency_ms.p50, move_p99: j.latency_ms.p99, move_max: j.latency_ms.max,
      refused: metric('quinteto_http_reads_refused_total'), dropped: metric('quinteto_archive_reads_dropped_total') };
  } finally {
    await srv.stop({ timeoutMs: 600000 });
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const rows = [];
for (let i = 0; i < RUNS; i++) {
  const r = await run();
  rows.push(r);
  console.log(JSON.stringify(r));
}
const keys = ['list_ms', 'loop_cpu_pct', 'move_p50', 'move_p99', 'move_max'];
console.log(`median of ${RUNS} (flood ${FLOOD}, Ur room at ${RATE} actions/s): ` +
  keys.map((k) => `${k} ${median(rows.map((r) => r[k])).toFixed(k === 'list_ms' ? 0 : 2)}`).join(', '));
