// exposure.test.mjs: what the server shows to whom (docs/HOSTING.md, Monitor and Behind nginx). /metrics
// on the listeners goes only to the client addresses of metrics_from (loopback, 127.0.0.0/8 and ::1, by
// default; --check-config shows it apart from trusted_proxies), the client being the one a trusted
// proxy names in X-Forwarded-For, not the proxy; with metrics_token, to whoever has the token. The
// event-loop lag maximum is the worst of the last minute, which a scrape reads and does not reset (the
// process is stopped with SIGSTOP to make a lag). An X-Forwarded-For item that is not an address is
// ignored, and no control byte or invalid UTF-8 reaches a log line from any source. A TLS key or a
// configuration file holding the metrics token that others may read is named in a warning at start-up.
import test from 'node:test';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { chmod, chown, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { assert, freePort, sleep, until, withServer, schemaCheck, Server } from './lib.mjs';
import { serverEnv, SOURCE } from '../lib/server.mjs';

async function withDir(fn) {
  const dir = await mkdtemp(path.join(tmpdir(), 'quinteto-exposure-'));
  try { return await fn(dir); } finally { await rm(dir, { recursive: true, force: true }); }
}

// GET `pathname` with `headers`, from the local address `from` (127.0.0.1 unless said).
function get(port, pathname, { headers = {}, from } = {}) {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: pathname, headers, localAddress: from }, (res) => {
      let body = '';
      res.on('data', (b) => { body += b; });
      res.on('end', () => resolve({ status: res.statusCode, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

// A WebSocket upgrade written by hand (any bytes in X-Forwarded-For, which Node's own clients refuse to
// send); resolves the status line's code.
function rawUpgrade(port, xff) {
  return new Promise((resolve, reject) => {
    const s = connect(port, '127.0.0.1', () => {
      s.write(Buffer.concat([Buffer.from(`GET /ws HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\n`
        + 'Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n'
        + 'Sec-WebSocket-Protocol: quinteto.v1\r\nX-Forwarded-For: '), xff, Buffer.from('\r\n\r\n')]));
    });
    let got = '';
    s.on('data', (b) => {
      got += b.toString('latin1');
      if (got.includes('\r\n')) {
        s.destroy();
        resolve(Number(/^HTTP\/1\.1 (\d+)/.exec(got)?.[1]));
      }
    });
    s.on('error', reject);
    s.on('close', () => resolve(Number(/^HTTP\/1\.1 (\d+)/.exec(got)?.[1]) || 0));
  });
}

test('/metrics on the listeners: to loopback clients by default, the client being the one a trusted proxy names', async () => {
  await withServer({ args: ['--trusted-proxies', '127.0.0.1'] }, async (srv) => {
    const xff = (v) => ({ headers: { 'X-Forwarded-For': v } });
    assert.equal((await get(srv.port, '/metrics')).status, 200, 'a scraper on this machine');
    assert.equal((await get(srv.port, '/metrics', { from: '127.0.0.2' })).status, 200, '127.0.0.0/8 is loopback');
    for (const local of ['127.0.0.1', '::1', '127.0.0.1, 127.0.0.1'])
      assert.equal((await get(srv.port, '/metrics', xff(local))).status, 200, `a client at ${local} through the proxy`);
    let refused = 0;
    // the proxy itself is loopback: what counts is the client it names, and what a client wrote left of it is not believed
    for (const remote of ['203.0.113.5', '2001:db8::7', '127.0.0.1, 203.0.113.5', '[2001:db8::7]:443']) {
      const r = await get(srv.port, '/metrics', xff(remote));
      assert.equal(r.status, 403, `a client at ${remote} through the proxy: ${r.body}`);
      const body = JSON.parse(r.body);
      assert.equal(body.error, 'forbidden');
      assert.equal(schemaCheck('http-error.json', body), null);
      refused++;
    }
    assert.equal((await get(srv.port, '/healthz', xff('203.0.113.5'))).status, 200, '/healthz stays open');
    assert.equal((await srv.metrics()).quinteto_metrics_forbidden_total, refused);
  });
  // without a trusted proxy the peer is the client: a narrower metrics_from leaves 127.0.0.2 out
  await withServer({ args: ['--metrics-from', '127.0.0.1'] }, async (srv) => {
    assert.equal((await get(srv.port, '/metrics')).status, 200);
    assert.equal((await get(srv.port, '/metrics', { from: '127.0.0.2' })).status, 403);
    assert.equal((await get(srv.port, '/metrics', { from: '127.0.0.2', headers: { 'X-Forwarded-For': '127.0.0.1' } })).status,
      403, 'X-Forwarded-For from a peer that is not a trusted proxy is ignored');
  });
  // the token opens it to any address (and is wanted from every address); metrics_from opens it to others
  await withServer({ args: ['--trusted-proxies', '127.0.0.1', '--metrics-token', 't0ken'] }, async (srv) => {
    const remote = { 'X-Forwarded-For': '203.0.113.5' };
    assert.equal((await get(srv.port, '/metrics', { headers: remote })).status, 401);
    assert.equal((await get(srv.port, '/metrics', { headers: { ...remote, Authorization: 'Bearer t0ken' } })).status, 200);
  });
  await withServer({ args: ['--trusted-proxies', '127.0.0.1', '--metrics-from', '203.0.113.0/24'] }, async (srv) => {
    assert.equal((await get(srv.port, '/metrics', { headers: { 'X-Forwarded-For': '203.0.113.5' } })).status, 200);
    assert.equal((await get(srv.port, '/metrics', { headers: { 'X-Forwarded-For': '198.51.100.5' } })).status, 403);
  });
});

test('metrics_from: its default, a list of its own beside trusted_proxies, and a bad address refused', () => {
  const env = serverEnv();
  for (const k of Object.keys(env)) if (/^QUINTETO_(?!SERVER|CLI|SOURCE)/.test(k)) delete env[k];
  const run = (...args) => spawnSync(process.env.QUINTETO_SERVER, ['--check-config', ...args], { env, encoding: 'utf8' });
  const value = (stdout, name) => new RegExp(`^${name}\\s+= (\\S*)`, 'm').exec(stdout)?.[1];
  let r = run();
  assert.equal(r.status, 0, r.stderr);
  assert.equal(value(r.stdout, 'metrics_from'), '127.0.0.0/8,::1/128');
  r = run('--trusted-proxies', '10.0.0.0/8', '--metrics-from', '192.0.2.0/24, 2001:db8::/32');
  assert.equal(r.status, 0, r.stderr);
  assert.equal(value(r.stdout, 'trusted_proxies'), '10.0.0.0/8');
  assert.equal(value(r.stdout, 'metrics_from'), '192.0.2.0/24,2001:db8::/32');
  r = run('--metrics-from', 'localhost');
  assert.equal(r.status, 2);
  assert.match(r.stderr, /bad value for metrics_from \(from --metrics-from\): "localhost" is not an address or ADDRESS\/BITS/);
});

test('a scrape does not reset the event-loop lag maximum: the worst of the last minute', async () => {
  await withServer(async (srv) => {
    // Hold the loop still: a stopped process runs its 100 ms lag timer about 1.4 s late or more.
    process.kill(srv.proc.pid, 'SIGSTOP');
    await sleep(1500);
    process.kill(srv.proc.pid, 'SIGCONT');
    let first;
    await until(async () => (first = (await srv.metrics()).quinteto_event_loop_lag_max_seconds) >= 1,
      { timeoutMs: 10000, what: 'the lag seen' });
    const again = [];
    for (let i = 0; i < 3; i++) again.push((await srv.metrics()).quinteto_event_loop_lag_max_seconds);
    assert.deepEqual(again, [first, first, first], 'every scrape of the minute sees the same maximum');
  });
});

test('an X-Forwarded-For item that is not an address is ignored; the log never holds a control byte', async () => {
  const args = ['--trusted-proxies', '127.0.0.1', '--log-level', 'debug'];
  await withServer({ args }, async (srv) => {
    const evil = Buffer.from('\x1b]0;owned\x07\x1b[2J\x1b[31m203.0.113.66\x1b[0m', 'latin1');
    assert.equal(await rawUpgrade(srv.port, evil), 101);
    assert.equal(await rawUpgrade(srv.port, Buffer.from([0x31, 0xff, 0xfe, 0x9b])), 101);
    // what proxies send, and the forms with a port, name the client
    const forms = [['198.51.100.7', '198.51.100.7'], ['[2001:DB8::7]:8443', '2001:db8::7'],
      ['198.51.100.8:5555', '198.51.100.8'], ['::ffff:198.51.100.9', '198.51.100.9'], ['unknown', '127.0.0.1']];
    for (const [sent] of forms) {
      const ws = new WebSocket(`${srv.wsUrl}`, 'quinteto.v1', { headers: { 'X-Forwarded-For': sent } });
      await new Promise((resolve, reject) => { ws.once('open', resolve); ws.once('error', reject); });
      ws.terminate();
    }
    await until(() => (srv.stderr.match(/net: WebSocket from/g) || []).length === 2 + forms.length,
      { what: 'every connection logged' });
    const from = [...srv.stderr.matchAll(/net: WebSocket from (.*)$/gm)].map((m) => m[1]);
    assert.deepEqual(from, ['127.0.0.1', '127.0.0.1', ...forms.map(([, want]) => want)]);
    assert.ok(!/[\x00-\x09\x0b-\x1f\x7f]/.test(srv.stderr), 'no control byte in the log');
  });
});

// The server started by hand through sh, whose printf can put any byte in an argument (Node's spawn
// sends UTF-8): resolves its stderr once it listens, then stops it (exit 0).
async function stderrWithDb(dir, format) {
  const port = await freePort();
  const bin = process.env.QUINTETO_SERVER;
  const script = String.raw`exec "$@" --db "$(printf '%s/q\033[31m\t\\\377\302\233.db' "$QDIR")"`;
  const proc = spawn('/bin/sh', ['-c', script, 'sh',
    bin, '--listen', `127.0.0.1:${port}`, '--web', path.join(SOURCE, 'clients', 'web'),
    '--migrations', path.join(SOURCE, 'migrations'), '--log-format', format],
  { env: { ...serverEnv(), QDIR: dir }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const err = [];
  proc.stdout.on('data', (b) => { out += b; });
  proc.stderr.on('data', (b) => err.push(b));
  const exited = new Promise((resolve) => proc.on('close', (code) => resolve(code))); // its stderr all read
  await until(() => out.includes('listening on') || proc.exitCode !== null, { timeoutMs: 20000, what: 'the server listening' });
  proc.kill('SIGTERM');
  assert.equal(await exited, 0, Buffer.concat(err).toString('latin1'));
  return Buffer.concat(err);
}

test('every log line escapes control bytes and invalid UTF-8, whatever their source', async () => {
  await withDir(async (dir) => {
    const text = await stderrWithDb(dir, 'text');
    const line = text.toString('latin1').split('\n').find((l) => l.includes(', database '));
    assert.ok(line, text.toString('latin1'));
    assert.ok(line.includes('/q\\x1b[31m\\x09\\\\\\xff\\u009b.db'), line);
    assert.ok(![...text].some((b) => b < 0x20 && b !== 0x0a), 'no control byte but the newlines');
    assert.ok(!text.includes(0xff) && !text.includes(Buffer.from([0xc2, 0x9b])), 'no invalid UTF-8, no C1 control');
    const json = (await stderrWithDb(dir, 'json')).toString('utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
    const msg = json.find((j) => j.msg.includes(', database ')).msg;
    assert.ok(msg.includes('/q\x1b[31m\t\\\ufffd\u009b.db'), JSON.stringify(msg));
  });
});

test('a TLS key or a configuration file with the metrics token that others may read is named at start-up', async () => {
  await withDir(async (dir) => {
    const cert = path.join(dir, 'c.pem'), key = path.join(dir, 'k.pem'), conf = path.join(dir, 'q.json');
    execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes',
      '-keyout', key, '-out', cert, '-days', '2', '-subj', '/CN=127.0.0.1'], { stdio: 'pipe' });
    await writeFile(conf, JSON.stringify({ metrics_token: 'sekrit' }));
    const warnings = async (mode, gid) => {
      for (const f of [key, conf]) {
        await chmod(f, mode);
        if (gid !== undefined) await chown(f, process.getuid(), gid);
      }
      const srv = await Server.start({ args: ['--tls-cert', cert, '--tls-key', key, '--config', conf] });
      await srv.stop();
      return srv.stderr.split('\n').filter((l) => /holds a secret/.test(l));
    };
    let lines = await warnings(0o644);
    assert.equal(lines.length, 2, lines.join('\n'));
    assert.match(lines[0], new RegExp(`warn: conf: tls_key ${key} holds a secret and every user may read it \\(mode 0644\\): chmod 600 ${key}`));
    assert.match(lines[1], new RegExp(`conf: the configuration file \\(metrics_token\\) ${conf} holds a secret and every user`));
    // the group the server runs as may read it (HOSTING.md's root:quinteto 0640); another group may not
    assert.deepEqual(await warnings(0o640, process.getegid()), []);
    if (process.getuid() === 0) { // only root gives a file to a group it is not in
      lines = await warnings(0o640, 65534);
      assert.equal(lines.length, 2, lines.join('\n'));
      assert.match(lines[0], /tls_key .* holds a secret and its group 65534, not the server's, may read it \(mode 0640\)/);
    }
    assert.deepEqual(await warnings(0o600), []);
  });
  // a token on the command line is seen in ps by every user
  await withServer({ args: ['--metrics-token', 'sekrit'] }, async (srv) => {
    assert.match(srv.stderr, /--metrics-token shows the token to every user/);
  });
});
