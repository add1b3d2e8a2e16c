// idle.mjs: memory per connection. Starts the server, reads its resident set
// size, opens N WebSockets that say hello and watch one of R rooms, reads it
// again. Bounded (N connections, then exit). Usage:
//   node tests/bench/idle.mjs BUILD/server/quinteto-server [connections=2000] [rooms=200]
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import WebSocket from '../node_modules/ws/index.js';

const [bin, N = '2000', R = '200'] = process.argv.slice(2);
const port = await new Promise((res) => { const s = createServer().listen(0, '127.0.0.1', () => { const p = s.address().port; s.close(() => res(p)); }); });
const srv = spawn(bin, ['--listen', `127.0.0.1:${port}`, '--db', join(mkdtempSync(join(tmpdir(), 'qidle-')), 'q.db'),
  '--max-conns-per-addr', '1000000', '--rate', '100000', '--burst', '100000', '--log-level', 'warn',
  '--new-players-burst', '1000000', '--max-new-players-per-addr-hour', '1000000', '--max-live-rooms-per-player', '1000000']);
await new Promise((res) => srv.stdout.on('data', (d) => String(d).includes('listening') && res()));
process.on('exit', () => srv.kill('SIGTERM')); // also when the run fails half-way
const rss = () => +/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${srv.pid}/status`, 'utf8'))[1];
const open = () => new Promise((res, rej) => {
  const ws = new WebSocket(`ws://127.0.0.1:${port}/ws`, 'quinteto.v1');
  ws.on('open', () => ws.send(JSON.stringify({ type: 'hello', name: 'idle' })));
  ws.once('message', () => res(ws));
  ws.on('error', rej);
});
const req = (ws, m) => new Promise((res) => { ws.once('message', (d) => res(JSON.parse(d))); ws.send(JSON.stringify(m)); });
const first = await open();
const rooms = [];
for (let i = 0; i < +R; i++) rooms.push((await req(first, { type: 'create', game: 'ur' })).room.id);
await new Promise((r) => setTimeout(r, 300));
const before = rss();
const socks = [];
for (let i = 0; i < +N; i++) {
  const ws = await open();
  ws.send(JSON.stringify({ type: 'watch', room: rooms[i % rooms.length] }));
  socks.push(ws);
}
await new Promise((r) => setTimeout(r, 1000));
const after = rss();
console.log(`${N} connections watching ${R} rooms: server RSS ${before} KiB -> ${after} KiB, ` +
  `${((after - before) / +N).toFixed(2)} KiB per connection`);
srv.kill('SIGTERM');
process.exit(0);
