// hosting.test.mjs: what a hosted instance adds (docs/HOSTING.md). TLS with a certificate made here
// with openssl: a match of Ur played over wss://, then SIGHUP with a new certificate: the open
// connection plays on and a new connection sees the new certificate (verified against it as its only
// CA). The WebSocket's Origin: the server's own, none, or a listed one pass; others get 403 with a
// JSON body. X-Forwarded-For counts the forwarded client against the per-address cap only from a
// trusted proxy. /metrics behind a token (401 without it) or on its own address. JSON log lines.
import test from 'node:test';
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { request as httpsRequest } from 'node:https';
import { gunzipSync } from 'node:zlib';
import { connect as tlsConnect } from 'node:tls';
import { tmpdir } from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { assert, createRoom, joinRoom, autoplay, freePort, until, withServer, parseMetrics, schemaCheck } from './lib.mjs';

async function withDir(fn) {
  const dir = await mkdtemp(path.join(tmpdir(), 'quinteto-hosting-'));
  try { return await fn(dir); } finally { await rm(dir, { recursive: true, force: true }); }
}

// A self-signed certificate for 127.0.0.1 with common name `cn`; resolves {cert, key} (paths) and its PEM.
async function makeCert(dir, cn) {
  const cert = path.join(dir, `${cn}.crt`), key = path.join(dir, `${cn}.key`);
  execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes',
    '-keyout', key, '-out', cert, '-days', '2', '-subj', `/CN=${cn}`, '-addext', 'subjectAltName=IP:127.0.0.1'],
  { stdio: 'pipe' });
  return { cert, key, pem: await readFile(cert, 'utf8') };
}

// The common name of the certificate a new TLS connection gets, verified against `ca` only.
function peerName(port, ca) {
  return new Promise((resolve, reject) => {
    const s = tlsConnect({ host: '127.0.0.1', port, ca, servername: undefined }, () => {
      const cn = s.getPeerCertificate().subject.CN;
      s.end();
      resolve(cn);
    });
    s.on('error', reject);
  });
}

