// bot_think.mjs: the event loop while many bots think (issue 22). Starts the server, keeps R rooms
// of bots in every seat busy (the games in turn; level `strong`, or a game's last listed level when
// it has no `strong`; a finished room is replaced by a new one), and meanwhile two people play Ur
// in rooms of their own, one match after another, timing each move from the `act` sent to the
// `state` that shows it. After a warm-up, over DURATION seconds, reports from /metrics the loop lag
// (a 100 ms timer's lateness: p99 from the histogram's buckets, and the worst), the loop thread's
// CPU per turn, the bots' moves per second and think time, the deepest queue seen, and the people's
// move round trip p50/p99. Bounded: stops after the warm-up and DURATION. Usage:
//   node tests/bench/bot_think.mjs BUILD/server/quinteto-server [rooms=200] [seconds=30] [threads=0] [move_ms=200]
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir, loadavg, availableParallelism } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import WebSocket from '../node_modules/ws/index.js';

const [bin, R = '200', D = '30', T = '0', MS = '200'] = process.argv.slice(2);
const rooms = +R, seconds = +D;
const port = await new Promise((res) => { const s = createServer().listen(0, '127.0.0.1', () => { const p = s.address().port; s.close(() => res(p)); }); });
const dir = mkdtempSync(join(tmpdir(), 'qbots-'));
const big = '1000000';
const srv = spawn(bin, ['--listen', `127.0.0.1:${port}`, '--db', join(dir, 'q.db'), '--log-level', 'warn',
  '--rate', '100000', '--burst', '100000', '--max-conns-per-addr', '100000',
  '--new-players-burst', '1000000', '--max-new-players-per-addr-hour', '1000000',
  '--max-rooms', '2000000', '--max-rooms-per-player', big, '--max-rooms-per-addr', big,
  '--max-live-rooms-per-player', big, '--max-live-rooms-per-addr', big, '--max-matches-per-addr-hour', '1000000',
  '--max-bot-rooms', big, '--finished-room-ttl-s', '0', '--bot-delay-ms', '0',
  '--bot-threads', T, '--bot-move-ms', MS]);
srv.stderr.on('data', (d) => process.stderr.write(d));
srv.on('exit', (code) => { if (code) { console.error(`the server exited (${code})`); process.exit(1); } });
await new Promise((res) => srv.stdout.on('data', (d) => String(d).includes('listening') && res()));
process.on('exit', () => srv.kill('SIGTERM')); // also when the run fails half-way

