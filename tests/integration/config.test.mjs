// config.test.mjs: the configuration (docs/HOSTING.md): a JSON file, QUINTETO_* variables and flags,
// in that order of precedence, each proven on a running server (the address it binds, the frame limit
// it enforces, the per-address cap); --check-config's report and the source of every value; and every
// kind of bad value (unknown key or variable, wrong type, out of range, bad address, unreadable
// certificate, half a TLS pair, broken JSON) stopping the start with exit status 2 and a message that
// names the setting and where the value came from.
import test from 'node:test';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { assert, freePort, within } from './lib.mjs';
import { serverEnv, sanitizerReport, spawnServer } from '../lib/server.mjs';

const BIN = process.env.QUINTETO_SERVER;
const SOURCE = process.env.QUINTETO_SOURCE;

// The environment without any QUINTETO_* setting of the caller's, plus `extra`.
function env(extra = {}) {
  const e = serverEnv();
  for (const k of Object.keys(e)) if (/^QUINTETO_/.test(k) && !['QUINTETO_SERVER', 'QUINTETO_CLI', 'QUINTETO_SOURCE'].includes(k)) delete e[k];
  return { ...e, ...extra };
}

const base = (dir) => ['--db', path.join(dir, 'q.db'), '--web', path.join(SOURCE, 'clients', 'web'),
  '--migrations', path.join(SOURCE, 'migrations')];

function check(args, extraEnv = {}) {
  const r = spawnSync(BIN, ['--check-config', ...args], { env: env(extraEnv), encoding: 'utf8', timeout: 20000 });
  assert.equal(sanitizerReport(r.stderr), null, r.stderr);
  return r;
}

// The report's lines as {name: {value, source}}.
function report(stdout) {
  const out = {};
  for (const line of stdout.split('\n')) {
    const m = /^(\w+)\s+= (.*?)\s+# (default|file|env|flag)$/.exec(line);
    if (m) out[m[1]] = { value: m[2], source: m[3] };
  }
  return out;
}

async function withDir(fn) {
  const dir = await mkdtemp(path.join(tmpdir(), 'quinteto-config-'));
  try { await fn(dir); } finally { await rm(dir, { recursive: true, force: true }); }
}

// Starts the server; resolves {proc, stdout, stderr, exit, port} once it listens (or fails).
async function start(args, extraEnv = {}) {
  const out = await spawnServer(args, env(extraEnv), BIN);
  assert.ok(out.port, `the server did not start\n${out.stderr}`);
  return out;
}

async function stop(out) {
  out.proc.kill('SIGTERM');
  const { code } = await out.exit;
  assert.equal(code, 0, `the server stops cleanly\n${out.stderr}`);
  assert.equal(sanitizerReport(out.stderr), null, out.stderr);
}

