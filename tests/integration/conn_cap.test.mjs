// conn_cap.test.mjs: the server at its open-file limit. It runs under `prlimit --nofile=200:200`
// (a wrapper script that execs it, so the PID is the server's), with the default connection cap
// (the limit less a reserve). From 127.0.0.1 (the per-address limit raised) more WebSockets are
// opened than the limit allows: the excess is refused at once and keeps retrying, while an honest
// pair plays an Ur match to the end. The server must not spin (CPU from /proc/PID/stat over 2 s),
// must not flood its log ("accept" lines, refusal lines at most one a second), must count the
// refusals in quinteto_connections_refused_total{reason="cap"}, and must accept again once the
// excess has gone. Without a cap lws fails accept() with EMFILE on every loop turn and spins.

import test from 'node:test';
import { execFileSync } from 'node:child_process';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  assert, withServer, createRoom, joinRoom, autoplay, sleep, until, within, SUBPROTOCOL, WebSocket,
} from './lib.mjs';

const NOFILE = 200;  // the server's RLIMIT_NOFILE, soft and hard
const EXCESS = 260;  // WebSockets opened at once besides the honest pair: more than NOFILE
const RETRY_MS = 200; // how long a refused connection waits before trying again
const CLK_TCK = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());

// A script that runs the real server under the low open-file limit; exec keeps the PID.
async function limitedServer(dir) {
  const real = process.env.QUINTETO_SERVER;
  const script = path.join(dir, 'limited-server');
  await writeFile(script, `#!/bin/sh\nexec prlimit --nofile=${NOFILE}:${NOFILE} -- '${real.replaceAll("'", "'\\''")}' "$@"\n`);
  await chmod(script, 0o755);
  return script;
}

// Server CPU time so far (every thread), in seconds.
async function cpuSeconds(pid) {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // f[0] is field 3 (state)
  return (Number(f[11]) + Number(f[12])) / CLK_TCK;           // utime, stime: fields 14, 15
}

// One WebSocket attempt: resolves with the open socket, or null once it is refused (closed or
// failed before opening, a 503 or a reset alike).
function attempt(url) {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, SUBPROTOCOL);
    ws.on('error', () => {});
    ws.once('open', () => resolve(ws));
    ws.once('close', () => resolve(null));
  });
}

