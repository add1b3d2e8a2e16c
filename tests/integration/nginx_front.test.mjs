// nginx_front.test.mjs: deploy/nginx.conf in front of the real server, as docs/HOSTING.md tells to
// run it, refuses in the API's JSON what libwebsockets 4.1 settles before any callback of the server
// (a %00 or a bad %-escape, a request line past its header space, methods other than GET and HEAD),
// and passes the rest through. The nginx is Debian's (deploy/dev.sh installs it for the tests),
// started here on free loopback ports with a temporary prefix and a throw-away certificate, as an
// unprivileged user when the tests run as root. The configuration is the file itself with only its
// ports, certificate paths and IPv6 listeners replaced.

import test from 'node:test';
import { spawn, spawnSync } from 'node:child_process';
import { chown, mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { assert, withServer, freePort, sleep } from './lib.mjs';
import { exchange, parseAnswer, assertJsonError, upgradeRequest } from './raw_http.mjs';

const SOURCE = process.env.QUINTETO_SOURCE;
const NGINX = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((p) => existsSync(p));
const NOBODY = 65534;

// deploy/nginx.conf with the server's port, `tls` and `plain` for nginx's, and `dir`'s certificate.
async function testConfig(dir, serverPort, tlsPort, plainPort) {
  let conf = await readFile(path.join(SOURCE, 'deploy', 'nginx.conf'), 'utf8');
  const swap = (from, to) => {
    assert.ok(conf.includes(from), `deploy/nginx.conf has ${from}`);
    conf = conf.replaceAll(from, to);
  };
  swap('server 127.0.0.1:8080;', `server 127.0.0.1:${serverPort};`);
  swap('listen 80;', `listen 127.0.0.1:${plainPort};`);
  swap('listen 443 ssl http2;', `listen 127.0.0.1:${tlsPort} ssl http2;`);
  swap('/etc/letsencrypt/live/games.example.org/fullchain.pem', path.join(dir, 'cert.pem'));
  swap('/etc/letsencrypt/live/games.example.org/privkey.pem', path.join(dir, 'key.pem'));
  conf = conf.replace(/^\s*listen \[::\]:\d+[^;]*;$/gm, '');
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `${t}_temp_path ${path.join(dir, t)};`);
  return `daemon off;\nmaster_process off;\nworker_processes 1;\npid ${path.join(dir, 'nginx.pid')};\n` +
    `error_log ${path.join(dir, 'error.log')} warn;\nevents { worker_connections 64; }\n` +
    `http {\naccess_log off;\n${temp.join('\n')}\n${conf}\n}\n`;
}

// Runs fn({port, srv}) with nginx on a free TLS port in front of a fresh server.
async function withNginx(fn) {
  assert.ok(NGINX, 'nginx is not installed (deploy/dev.sh test installs it: apt-get install nginx)');
  await withServer(async (srv) => {
    const dir = await mkdtemp(path.join(tmpdir(), 'quinteto-nginx-'));
    let proc = null;
    try {
      const r = spawnSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256',
        '-nodes', '-keyout', path.join(dir, 'key.pem'), '-out', path.join(dir, 'cert.pem'), '-days', '1',
        '-subj', '/CN=games.example.org'], { encoding: 'utf8' });
      assert.equal(r.status, 0, `openssl: ${r.stderr}`);
      const [tlsPort, plainPort] = [await freePort(), await freePort()];
      await writeFile(path.join(dir, 'nginx.conf'), await testConfig(dir, srv.port, tlsPort, plainPort));
      const asRoot = process.getuid && process.getuid() === 0;
      if (asRoot) {
        for (const t of ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) await mkdir(path.join(dir, t));
        for (const f of ['', 'key.pem', 'cert.pem', 'nginx.conf', 'client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'])
          await chown(path.join(dir, f), NOBODY, NOBODY);
      }
      let stderr = '';
      proc = spawn(NGINX, ['-p', dir, '-c', path.join(dir, 'nginx.conf'), '-e', path.join(dir, 'error.log')],
        { stdio: ['ignore', 'ignore', 'pipe'], ...(asRoot ? { uid: NOBODY, gid: NOBODY } : {}) });
      proc.stderr.on('data', (b) => { stderr += b; });
      const exited = new Promise((resolve) => proc.on('exit', resolve));
      for (let i = 0; ; i++) { // listening once a TLS handshake gets an answer
        const { data } = await exchange(tlsPort, 'GET /healthz HTTP/1.1\r\nHost: games.example.org\r\nConnection: close\r\n\r\n',
          { tls: true, ms: 2000, whole: true });
        if (data.length) break;
        const log = await readFile(path.join(dir, 'error.log'), 'utf8').catch(() => '');
        assert.ok(i < 100 && proc.exitCode === null, `nginx did not start:\n${stderr}\n${log}`);
        await sleep(50);
      }
      await fn({ port: tlsPort, srv });
      proc.kill('SIGTERM');
      await exited;
      proc = null;
    } finally {
      if (proc) proc.kill('SIGKILL');
      await rm(dir, { recursive: true, force: true });
    }
  });
}

