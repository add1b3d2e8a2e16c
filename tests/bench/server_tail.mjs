// server_tail.mjs: where an action's time went on the server's side, from /metrics snapshots that
// load.sh saves once a second with METRICS_DIR=DIR (files m.EPOCH). Takes the last snapshot and the
// one nearest SECONDS before it (the generator's measured window, when SECONDS is its --duration),
// and prints for each latency histogram its observations, mean and the bucket bounds under which
// 50/90/99% fall, with how many exceeded 2 and 10 ms; the loop turns' sizes; the largest turn of the
// last minute. The buckets' bounds make the quantiles coarse (0.5, 1, 2, 5, 10, 50 ms...): read them
// as "p99 is at most". Usage (issue 24's 2,000-room tail):
//   METRICS_DIR=/tmp/m SERVER_ARGS="$CAPS" tests/bench/load.sh -- --rooms 2000 --rate 5000 --duration 10 ...
//   node tests/bench/server_tail.mjs /tmp/m 10
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const [dir, S = '10'] = process.argv.slice(2);
if (!dir) {
  console.error('usage: node tests/bench/server_tail.mjs METRICS_DIR [seconds=10]');
  process.exit(2);
}
const snaps = readdirSync(dir).filter((f) => f.startsWith('m.') && statSync(join(dir, f)).size > 1000)
  .map((f) => ({ t: +f.slice(2), f: join(dir, f) })).sort((a, b) => a.t - b.t);
if (snaps.length < 2) {
  console.error(`server_tail: fewer than two snapshots in ${dir}`);
  process.exit(1);
}
const end = snaps[snaps.length - 1];
const start = snaps.reduce((b, s) => (Math.abs(s.t - (end.t - S)) < Math.abs(b.t - (end.t - S)) ? s : b));
const read = (f) => Object.fromEntries(readFileSync(f, 'utf8').split('\n')
  .filter((l) => l && !l.startsWith('#')).map((l) => { const i = l.lastIndexOf(' '); return [l.slice(0, i), +l.slice(i + 1)]; }));
const m0 = read(start.f), m1 = read(end.f);
const d = (k) => (m1[k] ?? 0) - (m0[k] ?? 0);

function hist(name, seconds) {
  // the bounds as /metrics spells them (5e-05), for the keys, and as numbers, for the order
  const les = Object.keys(m1).filter((k) => k.startsWith(`${name}_bucket{le="`))
    .map((k) => k.slice(name.length + 12, -2)).filter((le) => le !== '+Inf').sort((a, b) => a - b);
  const n = d(`${name}_count`);
  if (!les.length) return null;
  const q = (p) => { for (const le of les) if (d(`${name}_bucket{le="${le}"}`) >= p * n) return +le; return Infinity; };
  const over = (v) => n - d(`${name}_bucket{le="${les.find((le) => +le === v)}"}`);
  const fmt = (v) => (seconds ? (v === Infinity ? '>5 s' : `${+(v * 1000).toPrecision(3)} ms`) : `${v}`);
  const mean = n ? d(`${name}_sum`) / n : 0;
  return `${name.replace('quinteto_', '')}: ${n} observed, mean ${seconds ? `${(mean * 1000).toFixed(3)} ms` : mean.toFixed(1)}, `
    + `p50 <= ${fmt(q(0.5))}, p90 <= ${fmt(q(0.9))}, p99 <= ${fmt(q(0.99))}`
    + (seconds ? `; over 2 ms ${over(0.002)}, over 10 ms ${over(0.01)}` : `; over 64 ${over(64)}, over 512 ${over(512)}`);
}

console.log(`window ${(end.t - start.t).toFixed(1)} s: ${d('quinteto_actions_total')} actions, `
  + `${d('quinteto_messages_in_total')} messages in, ${d('quinteto_messages_out_total')} frames queued`);
for (const h of ['quinteto_reply_write_seconds', 'quinteto_move_broadcast_seconds', 'quinteto_reply_released_seconds',
  'quinteto_journal_commit_seconds', 'quinteto_event_loop_turn_busy_seconds',
  'quinteto_event_loop_turn_cpu_seconds', 'quinteto_event_loop_lag_seconds']) {
  const line = hist(h, true);
  if (line) console.log(line);
}
for (const h of ['quinteto_event_loop_turn_messages', 'quinteto_event_loop_turn_frames_queued']) {
  const line = hist(h, false);
  if (line) console.log(line);
}
if (m1.quinteto_event_loop_turn_messages_max === undefined) {
  console.log('(a server without the turn metrics of issue 24)');
  process.exit(0);
}
console.log(`largest turn of the last minute: ${m1.quinteto_event_loop_turn_messages_max} messages, `
  + `${(m1.quinteto_event_loop_turn_busy_max_seconds * 1000).toFixed(1)} ms busy; `
  + `worst loop lag ${(m1.quinteto_event_loop_lag_max_seconds * 1000).toFixed(1)} ms`);