// Opens a WebSocket; resolves the open socket, or {refused: error} when the upgrade fails.
function open(port) {
  return new Promise((resolve) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/ws`, 'quinteto.v1', { perMessageDeflate: false });
    ws.once('open', () => resolve(ws));
    ws.once('error', (e) => resolve({ refused: e }));
  });
}

// Sends `bytes` bytes of text; resolves 'closed CODE' or 'answered'.
function probe(ws, bytes) {
  return within(new Promise((resolve) => {
    ws.once('close', (code) => resolve(`closed ${code}`));
    ws.once('message', () => resolve('answered'));
    const msg = JSON.stringify({ type: 'hello', name: 'x', pad: '' });
    ws.send(msg.slice(0, -2) + 'y'.repeat(bytes - msg.length) + '"}');
  }), 10000);
}

test('precedence: a flag beats a variable, a variable beats the file, the file beats the default', async () => {
  await withDir(async (dir) => {
    const [p1, p2, p3] = [await freePort(), await freePort(), await freePort()];
    const file = path.join(dir, 'q.json');
    await writeFile(file, JSON.stringify({ listen: [`127.0.0.1:${p1}`], max_frame: 300, max_conns_per_addr: 1, bot_delay_ms: 7 }));
    const vars = { QUINTETO_LISTEN: `127.0.0.1:${p2}`, QUINTETO_MAX_FRAME: '1000' };

    // The report says where each value came from.
    const r = check(['--config', file, ...base(dir), '--listen', `127.0.0.1:${p3}`], vars);
    assert.equal(r.status, 0, r.stderr);
    const rep = report(r.stdout);
    assert.deepEqual(rep.listen, { value: `127.0.0.1:${p3}`, source: 'flag' });
    assert.deepEqual(rep.max_frame, { value: '1000', source: 'env' });
    assert.deepEqual(rep.max_conns_per_addr, { value: '1', source: 'file' });
    assert.deepEqual(rep.bot_delay_ms, { value: '7', source: 'file' });
    assert.deepEqual(rep.rate, { value: '20', source: 'default' });
    assert.deepEqual(rep.db, { value: path.join(dir, 'q.db'), source: 'flag' });
    assert.equal(Object.keys(rep).length >= 20, true, r.stdout);

    // And the running server does what the report says. The flag's port, not the variable's or the file's:
    let srv = await start(['--config', file, ...base(dir), '--listen', `127.0.0.1:${p3}`], vars);
    try {
      assert.equal(srv.port, p3);
      // the variable's frame limit (1000), not the file's (300): 600 bytes are answered, 1100 close 1009
      const a = await open(p3);
      assert.ok(!a.refused, 'the first connection opens');
      assert.equal(await probe(a, 600), 'answered');
      // the file's per-address cap (1), not the default (256): a second connection is refused
      const b = await open(p3);
      assert.ok(b.refused, 'max_conns_per_addr 1 from the file refuses a second connection');
      assert.equal(await probe(a, 1100), 'closed 1009');
    } finally { await stop(srv); }

    // Without the flag the variable's address wins over the file's.
    srv = await start(['--config', file, ...base(dir)], vars);
    try { assert.equal(srv.port, p2); } finally { await stop(srv); }
    // Without the variable, the file's.
    srv = await start(['--config', file, ...base(dir)]);
    try {
      assert.equal(srv.port, p1);
      const a = await open(p1);
      assert.equal(await probe(a, 600), 'closed 1009', 'the file\'s max_frame 300');
    } finally { await stop(srv); }
    // $QUINTETO_CONFIG names the file as --config does.
    srv = await start(base(dir), { QUINTETO_CONFIG: file });
    try { assert.equal(srv.port, p1); } finally { await stop(srv); }
  });
});

test('--check-config prints the defaults, lists as lists, and hides the metrics token', async () => {
  await withDir(async (dir) => {
    const file = path.join(dir, 'q.json');
    await writeFile(file, JSON.stringify({
      allowed_origins: ['https://a.example', 'https://b.example:8443'], trusted_proxies: '10.0.0.0/8, ::1',
      metrics_token: 'sekrit', log_format: 'json', rate: 2.5,
    }));
    const r = check(['--config', file]);
    assert.equal(r.status, 0, r.stderr);
    const rep = report(r.stdout);
    assert.deepEqual(rep.allowed_origins, { value: 'https://a.example,https://b.example:8443', source: 'file' });
    assert.deepEqual(rep.trusted_proxies, { value: '10.0.0.0/8,::1/128', source: 'file' });
    assert.deepEqual(rep.metrics_token, { value: '(set)', source: 'file' });
    assert.deepEqual(rep.log_format, { value: 'json', source: 'file' });
    assert.deepEqual(rep.rate, { value: '2.5', source: 'file' });
    assert.deepEqual(rep.listen, { value: '127.0.0.1:8080', source: 'default' });
    assert.deepEqual(rep.max_frame, { value: '16384', source: 'default' });
    assert.ok(!r.stdout.includes('sekrit'), 'the token is never printed');
    assert.match(r.stdout, new RegExp(`file ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
  });
});

