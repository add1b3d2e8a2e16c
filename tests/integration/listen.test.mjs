// The listening address (issue 5, section 7): the server binds exactly the address it is given, so a
// server meant to sit behind a proxy is not reachable from other addresses; a taken port stops the
// start with a non-zero exit before the database's live rooms are read; host names are resolved.
// What is bound is read from the kernel (`ss -ltn`) and checked by connecting, not taken on trust.
import test from 'node:test';
import { execFileSync, spawn } from 'node:child_process';
import { access, cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Server, assert, createRoom, freePort, joinRoom, within } from './lib.mjs';

const SOURCE = process.env.QUINTETO_SOURCE;

// Starts the binary with `listen`; resolves {proc, stdout, stderr, exit} once it printed
// "listening" or exited.
async function run(listen, dir, migrations = path.join(SOURCE, 'migrations')) {
  const proc = spawn(process.env.QUINTETO_SERVER, ['--listen', listen, '--db', path.join(dir, 'q.db'),
    '--web', path.join(SOURCE, 'clients', 'web'), '--migrations', migrations],
  { stdio: ['ignore', 'pipe', 'pipe'] });
  const out = { proc, stdout: '', stderr: '' };
  out.exit = new Promise((resolve) => proc.on('close', (code, signal) => resolve({ code, signal }))); // output all read
  proc.stderr.on('data', (b) => { out.stderr += b; });
  await within(new Promise((resolve) => {
    proc.stdout.on('data', (b) => { out.stdout += b; if (out.stdout.includes('listening on')) resolve(); });
    out.exit.then(resolve);
  }), 20000);
  return out;
}

async function stop(out) {
  out.proc.kill('SIGTERM');
  const { code } = await out.exit;
  assert.equal(code, 0, `the server stops cleanly\n${out.stderr}`);
}

// The local addresses listening on `port`, as the kernel reports them.
const listeners = (port) => execFileSync('ss', ['-Hltn', `sport = :${port}`], { encoding: 'utf8' })
  .split('\n').filter(Boolean).map((l) => l.trim().split(/\s+/)[3]);

const tryConnect = (host, port) => new Promise((resolve) => {
  const s = connect({ host, port }, () => { s.destroy(); resolve(true); });
  s.on('error', () => resolve(false));
});

async function withDir(fn) {
  const dir = await mkdtemp(path.join(tmpdir(), 'quinteto-listen-'));
  try { await fn(dir); } finally { await rm(dir, { recursive: true, force: true }); }
}

test('--listen 127.0.0.1:PORT binds that address only, not the IPv6 wildcard', { timeout: 30000 }, () => withDir(async (dir) => {
  const port = await freePort();
  const srv = await run(`127.0.0.1:${port}`, dir);
  try {
    assert.deepEqual(listeners(port), [`127.0.0.1:${port}`]);
    assert.ok(await tryConnect('127.0.0.1', port), 'reachable where it was asked to listen');
    assert.equal(await tryConnect('127.0.0.2', port), false, 'refused on another local address');
    assert.equal(await tryConnect('::1', port), false, 'refused over IPv6');
  } finally { await stop(srv); }
}));

// Machines without an IPv6 loopback skip the IPv6 case (said in the output, not passed silently).
const hasIpv6 = await new Promise((resolve) => {
  const s = createServer().once('error', () => resolve(false)).listen(0, '::1', () => s.close(() => resolve(true)));
});

test('--listen [::1]:PORT binds the IPv6 loopback only', { timeout: 30000, skip: !hasIpv6 && 'no IPv6 loopback here' }, () => withDir(async (dir) => {
  const port = await freePort();
  const srv = await run(`[::1]:${port}`, dir);
  try {
    assert.match(srv.stdout, /listening on http:\/\/\[::1\]:/);
    assert.deepEqual(listeners(port), [`[::1]:${port}`]);
    assert.equal(await tryConnect('127.0.0.1', port), false, 'not over IPv4');
  } finally { await stop(srv); }
}));

test('--listen localhost:PORT resolves the name and binds one loopback address', { timeout: 30000 }, () => withDir(async (dir) => {
  const port = await freePort();
  const srv = await run(`localhost:${port}`, dir);
  try {
    const bound = listeners(port);
    assert.equal(bound.length, 1, `one listener: ${bound}`);
    assert.ok([`127.0.0.1:${port}`, `[::1]:${port}`].includes(bound[0]), `a loopback address: ${bound}`);
  } finally { await stop(srv); }
}));

