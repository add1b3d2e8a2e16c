// deploy.test.mjs: the files of deploy/ that can be checked here. systemd-analyze verify must accept
// the unit without a word (it exits 0 even on directives it ignores, so any output fails the test; a
// broken copy proves the check can fail); the example configurations pass --check-config; meson
// install puts every file where the server looks for it. The unit
// names /usr/bin/quinteto-server; the copy checked here names the binary under test instead, since
// systemd-analyze wants the command to exist.
import test from 'node:test';
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { assert } from './lib.mjs';
import { serverEnv } from '../lib/server.mjs';

const SOURCE = process.env.QUINTETO_SOURCE;
const BIN = process.env.QUINTETO_SERVER;

async function withDir(fn) {
  const dir = await mkdtemp(path.join(tmpdir(), 'quinteto-deploy-'));
  try { await fn(dir); } finally { await rm(dir, { recursive: true, force: true }); }
}

function verify(file) {
  const r = spawnSync('systemd-analyze', ['verify', file], { encoding: 'utf8', timeout: 60000 });
  assert.ok(!r.error, `systemd-analyze: ${r.error}`);
  return { status: r.status, said: (r.stdout + r.stderr).trim() };
}

test('systemd-analyze verify accepts deploy/quinteto.service without a complaint', async () => {
  const unit = await readFile(path.join(SOURCE, 'deploy', 'quinteto.service'), 'utf8');
  for (const want of ['User=quinteto', 'StateDirectory=quinteto', 'ProtectSystem=strict', 'NoNewPrivileges=yes',
    'PrivateTmp=yes', 'Restart=on-failure', 'LimitNOFILE=', '--config /etc/quinteto/quinteto.json', 'ExecReload='])
    assert.ok(unit.includes(want), `the unit has ${want}`);
  await verifiesClean('quinteto.service', unit);
});

// systemd-analyze verify finds nothing to say of `unit` installed as `name` (our binary in it), and the check
// can fail: a directive systemd does not understand is reported.
async function verifiesClean(name, unit) {
  await withDir(async (dir) => {
    const file = path.join(dir, name);
    await writeFile(file, unit.replaceAll('/usr/bin/quinteto-server', BIN));
    const ok = verify(file);
    assert.equal(ok.status, 0, ok.said);
    assert.equal(ok.said, '', 'systemd-analyze has nothing to say');
    await writeFile(file, unit.replaceAll('/usr/bin/quinteto-server', BIN).replace('ProtectSystem=strict', 'ProtectSystem=very'));
    assert.notEqual(verify(file).said, '', 'a bad value is reported');
  });
}

// The cluster's template (docs/SCALING.md): verified as an instance, as systemd would load it; it keeps
// every line of the single server's hardening and restarts always (a fenced node exits and must come back).
test('systemd-analyze verify accepts deploy/cluster/quinteto@.service, which keeps the hardening', async () => {
  const unit = await readFile(path.join(SOURCE, 'deploy', 'cluster', 'quinteto@.service'), 'utf8');
  const single = await readFile(path.join(SOURCE, 'deploy', 'quinteto.service'), 'utf8');
  const hardening = single.slice(single.indexOf('# Hardening')).split('\n')
    .filter((l) => /^[A-Z]\w+=/.test(l) && !l.startsWith('WantedBy='));
  assert.ok(hardening.length > 20);
  for (const want of [...hardening, 'Restart=always', '--config /etc/quinteto/%i.json', 'User=quinteto'])
    assert.ok(unit.includes(want), `the template has ${want}`);
  await verifiesClean('quinteto@n1.service', unit);
  // Its example configuration (deploy/cluster/node.json) is a node's: it passes --check-config.
  const env = serverEnv();
  for (const k of Object.keys(env)) if (/^QUINTETO_(?!SERVER|CLI|SOURCE)/.test(k)) delete env[k];
  const r = spawnSync(BIN, ['--config', path.join(SOURCE, 'deploy', 'cluster', 'node.json'), '--check-config'], { encoding: 'utf8', env });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^node\s+= n1\s+# file$/m);
  assert.match(r.stdout, /^redis_password\s+= \(set\)\s+# file$/m);
  assert.ok(!`${r.stdout}${r.stderr}`.includes('change-me-too'), 'the Redis password is never printed');
});

test('the example configurations pass --check-config', async () => {
  await withDir(async (dir) => {
    const cert = path.join(dir, 'c.pem'), key = path.join(dir, 'k.pem');
    spawnSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes',
      '-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=test'], { stdio: 'ignore' });
    const tls = JSON.parse(await readFile(path.join(SOURCE, 'deploy', 'quinteto.json'), 'utf8'));
    tls.tls_cert = cert;
    tls.tls_key = key;
    await writeFile(path.join(dir, 'tls.json'), JSON.stringify(tls));
    const env = serverEnv();
    for (const k of Object.keys(env)) if (/^QUINTETO_(?!SERVER|CLI|SOURCE)/.test(k)) delete env[k];
    for (const file of [path.join(dir, 'tls.json'), path.join(SOURCE, 'deploy', 'quinteto-behind-nginx.json')]) {
      const r = spawnSync(BIN, ['--config', file, '--check-config'], { encoding: 'utf8', env });
      assert.equal(r.status, 0, `${file}: ${r.stderr}`);
      assert.match(r.stdout, /# file$/m);
    }
  });
});