test('at the open-file limit: the excess is refused, play goes on, no spin, no log flood', { timeout: 120000 }, async (t) => {
  const dir = await mkdtemp(path.join(tmpdir(), 'quinteto-conncap-'));
  const realServer = process.env.QUINTETO_SERVER;
  process.env.QUINTETO_SERVER = await limitedServer(dir);
  try {
    await withServer({ args: ['--max-conns-per-addr', '100000', '--rate', '1000', '--burst', '1000'] }, async (srv) => {
      process.env.QUINTETO_SERVER = realServer; // only this start is wrapped
      const pid = srv.proc.pid;
      const limits = await readFile(`/proc/${pid}/limits`, 'utf8');
      assert.match(limits, new RegExp(`Max open files\\s+${NOFILE}\\s+${NOFILE}`), 'the server runs under the low limit');

      // The honest pair, seated before the flood.
      const a = await srv.player('Ana'), b = await srv.player('Bea');
      const { id } = await createRoom(a, 'ur');
      await joinRoom(a, id, { seat: 0 });
      await joinRoom(b, id, { seat: 1 });

      const tFlood = Date.now();
      // The flood: EXCESS at once; the refused ones retry every RETRY_MS until told to stop.
      const held = [];
      let refused = 0, firstDone = 0, retrying = true, retries = 0;
      const flood = [...Array(EXCESS).keys()].map(async () => {
        let ws = await attempt(srv.wsUrl);
        firstDone++;
        if (!ws) refused++;
        while (!ws && retrying) {
          await sleep(RETRY_MS);
          if (!retrying) break;
          retries++;
          ws = await attempt(srv.wsUrl);
        }
        if (ws) held.push(ws);
      });
      const settled = await until(() => firstDone === EXCESS, { timeoutMs: 10000 }).then(() => true, () => false);

      // While the excess retries: the pair plays to the end, and the server's CPU is measured.
      const pa = autoplay(a, id, { since: 0 }), pb = autoplay(b, id, { since: 0 });
      const retries0 = retries, cpu0 = await cpuSeconds(pid), t0 = Date.now();
      await sleep(2000);
      const cpu = (await cpuSeconds(pid) - cpu0) / ((Date.now() - t0) / 1000);
      const retried = retries - retries0;
      // An HTTP request at the cap is refused too (a 503, or the connection closed).
      const httpAtCap = await fetch(`${srv.url}/healthz`, { signal: AbortSignal.timeout(5000) })
        .then((r) => r.status, (e) => e.cause?.code || e.name);
      const final = await within(pa.done, 30000);

      t.diagnostic(`cap ${/at most (\d+) connections/.exec(srv.stderr)?.[1]}, held ${held.length}, refused ${refused}, `
        + `retried ${retried} in 2 s, server CPU ${(cpu * 100).toFixed(1)}%, HTTP at the cap: ${httpAtCap}`);
      assert.ok(settled, `only ${firstDone} of ${EXCESS} connections were accepted or refused within 10 s (the server stopped accepting)`);
      assert.ok(final && final.status === 'finished', 'the honest pair finished its match during the flood');
      assert.deepEqual([...pa.errors, ...pb.errors], [], 'no act of the honest pair refused');
      const cap = Number(/at most (\d+) connections/.exec(srv.stderr + srv.stdout)?.[1]);
      assert.ok(cap > 0 && cap < NOFILE, `the cap (${cap}) is below the open-file limit ${NOFILE}`);
      assert.ok(held.length + 2 <= cap, `${held.length} held + 2 players within the cap ${cap}`);
      assert.ok(refused >= EXCESS + 2 - cap, `${refused} refused, at least ${EXCESS + 2 - cap} expected`);
      assert.ok(retried > 100, `the refused connections kept retrying (${retried} attempts in 2 s)`);
      assert.ok(cpu < 0.3, `server CPU ${(cpu * 100).toFixed(1)}% of a core while ${retried} refused attempts came in: it spins`);
      assert.ok(httpAtCap === 503 || typeof httpAtCap === 'string', `an HTTP request at the cap got ${httpAtCap}`);

      // The excess goes away: new connections are accepted again.
      retrying = false;
      await Promise.all(flood);
      for (const ws of held) ws.terminate();
      const c = await until(async () => {
        try { return await srv.player('Cid'); } catch { return null; }
      }, { timeoutMs: 10000, interval: 200, what: 'a connection accepted after the flood' });
      assert.equal(c.welcome.type, 'welcome');
      const m = await srv.metrics();
      const counted = m['quinteto_connections_refused_total{reason="cap"}'];
      assert.ok(counted >= refused, `quinteto_connections_refused_total{reason="cap"} ${counted}, ${refused} refused seen`);

      const lines = srv.stderr.split('\n');
      const acceptLines = lines.filter((l) => /accept/i.test(l));
      assert.ok(acceptLines.length <= 2, `${acceptLines.length} "accept" lines in the log:\n${acceptLines.slice(0, 5).join('\n')}`);
      const refusalLines = lines.filter((l) => /refusing new connections/.test(l));
      const secs = (Date.now() - tFlood) / 1000;
      assert.ok(refusalLines.length >= 1 && refusalLines.length <= secs + 1,
        `${refusalLines.length} refusal lines in about ${secs.toFixed(0)} s: at most one a second`);
    });
  } finally {
    process.env.QUINTETO_SERVER = realServer;
    await rm(dir, { recursive: true, force: true });
  }
});
