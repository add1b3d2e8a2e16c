// web_files.test.mjs: the web client's files as the server sends them from memory
// (server/net/webfiles.c, docs/HOSTING.md "The web client's files"). Every file of clients/web and
// rules.wasm: gzip when the request accepts it, identity when it does not, the same bytes as on
// disk either way (after gunzip); a strong ETag per encoding and a 304 for it; Vary; the type; the
// security headers; HEAD; keep-alive across 200s and 304s. Then a folder of its own: what is not
// served (hidden files, unknown types, links out of the folder, paths that climb out), SIGHUP
// reloading it, and folders past the bounds refusing to start with a message that says why.

import test from 'node:test';
import http from 'node:http';
import { gunzipSync } from 'node:zlib';
import { mkdtemp, mkdir, readFile, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { assert, withServer, until } from './lib.mjs';
import { exchange, parseAnswer } from './raw_http.mjs';
import { sanitizerReport, spawnServer } from '../lib/server.mjs';

const SOURCE = process.env.QUINTETO_SOURCE;
const WEB = path.join(SOURCE, 'clients', 'web');
const WASM = process.env.QUINTETO_TEST_WASM;

// GET (or `method`) on a keep-alive agent without any automatic decoding: {status, headers, body (Buffer)}.
function get(srv, pathname, { headers = {}, method = 'GET', agent } = {}) {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: srv.port, path: pathname, method, headers, agent },
      (res) => {
        const parts = [];
        res.on('data', (b) => parts.push(b));
        res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(parts) }));
      });
    req.on('error', reject);
    req.setTimeout(5000, () => req.destroy(new Error(`${method} ${pathname}: no answer`)));
    req.end();
  });
}

// The files of a folder, as paths relative to it (hidden ones left out, like the server does).
async function filesOf(dir, rel = '') {
  const out = [];
  for (const e of await readdir(path.join(dir, rel), { withFileTypes: true })) {
    if (e.name.startsWith('.')) continue;
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...await filesOf(dir, r));
    else out.push(r);
  }
  return out;
}

const TYPES = { js: /^text\/javascript/, css: /^text\/css/, html: /^text\/html/, wasm: /^application\/wasm$/ };