let nextId = 1;
function conn(name) {
  return new Promise((res, rej) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/ws`, 'quinteto.v1', { perMessageDeflate: false });
    ws.on('open', () => ws.send(JSON.stringify({ type: 'hello', name })));
    ws.once('message', () => res(ws));
    ws.on('error', rej);
  });
}
const rpc = (ws, msg) => new Promise((res) => {
  const id = nextId++;
  const f = (d) => { const m = JSON.parse(d); if (m.id === id) { ws.off('message', f); res(m); } };
  ws.on('message', f);
  ws.send(JSON.stringify({ ...msg, id }));
});
const metrics = async () => {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  const out = {};
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*(?:\{[^}]*\})?)\s+(\S+)$/.exec(line);
    if (m && !line.startsWith('#')) out[m[1]] = Number(m[2]);
  }
  return out;
};
// The q-quantile's upper bound among a histogram's buckets, over what was observed between m0 and m1.
function hq(m1, m0, name, q) {
  const count = m1[`${name}_count`] - m0[`${name}_count`];
  const les = Object.keys(m1).map((k) => k.startsWith(`${name}_bucket{le="`) && k.slice(name.length + 12, -2))
    .filter((le) => le && le !== '+Inf').map(Number).sort((a, b) => a - b);
  for (const le of les) {
    const k = `${name}_bucket{le="${le}"}`;
    if (m1[k] - m0[k] >= q * count) return `<= ${le * 1000} ms`;
  }
  return '> the last bucket';
}
const pct = (xs, q) => { const s = [...xs].sort((a, b) => a - b); return s.length ? s[Math.min(s.length - 1, Math.floor(q * s.length))] : NaN; };

// The bots' rooms: one connection creates them, adds the bots and watches them to their end.
const host = await conn('host');
const games = (await (await fetch(`http://127.0.0.1:${port}/api/games`)).json()).games;
const level = {};
let started = 0, finished = 0;
host.on('message', (d) => {
  const m = JSON.parse(d);
  if (m.type === 'state' && m.status === 'finished') {
    finished++;
    botRoom(games[started % games.length]).catch((e) => { console.error(e); process.exit(1); });
  }
});
async function botRoom(game) {
  started++;
  const { room } = await rpc(host, { type: 'create', game });
  await rpc(host, { type: 'watch', room: room.id });
  for (const s of room.seats) {
    let r = await rpc(host, { type: 'add_bot', room: room.id, seat: s.seat, level: level[game] ?? 'strong' });
    if (r.type === 'error' && !level[game]) { // "unknown bot level (G has: a, b)": its last listed
      level[game] = /has: (.*)\)/.exec(r.message)[1].split(',').at(-1).trim();
      r = await rpc(host, { type: 'add_bot', room: room.id, seat: s.seat, level: level[game] });
    }
    if (r.type !== 'bot_added') throw new Error(`add_bot: ${JSON.stringify(r)}`);
  }
}
for (let i = 0; i < rooms; i++) await botRoom(games[i % games.length]);

// Two people play Ur, timing their moves.
const rtt = [];
let measuring = false, running = true;
const a = await conn('Ana'), b = await conn('Bruno');
function person(ws, room) {
  let pending = null, done;
  const over = new Promise((res) => { done = res; });
  const f = (d) => {
    const m = JSON.parse(d);
    if (m.type !== 'state' || m.room !== room) return;
    if (pending && m.ply > pending.ply) { if (measuring) rtt.push(performance.now() - pending.t0); pending = null; }
    if (m.status === 'finished') { ws.off('message', f); done(); return; }
    if (m.legal?.length && !pending) {
      pending = { ply: m.ply, t0: performance.now() };
      ws.send(JSON.stringify({ type: 'act', room, ply: m.ply, action: m.legal[Math.floor(Math.random() * m.legal.length)] }));
    }
  };
  ws.on('message', f);
  return over;
}
const people = (async () => {
  while (running) {
    const { room } = await rpc(a, { type: 'create', game: 'ur' });
    const pa = person(a, room.id), pb = person(b, room.id);
    await rpc(a, { type: 'join', room: room.id, seat: 0 });
    await rpc(b, { type: 'join', room: room.id, seat: 1 });
    await Promise.all([pa, pb]);
  }
})();

await new Promise((r) => setTimeout(r, 3000)); // warm-up: every room's bots under way
const m0 = await metrics();
measuring = true;
let deepest = 0;
const t0 = performance.now();
while (performance.now() - t0 < seconds * 1000) {
  await new Promise((r) => setTimeout(r, 1000));
  deepest = Math.max(deepest, (await metrics()).quinteto_bot_jobs_queued);
}
const m1 = await metrics();
measuring = false;
running = false;
const dt = (performance.now() - t0) / 1000;
const jobs = m1.quinteto_bot_jobs_total - m0.quinteto_bot_jobs_total;
const think = (m1.quinteto_bot_think_seconds_sum - m0.quinteto_bot_think_seconds_sum) / Math.max(1, jobs);
console.log(`${rooms} rooms of bots (${games.map((g) => `${g} ${level[g] ?? 'strong'}`).join(', ')}), `
  + `bot_threads ${T === '0' ? 'default' : T}, bot_move_ms ${MS}, ${dt.toFixed(0)} s; load average ${loadavg()[0].toFixed(1)} `
  + `on ${availableParallelism()} cores`);
console.log(`  bots: ${(jobs / dt).toFixed(0)} moves/s, think mean ${(think * 1000).toFixed(1)} ms, p50 `
  + `${hq(m1, m0, 'quinteto_bot_think_seconds', 0.5)}, p99 ${hq(m1, m0, 'quinteto_bot_think_seconds', 0.99)}; `
  + `queue up to ${deepest}; ${finished} matches finished; stale ${m1.quinteto_bot_stale_total}`);
console.log(`  loop lag p99 ${hq(m1, m0, 'quinteto_event_loop_lag_seconds', 0.99)} (worst in the last minute `
  + `${(m1.quinteto_event_loop_lag_max_seconds * 1000).toFixed(1)} ms); loop CPU per turn p99 `
  + `${hq(m1, m0, 'quinteto_event_loop_turn_cpu_seconds', 0.99)}`);
console.log(`  a person's move round trip: p50 ${pct(rtt, 0.5).toFixed(2)} ms, p99 ${pct(rtt, 0.99).toFixed(2)} ms, `
  + `max ${Math.max(...rtt).toFixed(2)} ms over ${rtt.length} moves`);
srv.kill('SIGTERM');
process.exit(0);