test('every kind of bad value stops the start with status 2 and names the setting and its source', async () => {
  await withDir(async (dir) => {
    const json = async (name, text) => { const f = path.join(dir, name); await writeFile(f, text); return f; };
    const cases = [
      { what: 'unknown key', args: ['--config', await json('a.json', '{"max_frames": 10}')],
        want: /config file .*a\.json: unknown setting "max_frames"/ },
      { what: 'unknown variable', env: { QUINTETO_MAX_FRAMES: '10' }, want: /environment: unknown variable QUINTETO_MAX_FRAMES/ },
      { what: 'bad type in the file', args: ['--config', await json('b.json', '{"max_frame": "big"}')],
        want: /bad value for max_frame \(from config file .*b\.json\): expected a number/ },
      { what: 'a number where a string belongs', args: ['--config', await json('c.json', '{"db": 5}')],
        want: /bad value for db \(from config file .*c\.json\): expected a string/ },
      { what: 'not an integer', env: { QUINTETO_MAX_CONNS_PER_ADDR: '2x' },
        want: /bad value for max_conns_per_addr \(from QUINTETO_MAX_CONNS_PER_ADDR\): "2x" is not an integer/ },
      { what: 'out of range (flag)', args: ['--max-frame', '10'],
        want: /bad value for max_frame \(from --max-frame\): 10 is out of range \(256 to 16777216\)/ },
      { what: 'out of range (file)', args: ['--config', await json('d.json', '{"bot_delay_ms": -1}')],
        want: /bad value for bot_delay_ms \(from config file .*d\.json\): -1 is out of range/ },
      { what: 'bad enum', args: ['--log-format', 'xml'], want: /bad value for log_format \(from --log-format\): "xml" is not one of text json/ },
      { what: 'address without a port', args: ['--listen', '127.0.0.1'], want: /bad value for listen \(from --listen\): "127\.0\.0\.1" is not HOST:PORT/ },
      { what: 'port out of range', env: { QUINTETO_LISTEN: '127.0.0.1:70000' }, want: /bad value for listen \(from QUINTETO_LISTEN\): .*the port must be 0 to 65535/ },
      { what: 'unresolvable host', args: ['--metrics-listen', 'no-such-host.invalid:9090'], want: /bad value for metrics_listen \(from --metrics-listen\): .*cannot resolve/ },
      { what: 'bad proxy address', args: ['--trusted-proxies', '10.0.0.300'], want: /bad value for trusted_proxies \(from --trusted-proxies\): "10\.0\.0\.300" is not an address/ },
      { what: 'bad prefix', env: { QUINTETO_TRUSTED_PROXIES: '10.0.0.0/33' }, want: /bad value for trusted_proxies \(from QUINTETO_TRUSTED_PROXIES\)/ },
      { what: 'bad origin', args: ['--allowed-origins', 'example.org'], want: /bad value for allowed_origins \(from --allowed-origins\): "example\.org" is not an origin/ },
      { what: 'unreadable certificate', args: ['--tls-cert', path.join(dir, 'missing.pem'), '--tls-key', path.join(dir, 'missing.key')],
        want: /bad value for tls_cert \(from --tls-cert\): cannot read ".*missing\.pem": No such file/ },
      { what: 'a directory as the key', env: { QUINTETO_TLS_KEY: dir }, want: /bad value for tls_key \(from QUINTETO_TLS_KEY\): cannot read .*not a file/ },
      { what: 'half a TLS pair', args: ['--tls-cert', await json('cert.pem', 'x')], want: /bad value for tls_key .*TLS needs both tls_cert and tls_key/ },
      { what: 'broken JSON', args: ['--config', await json('e.json', '{"rate": ')], want: /config file .*e\.json: line 1/ },
      { what: 'a JSON array', args: ['--config', await json('f.json', '[]')], want: /config file .*f\.json: not a JSON object/ },
      { what: 'duplicate key', args: ['--config', await json('g.json', '{"rate": 1, "rate": 2}')], want: /config file .*g\.json: line 1: duplicate object key/ },
      { what: 'missing file', args: ['--config', path.join(dir, 'none.json')], want: /config file .*none\.json/ },
      { what: 'unknown flag', args: ['--max-framez', '1'], want: /unrecognized option/ },
    ];
    for (const c of cases) {
      const r = check(c.args || [], c.env || {});
      assert.equal(r.status, 2, `${c.what}: exit status\n${r.stdout}${r.stderr}`);
      assert.match(r.stderr, c.want, `${c.what}: message`);
      assert.equal(r.stdout, '', `${c.what}: no report on stdout`);
    }
    // A bad value stops a real start too, before it listens or opens the database.
    const port = await freePort();
    const r = spawnSync(BIN, [...base(dir), '--listen', `127.0.0.1:${port}`], {
      env: env({ QUINTETO_RATE: 'fast' }), encoding: 'utf8', timeout: 20000,
    });
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, /bad value for rate \(from QUINTETO_RATE\): "fast" is not a number/);
    assert.ok(!r.stdout.includes('listening'), r.stdout);
    assert.equal(spawnSync('test', ['-e', path.join(dir, 'q.db')]).status, 1, 'the database was not created');
  });
});

// Two self-signed pairs (a and b) in dir: {a: {cert, key}, b: {cert, key}}.
function twoPairs(dir) {
  const pair = (n) => {
    const cert = path.join(dir, `${n}.crt`), key = path.join(dir, `${n}.key`);
    execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes',
      '-keyout', key, '-out', cert, '-days', '2', '-subj', `/CN=${n}`], { stdio: 'pipe' });
    return { cert, key };
  };
  return { a: pair('a'), b: pair('b') };
}