test('every file: gzip when accepted, identity otherwise, the bytes on disk, strong ETags, 304, Vary, HEAD', { timeout: 60000 }, async () => {
  await withServer(async (srv) => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 }); // one connection for all: keep-alive holds
    const files = (await filesOf(WEB)).map((f) => ({ url: `/${f}`, disk: path.join(WEB, f) }));
    if (WASM) files.push({ url: '/wasm/rules.wasm', disk: path.join(WASM, 'rules.wasm') });
    assert.ok(files.length > 30, `the client's files: ${files.length}`);
    let gzipped = 0;
    let plain = 0;
    let zipped = 0;
    for (const { url, disk } of files) {
      const bytes = await readFile(disk);
      const ext = url.split('.').pop();
      const id = await get(srv, url, { agent });
      assert.equal(id.status, 200, `GET ${url}`);
      assert.equal(id.headers['content-encoding'], undefined, `${url} without Accept-Encoding`);
      assert.ok(id.body.equals(bytes), `${url}: the bytes on disk`);
      assert.equal(Number(id.headers['content-length']), bytes.length);
      if (TYPES[ext]) assert.match(id.headers['content-type'], TYPES[ext], `${url}: type`);
      assert.match(id.headers['content-security-policy'] || '', /default-src 'none'/, `${url}: the security headers`);
      assert.equal(id.headers['x-content-type-options'], 'nosniff');
      assert.match(id.headers['cache-control'], url.startsWith('/wasm/') ? /max-age=300/ : /max-age=30\b/);
      const etag = id.headers.etag;
      assert.match(etag || '', /^"[0-9a-f]{16}"$/, `${url}: a strong ETag`);

      const gz = await get(srv, url, { agent, headers: { 'accept-encoding': 'gzip, deflate, br' } });
      assert.equal(gz.status, 200);
      plain += bytes.length;
      if (gz.headers['content-encoding'] === 'gzip') {
        gzipped++;
        zipped += gz.body.length;
        assert.ok(gunzipSync(gz.body).equals(bytes), `${url}: gunzip gives the bytes on disk`);
        assert.ok(gz.body.length < bytes.length, `${url}: smaller`);
        assert.equal(Number(gz.headers['content-length']), gz.body.length);
        assert.equal(gz.headers.vary, 'Accept-Encoding', `${url}: Vary`);
        assert.equal(id.headers.vary, 'Accept-Encoding', `${url}: Vary on identity too`);
        assert.equal(gz.headers.etag, `"${etag.slice(1, -1)}-gz"`, `${url}: its own strong ETag`);
        assert.match(gz.headers['content-type'], TYPES[ext] || /./);
        // each tag revalidates its own encoding only
        assert.equal((await get(srv, url, { agent, headers: { 'accept-encoding': 'gzip', 'if-none-match': etag } })).status, 200);
        const n304 = await get(srv, url, { agent, headers: { 'accept-encoding': 'gzip', 'if-none-match': gz.headers.etag } });
        assert.equal(n304.status, 304, `${url}: gzip revalidated`);
        assert.equal(n304.body.length, 0);
        assert.equal(n304.headers.etag, gz.headers.etag);
        assert.equal(n304.headers.vary, 'Accept-Encoding');
      } else {
        assert.ok(gz.body.equals(bytes), `${url}: identity when gzip would not help`);
      }
      const i304 = await get(srv, url, { agent, headers: { 'if-none-match': `"nope", W/${etag}` } });
      assert.equal(i304.status, 304, `${url}: a list with the weak form of the tag`);
      assert.match(i304.headers['content-security-policy'] || '', /default-src 'none'/, `${url}: 304 with the security headers`);
      assert.match(i304.headers['cache-control'], /max-age/);
      const head = await get(srv, url, { agent, method: 'HEAD', headers: { 'accept-encoding': 'gzip' } });
      assert.equal(head.status, 200);
      assert.equal(head.body.length, 0, `HEAD ${url}: no body`);
      assert.equal(head.headers['content-length'], gz.headers['content-length'], `HEAD ${url}: GET's length`);
      assert.equal(head.headers.etag, gz.headers.etag);
    }
    assert.ok(gzipped >= files.length - 2, `${gzipped} of ${files.length} files gzipped`);
    assert.ok(zipped < plain / 2, `gzip halves the client at least: ${zipped} of ${plain} bytes`);
    agent.destroy();

    // What Accept-Encoding says, read as RFC 9110 means it
    const cases = [['gzip;q=0', false], ['identity', false], ['br', false], ['*', true], ['GZIP;Q=0.5', true],
      ['*;q=0', false], ['gzip;q=0.000, *', false], ['br, *;q=0.1', true], ['x-gzip', true], ['deflate, gzip ; q=1.0', true]];
    for (const [ae, yes] of cases) {
      const r = await get(srv, '/app.js', { headers: { 'accept-encoding': ae } });
      assert.equal(r.headers['content-encoding'], yes ? 'gzip' : undefined, `Accept-Encoding: ${ae}`);
    }
    // "/" is index.html; a missing name, a folder or a climb out: the API's JSON 404, as before
    const root = await get(srv, '/', { headers: { 'accept-encoding': 'gzip' } });
    assert.ok(gunzipSync(root.body).equals(await readFile(path.join(WEB, 'index.html'))));
    assert.equal((await get(srv, '/?name=Ana&lang=es')).status, 200);
    for (const p of ['/no-such-file.js', '/games', '/games/', '/wasm/nothing.wasm', '/i18n']) {
      const r = await get(srv, p);
      assert.equal(r.status, 404, p);
      assert.equal(JSON.parse(r.body).error, 'not_found');
    }
    for (const p of ['/../../../../etc/passwd', '/games/../../../../etc/passwd', '/%2e%2e/%2e%2e/%2e%2e/etc/passwd',
      '/..%2f..%2f..%2fetc%2fpasswd', '/wasm/../../../../../etc/passwd', '//etc/passwd']) {
      const ans = parseAnswer((await exchange(srv.port, `GET ${p} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`)).data);
      assert.ok([400, 403, 404].includes(ans.status), `${p}: ${ans.status}`);
      assert.doesNotMatch(ans.body, /root:/, p);
    }
  });
});

// Starts the server on folder `web`; resolves {proc, exit, port, stderr} once it listens, or its exit.
function start(web, dir) {
  return spawnServer(['--listen', '127.0.0.1:0', '--db', path.join(dir, 'q.db'), '--web', web,
    '--migrations', path.join(SOURCE, 'migrations')]);
}

