// dblock.test.mjs: one database, one server. A second server started on a database that a running
// server holds must not listen, migrate or restore anything: it exits 1 naming the holder (its pid),
// and the first goes on serving its rooms; the command-line tools still read the database meanwhile.
// After a SIGKILL the lock file is left behind, yet the next server starts (the kernel dropped the lock).
import test from 'node:test';
import { execFileSync, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Server, assert, createRoom, freePort, within } from './lib.mjs';
import { SOURCE, serverEnv, sanitizerReport } from '../lib/server.mjs';

// Runs a second server on `dir`'s database; resolves {code, signal, stdout, stderr} when it exits.
async function second(dir, port) {
  const proc = spawn(process.env.QUINTETO_SERVER, ['--listen', `127.0.0.1:${port}`, '--db', path.join(dir, 'q.db'),
    '--web', path.join(SOURCE, 'clients', 'web'), '--migrations', path.join(SOURCE, 'migrations')],
  { stdio: ['ignore', 'pipe', 'pipe'], env: serverEnv() });
  let stdout = '', stderr = '';
  proc.stdout.on('data', (b) => { stdout += b; });
  proc.stderr.on('data', (b) => { stderr += b; });
  // 'close' (its output all read), not 'exit', which Node may report first
  const exit = await within(new Promise((resolve) => proc.on('close', (code, signal) => resolve({ code, signal }))), 20000);
  if (!exit) {
    proc.kill('SIGKILL');
    assert.fail(`the second server on the same database is still running after 20 s\n${stdout}${stderr}`);
  }
  return { ...exit, stdout, stderr };
}

const refused = (port) => new Promise((resolve) => {
  const s = net.connect(port, '127.0.0.1');
  s.on('connect', () => { s.destroy(); resolve(false); });
  s.on('error', () => resolve(true));
});

test('a second server on the same database exits 1 naming the holder; the first serves on; the tools read', { timeout: 90000 }, async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'quinteto-dblock-'));
  try {
    const a = await Server.start({ dir });
    let room;
    try {
      const ana = await a.player('Ana');
      room = (await createRoom(ana, 'ur')).id;
      const port = await freePort();
      const b = await second(dir, port);
      assert.equal(b.code, 1, `exit status of the second server\n${b.stdout}${b.stderr}`);
      assert.equal(sanitizerReport(b.stderr), null, b.stderr);
      assert.match(b.stderr, new RegExp(`in use by another quinteto-server \\(pid ${a.proc.pid}; listen 127\\.0\\.0\\.1:${a.port}; since `));
      assert.match(b.stderr, /one database, one server: not starting/);
      assert.doesNotMatch(b.stdout, /listening on/, 'the second server listened');
      assert.ok(await refused(port), 'the second server left a listening socket behind');
      // The first one is untouched: its room is there and it takes changes.
      const rooms = await a.getJson('/api/rooms');
      assert.ok(rooms.rooms.some((r) => r.id === room), 'the first server lost its room');
      assert.equal((await a.http('/readyz')).status, 200);
      const ben = await a.player('Ben');
      assert.equal((await ben.request({ type: 'join', room, seat: 1 })).type, 'joined');
      // The command-line tools only read: they run beside the server.
      const out = execFileSync(process.env.QUINTETO_CLI, ['--db', path.join(dir, 'q.db'), 'matches'], { encoding: 'utf8' });
      assert.equal(typeof out, 'string');
      assert.match(await readFile(path.join(dir, 'q.db.lock'), 'utf8'), new RegExp(`^pid ${a.proc.pid}\n`));
    } finally {
      a.proc.kill('SIGKILL'); // the lock file stays behind, held by nobody
      await a.exited;
    }
    const c = await Server.start({ dir });
    try {
      const rooms = await c.getJson('/api/rooms');
      assert.ok(rooms.rooms.some((r) => r.id === room), 'the room did not come back after the SIGKILL');
      assert.match(await readFile(path.join(dir, 'q.db.lock'), 'utf8'), new RegExp(`^pid ${c.proc.pid}\n`));
    } finally {
      await c.stop();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('a lock file that cannot be made stops the start with a clear message', { timeout: 30000 }, async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'quinteto-dblock-'));
  try {
    // A folder where the lock file should be: open() fails (EISDIR), as on a folder that is not writable
    // (root ignores permissions, so a read-only folder cannot be made here).
    execFileSync('mkdir', [path.join(dir, 'q.db.lock')]);
    const b = await second(dir, await freePort());
    assert.equal(b.code, 1, `${b.stdout}${b.stderr}`);
    assert.match(b.stderr, /cannot open the lock file .*q\.db\.lock: Is a directory/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
