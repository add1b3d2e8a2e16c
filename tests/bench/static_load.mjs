// static_load.mjs: what serving the web client's files costs the server (issue 23): a flood of page
// loads must not become a cheap attack. Starts the server binary given, then C keep-alive
// connections ask, in turn, for every file of a lobby's first load (the files first_load.test.mjs
// lists) N times over, as a browser would (Accept-Encoding: gzip, deflate, br; a server that does not
// compress answers identity). Reports the server's CPU time (utime + stime from /proc) per request
// and per page load, the bytes sent and requests a second.
//
//   node tests/bench/static_load.mjs SERVER_BINARY [LOADS=2000] [CONNS=8]
//
// Run it from the source tree's top (the server serves clients/web); a release build for figures.

import http from 'node:http';
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

const [bin, loadsArg = '2000', connsArg = '8'] = process.argv.slice(2);
if (!bin) {
  console.error('usage: node tests/bench/static_load.mjs SERVER_BINARY [LOADS] [CONNS]');
  process.exit(2);
}
const LOADS = Number(loadsArg);
const CONNS = Number(connsArg);
// A first load of the lobby (English) as first_load.test.mjs saw it when the figures of BENCHMARKS.md
// were taken (the room's files were still in it), /api/games left out (not a file).
const FILES = ['/', '/style.css', '/app.js', '/net.js', '/dom.js', '/core.js', '/i18n.js', '/lobby.js', '/room.js',
  '/seed.js', '/preview.js', '/games/registry.js', '/games/common.js', '/clock.js', '/levels.js', '/games/base.js',
  '/i18n/en.js', '/games/ur/ur.js', '/games/quinteto/quinteto.js', '/games/laquet/laquet.js',
  '/games/super15/super15.js', '/games/ur/board.js', '/games/ur/strings.js', '/games/ur/rules.js',
  '/games/laquet/board.js', '/games/laquet/strings.js', '/games/laquet/rules.js', '/games/super15/strings.js',
  '/games/quinteto/strings.js', '/games/quinteto/rules.js', '/games/ur/ur.css', '/games/laquet/laquet.css',
  '/games/super15/rules.js', '/games/super15/super15.css', '/games/quinteto/board.js', '/games/quinteto/quinteto.css'];

const TICK_US = 1e6 / 100; // USER_HZ: 100 on Linux

async function cpuUs(pid) {
  const f = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1].split(' ');
  return (Number(f[11]) + Number(f[12])) * TICK_US; // utime, stime
}

const dir = await mkdtemp(path.join(tmpdir(), 'quinteto-static-'));
const port = 20000 + Math.floor(Math.random() * 20000);
const proc = spawn(bin, ['--listen', `127.0.0.1:${port}`, '--db', path.join(dir, 'q.db'), '--web', 'clients/web',
  '--migrations', 'migrations', '--max-conns-per-addr', '64'], { stdio: ['ignore', 'pipe', 'inherit'] });
await new Promise((resolve, reject) => {
  let out = '';
  proc.stdout.on('data', (b) => { out += b; if (/listening on/.test(out)) resolve(); });
  proc.on('exit', (code) => reject(new Error(`the server exited: ${code}`)));
});

const agent = new http.Agent({ keepAlive: true, maxSockets: CONNS });
function get(p) {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path: p, agent, headers: { 'accept-encoding': 'gzip, deflate, br' } }, (res) => {
      let n = 0;
      res.on('data', (b) => { n += b.length; });
      res.on('end', () => (res.statusCode === 200 ? resolve(n) : reject(new Error(`${p}: ${res.statusCode}`))));
    });
    req.on('error', reject);
  });
}

for (const f of FILES) await get(f); // warm up
let bytes = 0;
let next = 0;
const total = LOADS * FILES.length;
const before = await cpuUs(proc.pid);
const t0 = process.hrtime.bigint();
await Promise.all(Array.from({ length: CONNS }, async () => {
  while (next < total) {
    const n = await get(FILES[next++ % FILES.length]); // (not `bytes += await`: that reads bytes before the wait)
    bytes += n;
  }
}));
const wallS = Number(process.hrtime.bigint() - t0) / 1e9;
const cpu = (await cpuUs(proc.pid)) - before;
agent.destroy();
proc.kill('SIGTERM');
await new Promise((resolve) => proc.on('exit', resolve));
await rm(dir, { recursive: true, force: true });
console.log(JSON.stringify({
  loads: LOADS, requests: total, conns: CONNS, bytes_per_load: Math.round(bytes / LOADS),
  server_cpu_us_per_request: +(cpu / total).toFixed(1), server_cpu_ms_per_load: +(cpu / LOADS / 1000).toFixed(2),
  requests_per_s: Math.round(total / wallS),
}));