test('a taken port: exit non-zero before the live rooms are read; the first server plays on', { timeout: 60000 }, async () => {
  const first = await Server.start();
  try {
    const a = await first.player('Ana');
    const room = (await createRoom(a, 'ur')).id;
    await joinRoom(a, room, { seat: 0 });
    const journal = execFileSync('sqlite3', [path.join(first.dir, 'q.db'), 'SELECT * FROM live_seats'], { encoding: 'utf8' });
    const second = await run(`127.0.0.1:${first.port}`, first.dir); // same port, same database
    const { code } = await second.exit;
    assert.notEqual(code, 0, 'the second server fails');
    assert.doesNotMatch(second.stdout, /listening/, 'and never says it listens');
    // the database's lock (dblock.test.mjs) refuses it even before the port is tried
    assert.match(second.stderr, /in use by another quinteto-server .*one database, one server/);
    assert.doesNotMatch(second.stderr, /restore|resumed/, 'it did not read the journal');
    // the same port with a database of its own: the port is tried before that database is even made
    const otherDir = await mkdtemp(path.join(tmpdir(), 'quinteto-listen-'));
    try {
      const third = await run(`127.0.0.1:${first.port}`, otherDir);
      assert.notEqual((await third.exit).code, 0, 'the third server fails');
      assert.match(third.stderr, /cannot listen/);
      await assert.rejects(access(path.join(otherDir, 'q.db')), 'its database was not created');
    } finally { await rm(otherDir, { recursive: true, force: true }); }
    assert.equal(execFileSync('sqlite3', [path.join(first.dir, 'q.db'), 'SELECT * FROM live_seats'], { encoding: 'utf8' }),
      journal, 'the journal is as the first server left it');
    const bot = await a.request({ type: 'add_bot', room, seat: 1 });
    assert.equal(bot.type, 'bot_added', 'the first server still serves');
  } finally { await first.stop(); }
});

// A newer binary started by mistake on a taken port must not migrate the database under the server that
// uses it (0004 rebuilt live_rooms): the port is checked before the database is opened at all.
test('a taken port: the database is not migrated by the server that cannot listen', { timeout: 60000 }, async () => {
  const first = await Server.start();
  const migrations = await mkdtemp(path.join(tmpdir(), 'quinteto-migrations-'));
  try {
    await cp(path.join(SOURCE, 'migrations'), migrations, { recursive: true });
    await writeFile(path.join(migrations, '0999_probe.sql'), 'CREATE TABLE probe(x);\n');
    const second = await run(`127.0.0.1:${first.port}`, first.dir, migrations);
    assert.notEqual((await second.exit).code, 0, 'the second server fails');
    const probe = execFileSync('sqlite3', [path.join(first.dir, 'q.db'),
      "SELECT count(*) FROM sqlite_master WHERE name = 'probe'"], { encoding: 'utf8' }).trim();
    assert.equal(probe, '0', 'its newer migration was not applied to the database in use');
  } finally {
    await first.stop();
    await rm(migrations, { recursive: true, force: true });
  }
});

test('add_bot: only the creator or a seated player (r2)', { timeout: 30000 }, async () => {
  const srv = await Server.start();
  try {
    const owner = await srv.player('Owner');
    const seated = await srv.player('Seated');
    const stranger = await srv.player('Stranger');
    const room = (await createRoom(owner, 'ur')).id;
    const refused = await stranger.request({ type: 'add_bot', room });
    assert.equal(refused.code, 'not_in_room', 'a stranger may not');
    await stranger.request({ type: 'watch', room });
    assert.equal((await stranger.request({ type: 'add_bot', room })).code, 'not_in_room', 'nor a watcher');
    assert.equal((await owner.request({ type: 'add_bot', room, seat: 0 })).type, 'bot_added', 'the creator may, unseated');
    await joinRoom(seated, room, { seat: 1 }); // the match starts: bot v. Seated
    const room2 = (await createRoom(owner, 'ur')).id;
    await joinRoom(seated, room2, { seat: 0 });
    assert.equal((await seated.request({ type: 'add_bot', room: room2 })).type, 'bot_added', 'a seated player may');
  } finally { await srv.stop(); }
});