function httpsGet(port, pathname, ca) {
  return new Promise((resolve, reject) => {
    const req = httpsRequest({ host: '127.0.0.1', port, path: pathname, ca }, (res) => {
      let body = '';
      res.on('data', (b) => { body += b; });
      res.on('end', () => resolve({ status: res.statusCode, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

// Opens a raw WebSocket with `headers`; resolves {ws} or {status, body} when the upgrade is refused,
// or {error} when the connection is dropped without an answer.
function upgrade(port, headers = {}) {
  return new Promise((resolve) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/ws`, 'quinteto.v1', { perMessageDeflate: false, headers });
    ws.once('open', () => resolve({ ws }));
    ws.once('unexpected-response', (req, res) => {
      let body = '';
      res.on('data', (b) => { body += b; });
      res.on('end', () => { req.destroy(); resolve({ status: res.statusCode, body, ctype: res.headers['content-type'] }); });
    });
    ws.once('error', (error) => resolve({ error }));
  });
}

test('TLS: Ur over wss://, and a SIGHUP with a new certificate keeps the open connection', async () => {
  await withDir(async (dir) => {
    const first = await makeCert(dir, 'first');
    const second = await makeCert(dir, 'second');
    const cert = path.join(dir, 'server.crt'), key = path.join(dir, 'server.key');
    await writeFile(cert, first.pem);
    await writeFile(key, await readFile(first.key));
    await withServer({ args: ['--tls-cert', cert, '--tls-key', key] }, async (srv) => {
      assert.match(srv.stdout, /listening on https:\/\/127\.0\.0\.1:\d+/);
      srv.wsUrl = `wss://127.0.0.1:${srv.port}/ws`;
      srv.wsOptions = { ca: first.pem }; // verified: the only CA is the first certificate
      assert.equal(await peerName(srv.port, first.pem), 'first');
      // HTTP/1.1 only, even to a client that prefers h2 (a WebSocket over h2 would bypass the /ws filter)
      const alpn = await new Promise((resolve, reject) => {
        const t = tlsConnect({ host: '127.0.0.1', port: srv.port, ca: first.pem, ALPNProtocols: ['h2', 'http/1.1'] },
          () => { resolve(t.alpnProtocol); t.end(); });
        t.on('error', reject);
      });
      assert.equal(alpn, 'http/1.1');
      const health = await httpsGet(srv.port, '/healthz', first.pem);
      assert.equal(health.status, 200);
      assert.equal(JSON.parse(health.body).status, 'ok');
      // the web client's files over TLS, from memory: gzip and identity, one chunk and several (webfiles.c)
      const files = [['/app.js', path.join(process.env.QUINTETO_SOURCE, 'clients', 'web', 'app.js')]];
      if (process.env.QUINTETO_TEST_WASM) files.push(['/wasm/rules.wasm', path.join(process.env.QUINTETO_TEST_WASM, 'rules.wasm')]);
      for (const [url, disk] of files) {
        for (const gzip of [false, true]) {
          const r = await new Promise((resolve, reject) => {
            const req = httpsRequest({ host: '127.0.0.1', port: srv.port, path: url, ca: first.pem,
              headers: gzip ? { 'accept-encoding': 'gzip' } : {} }, (res) => {
              const parts = [];
              res.on('data', (b) => parts.push(b));
              res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(parts) }));
            });
            req.on('error', reject);
            req.end();
          });
          assert.equal(r.status, 200, `https ${url}`);
          assert.equal(r.headers['content-encoding'], gzip ? 'gzip' : undefined);
          assert.ok((gzip ? gunzipSync(r.body) : r.body).equals(await readFile(disk)), `https ${url}, gzip ${gzip}: the bytes on disk`);
          assert.match(r.headers['strict-transport-security'] || '', /max-age/);
        }
      }
      // plain HTTP on the TLS port gets no answer from the server
      await assert.rejects(fetch(`http://127.0.0.1:${srv.port}/healthz`, { signal: AbortSignal.timeout(5000) }));

      const a = await srv.player('Ana');
      const b = await srv.player('Bo');
      const { id } = await createRoom(a, 'ur');
      let plies = 0;
      const onState = (st) => { plies = Math.max(plies, st.ply); };
      const playA = autoplay(a, id, { onState });
      const playB = autoplay(b, id, { onState });
      await joinRoom(a, id, { seat: 0 });
      await joinRoom(b, id, { seat: 1 });
      await until(() => plies >= 6, { timeoutMs: 20000, what: 'six plies over wss://' });

      // A new certificate at the same paths, then SIGHUP.
      await writeFile(`${cert}.new`, second.pem);
      await writeFile(`${key}.new`, await readFile(second.key));
      await rename(`${cert}.new`, cert);
      await rename(`${key}.new`, key);
      srv.proc.kill('SIGHUP');
      await until(() => /reloaded the certificate/.test(srv.stderr), { timeoutMs: 10000, what: 'the reload' });
      const atReload = plies;

      // The open connections play on.
      await until(() => plies >= atReload + 6, { timeoutMs: 20000, what: 'six more plies after the reload' });
      assert.ok(a.isOpen && b.isOpen, 'the open connections were kept');
      // A new connection sees the new certificate, and only the new one verifies.
      assert.equal(await peerName(srv.port, second.pem), 'second');
      await assert.rejects(peerName(srv.port, first.pem), /self[- ]signed|unable to verify|certificate/i);
      srv.wsOptions = { ca: second.pem };
      const c = await srv.player('Cy');
      assert.ok(c.isOpen);
      playA.stop();
      playB.stop();

      // A pair that does not load keeps the current certificate in service.
      await writeFile(key, await readFile(first.key)); // the key of another certificate
      srv.proc.kill('SIGHUP');
      await until(() => /cannot load/.test(srv.stderr), { timeoutMs: 10000, what: 'the refused reload' });
      assert.equal(await peerName(srv.port, second.pem), 'second');
      const m = (await httpsGet(srv.port, '/metrics', second.pem)).body;
      const metrics = parseMetrics(m);
      assert.equal(metrics.quinteto_tls_reloads_total, 1);
      assert.equal(metrics.quinteto_tls_reload_failures_total, 1);
    });
  });
});

test('Origin: the server\'s own, none, or a listed one open the WebSocket; others get 403 with JSON', async () => {
  await withServer(async (srv) => {
    const own = await upgrade(srv.port, { Origin: `http://127.0.0.1:${srv.port}` });
    assert.ok(own.ws, `own origin: ${JSON.stringify(own.status)} ${own.body}`);
    own.ws.terminate();
    const none = await upgrade(srv.port);
    assert.ok(none.ws, 'no Origin (not a browser)');
    none.ws.terminate();
    for (const origin of ['http://evil.example', `http://127.0.0.1:${srv.port + 1}`, 'null', `https://localhost:${srv.port}`]) {
      const r = await upgrade(srv.port, { Origin: origin });
      assert.equal(r.status, 403, `${origin}: ${JSON.stringify(r)}`);
      assert.match(r.ctype, /application\/json/);
      assert.equal(JSON.parse(r.body).error, 'origin_not_allowed');
      assert.equal(schemaCheck('http-error.json', JSON.parse(r.body)), null);
    }
    // SIGHUP without TLS (systemctl reload) changes nothing and does not end the server
    srv.proc.kill('SIGHUP');
    await until(() => /no TLS certificate to reload/.test(srv.stderr), { what: 'the SIGHUP logged' });
    // the server goes on serving honest clients
    const p = await srv.player('Ana');
    assert.ok(p.isOpen);
    assert.equal((await srv.metrics()).quinteto_origin_refused_total, 4);
  });
  await withServer({ args: ['--allowed-origins', 'https://games.example, http://other.example:8080'] }, async (srv) => {
    for (const origin of ['https://games.example', 'http://other.example:8080', `http://127.0.0.1:${srv.port}`]) {
      const r = await upgrade(srv.port, { Origin: origin });
      assert.ok(r.ws, `${origin} is allowed: ${JSON.stringify(r)}`);
      r.ws.terminate();
    }
    for (const origin of ['https://games.example:444', 'http://games.example', 'http://other.example']) {
      const r = await upgrade(srv.port, { Origin: origin });
      assert.equal(r.status, 403, `${origin}: ${JSON.stringify(r)}`);
    }
  });
});

test('X-Forwarded-For counts the forwarded client only from a trusted proxy', async () => {
  // The test connects from 127.0.0.1, here a trusted proxy: the forwarded address is what counts.
  await withServer({ args: ['--trusted-proxies', '127.0.0.1,10.9.0.0/16', '--max-conns-per-addr', '2'] }, async (srv) => {
    const xff = (v) => ({ 'X-Forwarded-For': v });
    const open = [];
    for (let i = 0; i < 2; i++) {
      const r = await upgrade(srv.port, xff('203.0.113.5'));
      assert.ok(r.ws, `connection ${i + 1} of 203.0.113.5`);
      open.push(r.ws);
    }
    const third = await upgrade(srv.port, xff('203.0.113.5'));
    assert.ok(!third.ws, 'a third connection of 203.0.113.5 is refused');
    // The rightmost address that is not a trusted proxy counts; what the client wrote left of it does not.
    const spoof = await upgrade(srv.port, xff('198.51.100.1, 203.0.113.5'));
    assert.ok(!spoof.ws, 'a forged address left of the real one does not help');
    const viaProxies = await upgrade(srv.port, xff('203.0.113.5, 10.9.3.4'));
    assert.ok(!viaProxies.ws, 'trusted proxies on the right are skipped: still 203.0.113.5');
    // another client behind the same proxy is counted apart
    for (const addr of ['203.0.113.6', '2001:db8::7', '198.51.100.1, 203.0.113.8']) {
      const r = await upgrade(srv.port, xff(addr));
      assert.ok(r.ws, `${addr} is another client`);
      open.push(r.ws);
    }
    // without the header the peer itself counts
    const bare = [await upgrade(srv.port), await upgrade(srv.port), await upgrade(srv.port)];
    assert.deepEqual(bare.map((r) => !!r.ws), [true, true, false]);
    for (const r of bare) r.ws?.terminate();
    for (const ws of open) ws.terminate();
  });
  // From a peer that is not a trusted proxy the header is ignored: every connection is 127.0.0.1's.
  await withServer({ args: ['--trusted-proxies', '10.0.0.1', '--max-conns-per-addr', '2'] }, async (srv) => {
    const rs = [];
    for (const addr of ['203.0.113.1', '203.0.113.2', '203.0.113.3'])
      rs.push(await upgrade(srv.port, { 'X-Forwarded-For': addr }));
    assert.deepEqual(rs.map((r) => !!r.ws), [true, true, false]);
    for (const r of rs) r.ws?.terminate();
  });
});

test('/metrics: 401 without the token, 200 with it; or only on its own address', async () => {
  await withServer({ args: ['--metrics-token', 's3cret'] }, async (srv) => {
    let r = await srv.http('/metrics', { validate: false });
    assert.equal(r.status, 401);
    assert.equal(JSON.parse(r.text).error, 'unauthorized');
    assert.equal(schemaCheck('http-error.json', JSON.parse(r.text)), null);
    r = await srv.http('/metrics', { headers: { Authorization: 'Bearer wrong' }, validate: false });
    assert.equal(r.status, 401);
    r = await srv.http('/metrics', { headers: { Authorization: 'Bearer s3cret' }, validate: false });
    assert.equal(r.status, 200);
    const m = parseMetrics(r.text);
    assert.equal(m.quinteto_metrics_unauthorized_total, 2);
    assert.equal((await srv.http('/healthz')).status, 200, '/healthz needs no token');
  });
  const mport = await freePort();
  await withServer({ args: ['--metrics-listen', `127.0.0.1:${mport}`] }, async (srv) => {
    assert.match(srv.stdout, new RegExp(`metrics on http://127\\.0\\.0\\.1:${mport}/metrics`));
    assert.equal((await srv.http('/metrics', { validate: false })).status, 404, 'not on the main address');
    const res = await fetch(`http://127.0.0.1:${mport}/metrics`);
    assert.equal(res.status, 200);
    assert.ok('quinteto_connections' in parseMetrics(await res.text()));
    assert.equal((await fetch(`http://127.0.0.1:${mport}/healthz`)).status, 200);
    assert.equal((await fetch(`http://127.0.0.1:${mport}/api/rooms`)).status, 404, 'nothing else there');
    const ws = await upgrade(mport);
    assert.equal(ws.status, 404, 'no WebSocket on the metrics address');
    assert.equal((await srv.http('/api/rooms')).status, 200, 'the API stays on the main address');
  });
});

test('log_format json: every line is a JSON object with a time and a level, and a connection id where there is one', async () => {
  await withDir(async (dir) => {
    let stderr = '';
    const args = ['--log-format', 'json', '--log-level', 'debug', '--trusted-proxies', '127.0.0.1', '--max-conns-per-addr', '1'];
    await withServer({ args, dir }, async (srv) => {
      const p = await srv.player('Bo');
      p.terminate();
      await until(() => /net: closed/.test(srv.stderr), { what: 'the close logged' });
      // a forwarded "address" that is none (bytes that are not UTF-8) is ignored: the proxy's address counts
      const bad = 'caf\u00e9\u00ff'; // sent as Latin-1: 63 61 66 e9 ff
      const first = await upgrade(srv.port, { 'X-Forwarded-For': bad });
      assert.ok(first.ws);
      const second = await upgrade(srv.port, { 'X-Forwarded-For': bad });
      assert.ok(!second.ws);
      first.ws.terminate();
      await until(() => /refusing/.test(srv.stderr), { what: 'the refusal logged' });
      stderr = srv.stderr;
    });
    const lines = stderr.split('\n').filter(Boolean);
    assert.ok(lines.length >= 3, stderr);
    let withConn = 0;
    for (const line of lines) {
      const j = JSON.parse(line);
      assert.match(j.time, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/, line);
      assert.ok(['error', 'warn', 'info', 'debug'].includes(j.level), line);
      assert.equal(typeof j.msg, 'string', line);
      if ('conn' in j) { assert.equal(typeof j.conn, 'number'); withConn++; }
    }
    assert.ok(withConn >= 2, `the connection's lines carry its id\n${stderr}`);
    const refusal = lines.map((l) => JSON.parse(l)).find((j) => /refusing/.test(j.msg));
    assert.ok(refusal.msg.includes('refusing 127.0.0.1:'), refusal.msg);
  });
});

test('/metrics: rooms by game and status, archive write latency, event-loop lag', async () => {
  await withServer(async (srv) => {
    const a = await srv.player('Ana');
    const b = await srv.player('Bo');
    await createRoom(a, 'ur');
    await createRoom(a, 'laquet');
    const { id } = await createRoom(a, 'ur');
    await joinRoom(a, id, { seat: 0 });
    await joinRoom(b, id, { seat: 1 });
    let m = await srv.metrics();
    assert.equal(m['quinteto_rooms_by_status{game="ur",status="waiting"}'], 1);
    assert.equal(m['quinteto_rooms_by_status{game="ur",status="playing"}'], 1);
    assert.equal(m['quinteto_rooms_by_status{game="laquet",status="waiting"}'], 1);
    assert.equal(m['quinteto_rooms_by_status{game="super15",status="playing"}'], 0);
    assert.equal(m.quinteto_archive_write_seconds_count, 0);
    // one resignation ends the match: one archive write observed
    const r = await a.request({ type: 'resign', room: id });
    assert.notEqual(r.type, 'error', JSON.stringify(r));
    await until(async () => (await srv.metrics()).quinteto_archive_write_seconds_count === 1, { timeoutMs: 10000, what: 'the archive write' });
    m = await srv.metrics();
    assert.equal(m['quinteto_rooms_by_status{game="ur",status="finished"}'], 1);
    assert.ok(m.quinteto_archive_write_seconds_sum > 0);
    // the lag timer runs every 100 ms
    await until(async () => (await srv.metrics()).quinteto_event_loop_lag_seconds_count >= 2, { timeoutMs: 5000, what: 'the lag timer' });
    assert.ok(m.quinteto_event_loop_lag_max_seconds >= 0);
  });
});
