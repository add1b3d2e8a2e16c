// addr_attack.mjs: issue 19's attacks from one address, run against a real server over loopback, for
// figures (docs/BENCHMARKS.md); tests/integration/addr_caps.test.mjs holds the pass/fail checks.
//   attack: 40 connections loop create/join/add_bot/resign/rematch for 10 s; then a create from 127.0.0.2
//   churn:  20 loops of open/hello (no token)/close for 30 s; identities made, in memory, RSS
// Usage (from the source tree): QUINTETO_SOURCE=$PWD QUINTETO_SERVER=B/server/quinteto-server \
//   node tests/bench/addr_attack.mjs attack|churn
import { Server, sleep } from '../lib/server.mjs';
const what = process.argv[2];
const srv = await Server.start({ args: ['--rate', '1000', '--burst', '1000', '--log-level', 'warn'] });
const rss = async () => +/VmRSS:\s+(\d+)/.exec(await (await import('node:fs/promises')).readFile(`/proc/${srv.proc.pid}/status`, 'utf8'))[1];
if (what === 'attack') {
  const cs = await Promise.all([...Array(40).keys()].map((i) => srv.player(`F${i}`)));
  const end = Date.now() + 10000; let refused = 0;
  const rm = (c, room) => { const id = `r${Math.random()}`; const p = c.next((m) => (m.type === 'rematch' && m.room === room) || (m.type === 'error' && m.id === id), 20000); c.send({ type: 'rematch', room, id }); return p; };
  await Promise.all(cs.map(async (c) => {
    while (Date.now() < end) {
      const r = await c.request({ type: 'create', game: 'ur' }, 20000);
      if (r.type === 'error') { refused++; await sleep(20); continue; }
      let room = r.room.id;
      await c.request({ type: 'join', room, seat: 0 }, 20000);
      if ((await c.request({ type: 'add_bot', room, seat: 1 }, 20000)).type === 'error') { refused++; continue; }
      while (Date.now() < end) {
        if ((await c.request({ type: 'resign', room }, 20000)).type === 'error') break;
        const m = await rm(c, room); if (m.type === 'error') { refused++; break; } room = m.new_room;
      }
    }
  }));
  srv.wsOptions = { localAddress: '127.0.0.2' };
  const h = await srv.player('Honest');
  const hr = await h.request({ type: 'create', game: 'ur' });
  const m = await srv.metrics(); const total = (await srv.getJson('/api/rooms')).total;
  console.log(`attack 10 s, 40 conns: rooms live ${total}, archive writes ${m.quinteto_archive_writes_total}, refusals ${refused}, honest create from 127.0.0.2: ${hr.type === 'created' ? 'created' : hr.code}`);
} else {
  const r0 = await rss(); const end = Date.now() + 30000; let ok = 0, no = 0;
  await Promise.all([...Array(20).keys()].map(async () => {
    while (Date.now() < end) { const c = await srv.connect(); const r = await c.request({ type: 'hello', name: 'X' }); r.type === 'welcome' ? ok++ : no++; c.close(); await c.closed; }
  }));
  const m = await srv.metrics(); await sleep(6000); const m2 = await srv.metrics();
  console.log(`hello churn 30 s, 20 loops: welcomed ${ok}, refused ${no}, created ${m.quinteto_players_created_total}, players_known at end ${m.quinteto_players_known}, 6 s later ${m2.quinteto_players_known}, RSS +${((await rss()) - r0) / 1024 | 0} MiB`);
}
await srv.stop();
