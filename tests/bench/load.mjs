// load.mjs: end-to-end load on a real server over loopback. R rooms, each with
// two Node clients playing Ur as fast as their states arrive, plus W watchers
// per room. Reports accepted actions per second, the client-side latency from
// sending an `act` to receiving the resulting `state` (p50/p99), and the
// server's own move-to-broadcast histogram from /metrics. Bounded: stops after
// DURATION seconds. Usage:
//   node tests/bench/load.mjs BUILD/server/quinteto-server [rooms=50] [watchers=4] [seconds=10]
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import WebSocket from '../node_modules/ws/index.js';

const [bin, R = '50', W = '4', D = '10'] = process.argv.slice(2);
const rooms = +R, watchers = +W, seconds = +D;
const port = await new Promise((res) => { const s = createServer().listen(0, '127.0.0.1', () => { const p = s.address().port; s.close(() => res(p)); }); });
const dir = mkdtempSync(join(tmpdir(), 'qbench-'));
const srv = spawn(bin, ['--listen', `127.0.0.1:${port}`, '--db', join(dir, 'q.db'), '--rate', '100000', '--burst', '100000', '--max-conns-per-addr', '100000', '--log-level', 'warn',
  '--new-players-burst', '1000000', '--max-new-players-per-addr-hour', '1000000', '--max-live-rooms-per-player', '1000000']);
await new Promise((res) => srv.stdout.on('data', (d) => String(d).includes('listening') && res()));
process.on('exit', () => srv.kill('SIGTERM')); // also when the run fails half-way

const lat = [];
let actions = 0, running = true;
function conn() {
  return new Promise((res) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/ws`, 'quinteto.v1');
    ws.on('open', () => { ws.send(JSON.stringify({ type: 'hello', name: 'bench' })); });
    ws.once('message', () => res(ws));
  });
}
const rpc = (ws, msg, type) => new Promise((res) => {
  const f = (d) => { const m = JSON.parse(d); if (m.type === type || m.type === 'error') { ws.off('message', f); res(m); } };
  ws.on('message', f); ws.send(JSON.stringify(msg));
});
async function room() {
  const a = await conn(), b = await conn();
  const { room } = await rpc(a, { type: 'create', game: 'ur' }, 'created');
  for (let i = 0; i < watchers; i++) { const w = await conn(); w.send(JSON.stringify({ type: 'watch', room: room.id })); }
  for (const [ws, seat] of [[a, 0], [b, 1]]) {
    let sent = 0;
    ws.on('message', (d) => {
      const m = JSON.parse(d);
      if (m.type !== 'state') return;
      if (sent && m.ply > 0) { lat.push(performance.now() - sent); sent = 0; }
      if (running && m.status === 'playing' && m.legal.length) {
        sent = performance.now(); actions++;
        ws.send(JSON.stringify({ type: 'act', room: room.id, ply: m.ply, action: m.legal[0] }));
      }
    });
  }
  await rpc(a, { type: 'join', room: room.id, seat: 0 }, 'joined');
  await rpc(b, { type: 'join', room: room.id, seat: 1 }, 'joined');
}
for (let i = 0; i < rooms; i++) await room();
const t0 = performance.now(); const a0 = actions;
await new Promise((r) => setTimeout(r, seconds * 1000));
running = false;
const rate = (actions - a0) / ((performance.now() - t0) / 1000);
const metrics = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
srv.kill('SIGTERM');
lat.sort((x, y) => x - y);
const q = (p) => lat[Math.min(lat.length - 1, Math.floor(p * lat.length))].toFixed(3);
console.log(`rooms ${rooms}, watchers/room ${watchers}, connections ${rooms * (2 + watchers)}`);
console.log(`actions/s ${rate.toFixed(0)}; act->state at the client: p50 ${q(0.5)} ms, p99 ${q(0.99)} ms (${lat.length} samples)`);
for (const l of metrics.split('\n')) if (/^quinteto_(move_broadcast|journal_commit)_seconds/.test(l)) console.log('  ' + l);
process.exit(0);