const get = (target, extra = '') => `GET ${target} HTTP/1.1\r\nHost: games.example.org\r\n${extra}Connection: close\r\n\r\n`;

test('nginx with deploy/nginx.conf refuses in JSON what libwebsockets settles before the server sees it', { timeout: 60000 }, async () => {
  await withNginx(async ({ port, srv }) => {
    const ask = async (req) => parseAnswer((await exchange(port, req, { tls: true, whole: true })).data);
    // passed through: the API, and the server's own answers
    const ok = await ask(get('/healthz'));
    assert.equal(ok.status, 200, ok.body);
    assert.equal(JSON.parse(ok.body).status, 'ok');
    assertJsonError(await ask(get('/api/matches?player=%01x')), 400, 'bad_request', 'a bad name, the server\'s 400');
    // %00 and bad %-escapes: libwebsockets drops the connection or answers an HTML 403
    for (const target of ['/api/matches?player=%00', '/api/matches?game=%00ur', '/api/matches?%zz=1',
      '/api/matches?player=a%', '/api/players/%00x', '/api/players/%zz'])
      assertJsonError(await ask(get(target)), 400, 'bad_request', target);
    // a very long unknown parameter: past libwebsockets' header space it drops the connection
    assertJsonError(await ask(get(`/api/matches?${'x'.repeat(5000)}=1`)), 414, 'uri_too_long', 'a 5000-byte parameter');
    assertJsonError(await ask(get('/api/rooms', `X-Pad: ${'y'.repeat(3000)}\r\n`)), 431, 'header_too_large',
      'a 3000-byte header');
    // methods: nginx takes CONNECT for an unparsable request line (400); any other but GET and HEAD is 405
    assertJsonError(await ask('CONNECT example.org:443 HTTP/1.1\r\nHost: example.org:443\r\n\r\n'), 400,
      'bad_request', 'CONNECT');
    for (const req of ['TRACE /api/rooms HTTP/1.1\r\nHost: games.example.org\r\nConnection: close\r\n\r\n',
      'PROPFIND / HTTP/1.1\r\nHost: games.example.org\r\nConnection: close\r\n\r\n',
      'POST /api/rooms HTTP/1.1\r\nHost: games.example.org\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}']) {
      const what = req.slice(0, req.indexOf(' '));
      const ans = await ask(req);
      assertJsonError(ans, 405, 'method_not_allowed', what);
      assert.equal(ans.headers.allow, 'GET, HEAD', `${what}: Allow`);
    }
    // compressed for a client that accepts it (Debian's libwebsockets does not compress): the rules module here
    const wasm = await ask(get('/wasm/rules.wasm', 'Accept-Encoding: gzip\r\n'));
    assert.equal(wasm.status, 200);
    assert.equal(wasm.headers['content-encoding'], 'gzip', 'the rules module gzipped by nginx');
    assert.equal(wasm.headers['content-type'], 'application/wasm');
    // /metrics stays inside, in JSON too
    assertJsonError(await ask(get('/metrics')), 404, 'not_found', '/metrics through nginx');
    // the WebSocket upgrade goes through; another version gets the server's 426
    const up = (await exchange(port, upgradeRequest('games.example.org', '13'), { tls: true, ms: 1000 })).data.toString('latin1');
    assert.match(up, /^HTTP\/1\.1 101 /, up.slice(0, 200));
    assertJsonError(await ask(upgradeRequest('games.example.org', '8')), 426, 'upgrade_required', 'version 8');
    // a browser's upgrade: its Origin is the Host it asked for, which nginx must pass on for the server's check
    const origin = `https://games.example.org:${port}`;
    const browser = (await exchange(port, upgradeRequest(`games.example.org:${port}`, '13')
      .replace('\r\n\r\n', `\r\nOrigin: ${origin}\r\n\r\n`), { tls: true, ms: 1000 })).data.toString('latin1');
    assert.match(browser, /^HTTP\/1\.1 101 /, `an upgrade with Origin ${origin}: ${browser.slice(0, 300)}`);
    assert.equal((await srv.http('/healthz')).status, 200);
  });
});