// meson install puts the server, the tool, the web client and the migrations where the installed
// server looks by default (config.h's QUINTETO_INSTALLED_*, from meson's prefix and datadir).
test('meson install puts the web client and the migrations where the server looks for them', async () => {
  const build = path.dirname(path.dirname(BIN)); // BUILD/server/quinteto-server
  const configH = await readFile(path.join(build, 'config.h'), 'utf8');
  const define = (name) => JSON.parse(new RegExp(`#define ${name} (".*")`).exec(configH)[1]);
  await withDir(async (dir) => {
    const r = spawnSync('meson', ['install', '-C', build, '--destdir', dir, '--no-rebuild', '--quiet'],
      { encoding: 'utf8', timeout: 120000 });
    assert.equal(r.status, 0, r.stdout + r.stderr);
    const web = path.join(dir, define('QUINTETO_INSTALLED_WEB'));
    const migrations = path.join(dir, define('QUINTETO_INSTALLED_MIGRATIONS'));
    const bindir = path.join(path.dirname(path.dirname(web)), '..', 'bin');
    for (const f of [path.join(web, 'index.html'), path.join(web, 'net.js'), path.join(migrations, '0001_archive.sql'),
      path.join(bindir, 'quinteto-server'), path.join(bindir, 'quinteto')])
      assert.equal(spawnSync('test', ['-f', f]).status, 0, `${f} is installed`);
  });
});

// deploy/check-debian.sh (run by hand: it boots a fresh Debian 12) runs HOSTING.md's `sh` blocks as
// written. What it relies on is checked here, so a reworded page fails at once rather than at its next
// run: the Install blocks install, make a certificate at the example configuration's paths and start
// the unit, in that order; Back up and restore has its two blocks; the renewal is a reload.
test('docs/HOSTING.md has the shell blocks deploy/check-debian.sh follows', async () => {
  const doc = await readFile(path.join(SOURCE, 'docs', 'HOSTING.md'), 'utf8');
  const blocks = (section) => {
    const body = doc.split(/^## /m).find((s) => s.startsWith(`${section}\n`)) || '';
    return [...body.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1]);
  };
  const install = blocks('Install').join('\n');
  const conf = JSON.parse(await readFile(path.join(SOURCE, 'deploy', 'quinteto.json'), 'utf8'));
  const at = (s) => install.indexOf(s);
  for (const s of ['apt-get install', 'meson install', 'useradd --system', 'deploy/quinteto.service',
    'deploy/quinteto.json', 'openssl req', conf.tls_cert, conf.tls_key, 'systemctl enable --now quinteto'])
    assert.ok(at(s) >= 0, `Install's blocks have ${s}`);
  assert.ok(at('meson install') < at('systemctl enable') && at('openssl req') < at('systemctl enable'),
    'the build and the certificate come before the start');
  const backup = blocks('Back up and restore');
  assert.equal(backup.length, 2, 'a backup block and a restore block');
  assert.match(backup[0], /quinteto --db \S+ backup /);
  assert.match(backup[0], /verify --all/);
  assert.match(backup[1], /systemctl stop quinteto[\s\S]*systemctl start quinteto/);
  assert.match(doc, /systemctl reload quinteto/);
});