async function stop(out) {
  out.proc.kill('SIGTERM');
  const { code } = await out.exit;
  assert.equal(code, 0, `the server stops cleanly\n${out.stderr}`);
  assert.equal(sanitizerReport(out.stderr), null, out.stderr);
}

test('a folder of its own: what is not served, SIGHUP reloads, and the bounds stop the start', { timeout: 60000 }, async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'quinteto-webfiles-'));
  try {
    const web = path.join(dir, 'web');
    await mkdir(path.join(web, 'sub'), { recursive: true });
    await mkdir(path.join(web, '.git'));
    await writeFile(path.join(web, 'index.html'), '<!doctype html><title>one</title>'.repeat(50));
    await writeFile(path.join(web, 'sub', 'index.html'), 'sub');
    await writeFile(path.join(web, 'empty.js'), '');
    await writeFile(path.join(web, '.secret.js'), 'hidden');
    await writeFile(path.join(web, '.git', 'config.js'), 'hidden');
    await writeFile(path.join(web, 'notes.bin'), 'an unknown type');
    await writeFile(path.join(dir, 'outside.js'), 'outside the folder');
    await symlink(path.join(dir, 'outside.js'), path.join(web, 'out.js'));
    await symlink(path.join(web, 'index.html'), path.join(web, 'alias.html'));
    await symlink(dir, path.join(web, 'up'));
    const srv = await start(web, dir);
    assert.ok(srv.port, `the server starts\n${srv.stderr}`);
    try {
      const one = await get(srv, '/', { headers: { 'accept-encoding': 'gzip' } });
      assert.equal(one.headers['content-encoding'], 'gzip');
      assert.match(gunzipSync(one.body).toString(), /<title>one<\/title>/);
      assert.equal((await get(srv, '/sub/')).body.toString(), 'sub');
      assert.equal((await get(srv, '/alias.html')).status, 200, 'a link inside the folder is served');
      const empty = await get(srv, '/empty.js');
      assert.equal(empty.status, 200);
      assert.equal(empty.body.length, 0);
      for (const p of ['/.secret.js', '/.git/config.js', '/notes.bin', '/out.js', '/up/outside.js', '/up/web/index.html']) {
        assert.equal((await get(srv, p)).status, 404, `${p} is not served`);
      }
      // SIGHUP: the new content, under a new tag; the old tag no longer revalidates
      await writeFile(path.join(web, 'index.html'), '<!doctype html><title>two</title>'.repeat(50));
      srv.proc.kill('SIGHUP');
      await until(async () => /<title>two/.test((await get(srv, '/')).body.toString()), 10000);
      const two = await get(srv, '/', { headers: { 'accept-encoding': 'gzip', 'if-none-match': one.headers.etag } });
      assert.equal(two.status, 200);
      assert.notEqual(two.headers.etag, one.headers.etag);
      // a reload past the bounds keeps what is served
      await writeFile(path.join(web, 'big.js'), Buffer.alloc((32 << 20) + 1, 0x20));
      srv.proc.kill('SIGHUP');
      await until(() => /keeping the web client's files/.test(srv.stderr), 10000);
      assert.match(gunzipSync((await get(srv, '/', { headers: { 'accept-encoding': 'gzip' } })).body).toString(), /<title>two/);
    } finally {
      await stop(srv);
    }
    // past the bounds at start: no start, and a message that says why
    const big = await start(web, dir);
    assert.equal(big.port, 0, 'a 32 MiB file too many: no start');
    assert.notEqual((await big.exit).code, 0);
    assert.match(big.stderr, /more than 1024 files or 32 MiB/);
    await rm(path.join(web, 'big.js'));
    await mkdir(path.join(web, 'many'));
    for (let i = 0; i < 1030; i++) await writeFile(path.join(web, 'many', `f${i}.js`), '1');
    const many = await start(web, dir);
    assert.equal(many.port, 0, '1030 files: no start');
    assert.match(many.stderr, /more than 1024 files or 32 MiB/);
    await rm(path.join(web, 'many'), { recursive: true });
    await symlink(path.join(web, 'sub'), path.join(web, 'sub', 'loop'));
    const loop = await start(web, dir);
    assert.equal(loop.port, 0, 'a link loop: no start');
    assert.match(loop.stderr, /folders deep/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