test('a TLS pair that cannot serve (garbage certificate, garbage key, a key of another certificate) stops --check-config and the start, naming the setting', async () => {
  await withDir(async (dir) => {
    const { a, b } = twoPairs(dir);
    const garbage = path.join(dir, 'garbage.pem');
    await writeFile(garbage, '-----BEGIN CERTIFICATE-----\nnot base64 at all\n-----END CERTIFICATE-----\n');
    const encrypted = path.join(dir, 'enc.key');
    execFileSync('openssl', ['pkey', '-in', a.key, '-out', encrypted, '-aes256', '-passout', 'pass:secret'], { stdio: 'pipe' });
    const cases = [
      { what: 'garbage certificate', args: ['--tls-cert', garbage, '--tls-key', a.key],
        want: /bad value for tls_cert \(from --tls-cert\): not a usable PEM certificate: / },
      { what: 'garbage key', env: { QUINTETO_TLS_CERT: a.cert, QUINTETO_TLS_KEY: garbage },
        want: /bad value for tls_key \(from QUINTETO_TLS_KEY\): not a usable PEM private key: / },
      { what: 'a certificate as the key', args: ['--tls-cert', a.cert, '--tls-key', a.cert],
        want: /bad value for tls_key \(from --tls-key\): not a usable PEM private key: / },
      { what: 'the key of another certificate', args: ['--tls-cert', a.cert, '--tls-key', b.key],
        want: /bad value for tls_key \(from --tls-key\): not a usable PEM private key: it is not the key of the certificate in tls_cert/ },
      { what: 'a key that wants a passphrase', args: ['--tls-cert', a.cert, '--tls-key', encrypted],
        want: /bad value for tls_key \(from --tls-key\): not a usable PEM private key: / },
    ];
    for (const c of cases) {
      const r = check(c.args || [], c.env || {});
      assert.equal(r.status, 2, `${c.what}: exit status\n${r.stdout}${r.stderr}`);
      assert.match(r.stderr, c.want, `${c.what}: message`);
      assert.equal(r.stdout, '', `${c.what}: no report on stdout`);
    }
    assert.equal(check(['--tls-cert', a.cert, '--tls-key', a.key]).status, 0, 'a good pair passes');
    // The real start fails the same way, before it listens or opens the database, not with "port taken".
    const port = await freePort();
    const r = spawnSync(BIN, [...base(dir), '--listen', `127.0.0.1:${port}`, '--tls-cert', a.cert, '--tls-key', b.key], {
      env: env(), encoding: 'utf8', timeout: 20000,
    });
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, /bad value for tls_key \(from --tls-key\): .*not the key of the certificate in tls_cert/);
    assert.doesNotMatch(r.stderr, /port|in use/i);
    assert.equal(spawnSync('test', ['-e', path.join(dir, 'q.db')]).status, 1, 'the database was not created');
  });
});

test('--help lists every setting with its variable, and the tools\' own variables are not settings', async () => {
  const r = spawnSync(BIN, ['--help'], { env: env(), encoding: 'utf8' });
  assert.equal(r.status, 0);
  for (const [flag, v] of [['--listen', 'QUINTETO_LISTEN'], ['--tls-cert', 'QUINTETO_TLS_CERT'],
    ['--trusted-proxies', 'QUINTETO_TRUSTED_PROXIES'], ['--log-format', 'QUINTETO_LOG_FORMAT'], ['--max-frame', 'QUINTETO_MAX_FRAME']]) {
    assert.match(r.stdout, new RegExp(`${flag} VALUE`));
    assert.match(r.stdout, new RegExp(v));
  }
  const c = check([], { QUINTETO_SOURCE: '/x', QUINTETO_TEST_SEED: '5', QUINTETO_ARTIFACTS: '/tmp' });
  assert.equal(c.status, 0, c.stderr);
});

test('docs/HOSTING.md\'s settings table has exactly the server\'s settings, with their flags and variables', async () => {
  const { readFile } = await import('node:fs/promises');
  const doc = await readFile(path.join(SOURCE, 'docs', 'HOSTING.md'), 'utf8');
  const rows = [...doc.matchAll(/^\| `(\w+)` \| `(--[\w-]+)` \| `(QUINTETO_\w+)` \|/gm)].map((m) => m.slice(1, 4));
  const r = check([]);
  assert.equal(r.status, 0, r.stderr);
  const names = Object.keys(report(r.stdout));
  assert.deepEqual(rows.map((row) => row[0]), names, 'the same settings in the same order');
  for (const [name, flag, variable] of rows) {
    assert.equal(flag, `--${name.replaceAll('_', '-')}`, name);
    assert.equal(variable, `QUINTETO_${name.toUpperCase()}`, name);
  }
});
