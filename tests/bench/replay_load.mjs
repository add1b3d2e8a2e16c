// replay_load.mjs: what reading a long archived match costs the server (issue 19; docs/BENCHMARKS.md,
// "Issue 19: long replays"). Starts the server on a database that holds the match (tests/bench/
// long_match.c makes one), then measures from /proc: the CPU time and the peak resident memory
// (VmHWM) of one request at a time (the replay's first page, a page in the middle, the last page, the
// whole archived match), then `--clients` clients paging through the whole replay at once, each asking
// for the next page as soon as it has one, sampling the server's RSS every 20 ms. A server without
// pages (main before issue 19) answers the whole replay to the first request: it counts as one page.
//
// Usage: node tests/bench/replay_load.mjs --server BIN --source DIR --db DB --id ID [--clients 20]
//        [--skip-load] [--whole-first: the whole match asked first, so its peak is its own]
// Not a test: nothing is asserted; it prints a JSON report.

import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';

const args = Object.fromEntries(process.argv.slice(2).reduce((acc, a, i, all) => {
  if (a.startsWith('--')) acc.push([a.slice(2), all[i + 1] && !all[i + 1].startsWith('--') ? all[i + 1] : true]);
  return acc;
}, []));
const clients = Number(args.clients || 20);
const TICK = 100; // clock ticks a second (getconf CLK_TCK on Linux)

const freePort = () => new Promise((resolve) => {
  const s = createServer();
  s.listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)); });
});
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function proc(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (k) => Number(new RegExp(`${k}:\\s+(\\d+)`).exec(status)[1]);
  return { cpu: (Number(stat[11]) + Number(stat[12])) / TICK, rss: kb('VmRSS') / 1024, hwm: kb('VmHWM') / 1024 };
}

const port = await freePort();
const url = `http://127.0.0.1:${port}`;
const srv = spawn(args.server, ['--listen', `127.0.0.1:${port}`, '--db', args.db,
  '--web', path.join(args.source, 'clients', 'web'), '--migrations', path.join(args.source, 'migrations')],
{ stdio: ['ignore', 'ignore', 'inherit'] });
for (let i = 0; ; i++) {
  try { if ((await fetch(`${url}/healthz`)).ok) break; } catch { /* not yet */ }
  if (i > 200) throw new Error('the server did not start');
  await sleep(50);
}

const report = { id: args.id, start: proc(srv.pid) };

// One request: wall time, the server's CPU time and its peak RSS after it, the body's size.
async function one(name, p) {
  const before = proc(srv.pid);
  const t0 = performance.now();
  const r = await fetch(url + p);
  const body = await r.text();
  const ms = performance.now() - t0;
  const after = proc(srv.pid);
  const j = r.headers.get('content-type')?.includes('json') ? JSON.parse(body) : null;
  report[name] = { status: r.status, ms: Math.round(ms), cpu_s: +(after.cpu - before.cpu).toFixed(2),
    peak_rss_mb: Math.round(after.hwm), body_mb: +(body.length / 1e6).toFixed(2),
    steps: j?.steps?.length, total: j?.total };
  return j;
}

const base = `/api/matches/${args.id}/replay`;
if (args['whole-first']) await one('whole_match_first', `/api/matches/${args.id}`); // its own peak
const first = await one('first_page', base);
const total = first.total ?? first.steps.length;
if (first.total !== undefined) {
  await one('first_page_again', base);
  await one('middle_page', `${base}?from=${Math.floor(total / 2)}`);
  await one('last_page', `${base}?from=${total - 1}`);
}
await one('whole_match', `/api/matches/${args.id}`);

if (!args['skip-load']) {
  let maxRss = 0;
  let pages = 0;
  const sampler = setInterval(() => { maxRss = Math.max(maxRss, proc(srv.pid).rss); }, 20);
  const cpu0 = proc(srv.pid).cpu;
  const t0 = performance.now();
  await Promise.all(Array.from({ length: clients }, async () => {
    for (let from = 0; from !== null;) {
      const r = await fetch(`${url}${base}?from=${from}`);
      if (r.status !== 200) throw new Error(`from ${from}: ${r.status} ${await r.text()}`);
      const j = await r.json();
      pages++;
      from = j.next ?? null;
    }
  }));
  clearInterval(sampler);
  const end = proc(srv.pid);
  report.load = { clients, pages, ms: Math.round(performance.now() - t0), cpu_s: +(end.cpu - cpu0).toFixed(2),
    max_rss_mb: Math.round(Math.max(maxRss, end.rss)), peak_rss_mb: Math.round(end.hwm) };
}

srv.kill('SIGTERM');
await new Promise((r) => srv.on('exit', r));
console.log(JSON.stringify(report, null, 1));
