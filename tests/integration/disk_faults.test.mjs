// Storage faults while matches run (issue 12, section 5), on a real file system: the database lives on
// a small tmpfs the test mounts (it runs as root), which a filler file fills up; or its files are made
// immutable (chattr +i, on the temporary folder's ext4: root ignores chmod 0444, not that). While the fault lasts the failure is
// logged and counted, every client is told (an `error` without id, code `unavailable`), GET /readyz
// answers 503 with the reason, requests that would change something are refused with `unavailable`, and
// no client is shown anything a restart could take back. When the fault
// is cleared play resumes by itself, every match finishes and is archived, and `quinteto verify --all`
// passes. A SIGKILL in the middle of a fault loses nothing a client saw. A read-only database at start
// stops the start with a clear message instead of serving a /healthz that says ok over failing writes.
//
// If tmpfs cannot be mounted, or the temporary folder's file system ignores chattr +i on open files
// (tmpfs does), the tests fail: they never pass without a real fault.
import test from 'node:test';
import { execFileSync, spawn } from 'node:child_process';
import { closeSync, ftruncateSync, openSync, rmSync, statSync, writeSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Server, assert, autoplay, createRoom, joinRoom, pick, sleep, until } from './lib.mjs';

const lastState = (c, room) => c.messages.findLast((m) => m.type === 'state' && m.room === room);
const cli = (dir, ...args) => execFileSync(process.env.QUINTETO_CLI, ['--db', path.join(dir, 'q.db'), ...args],
  { encoding: 'utf8' });
const DB_FILES = ['q.db', 'q.db-wal', 'q.db-shm'];

// Runs fn(dir) with a fresh tmpfs of `size` mounted on dir; unmounts it whatever happens.
async function onTmpfs(size, fn) {
  const dir = await mkdtemp(path.join(tmpdir(), 'quinteto-disk-'));
  try {
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size},mode=0700`, 'tmpfs', dir], { stdio: 'pipe' });
    } catch (e) {
      assert.fail(`cannot mount a tmpfs for the fault (are we root?): ${e.stderr || e.message}`);
    }
    try {
      await fn(dir);
    } finally {
      for (const f of DB_FILES) { try { execFileSync('chattr', ['-i', path.join(dir, f)], { stdio: 'pipe' }); } catch { /* absent */ } }
      execFileSync('umount', ['-l', dir], { stdio: 'pipe' });
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

// Runs fn(); a failure carries the tail of the stderr of the server running then (srvOf()), which is
// stopped in any case.
async function withStderrTail(srvOf, fn) {
  try {
    await fn();
  } catch (e) {
    e.message += `\nserver stderr (tail):\n${srvOf().stderr.slice(-4000)}`;
    throw e;
  } finally {
    if (srvOf().alive) await srvOf().stop().catch(() => {});
  }
}

// Runs fn(dir) in a fresh folder under the temporary folder, whose file system must honour chattr +i on
// files already open (ext4 does; tmpfs lets open descriptors write on); clears the attribute at the end.
async function onImmutableCapableDisk(fn) {
  const dir = await mkdtemp(path.join(tmpdir(), 'quinteto-ro-'));
  try {
    const probe = path.join(dir, 'probe');
    const fd = openSync(probe, 'w');
    let honoured = false;
    try {
      execFileSync('chattr', ['+i', probe], { stdio: 'pipe' });
      try { writeSync(fd, 'x'); } catch (e) { honoured = e.code === 'EPERM'; }
    } finally {
      closeSync(fd);
      try { execFileSync('chattr', ['-i', probe], { stdio: 'pipe' }); } catch { /* never set */ }
    }
    assert.ok(honoured, `the file system of ${tmpdir()} does not stop writes to an immutable open file: no read-only fault to test`);
    try {
      await fn(dir);
    } finally {
      for (const f of DB_FILES) { try { execFileSync('chattr', ['-i', path.join(dir, f)], { stdio: 'pipe' }); } catch { /* absent */ } }
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

// Fills the file system of `dir` with a filler file until it is full; returns its path.
function fill(dir) {
  const file = path.join(dir, 'filler');
  const fd = openSync(file, 'w');
  const chunk = Buffer.alloc(64 << 10, 0x55);
  try {
    for (;;) writeSync(fd, chunk);
  } catch (e) {
    if (e.code !== 'ENOSPC') throw e;
    try { for (;;) writeSync(fd, chunk, 0, 512); } catch { /* the last blocks */ }
  } finally {
    closeSync(fd);
  }
  return file;
}

const readyz = async (srv) => (await srv.http('/readyz')).json;

// Two pairs of players, each pair in an Ur match, both sides playing random legal actions.
async function startMatches(srv, n = 2) {
  const ms = [];
  for (let i = 0; i < n; i++) {
    const a = await srv.player(`A${i}`);
    const b = await srv.player(`B${i}`);
    const room = (await createRoom(a, 'ur')).id;
    await joinRoom(a, room, { seat: 0 });
    await joinRoom(b, room, { seat: 1 });
    ms.push({ room, cs: [a, b], tokens: [a.welcome.token, b.welcome.token] });
  }
  for (const m of ms) m.plays = m.cs.map((c) => autoplay(c, m.room, { since: 0 }));
  return ms;
}

// After a fault: an act refused with `unavailable` is not sent again by autoplay(); new players act on
// the latest state, as a person would after the refusal.
function replayAll(ms) {
  for (const m of ms) {
    for (const p of m.plays) p.stop();
    m.plays = m.cs.map((c) => autoplay(c, m.room, { since: 0 }));
  }
}

const seenPly = (m) => Math.max(...m.cs.map((c) => lastState(c, m.room)?.ply ?? 0));

// While the fault lasts: readiness, metrics, refusals, and nobody is shown anything new.
async function duringFault(srv, ms, why) {
  await until(async () => (await readyz(srv)).status === 'unavailable', { timeoutMs: 20000, what: '/readyz 503' });
  const r = await srv.http('/readyz');
  assert.equal(r.status, 503);
  assert.equal(r.json.reasons[0].code, 'storage_unavailable');
  assert.match(r.json.reasons[0].message, why);
  assert.equal((await srv.metrics()).quinteto_journal_failing, 1);
  const before = ms.map(seenPly);
  // Every client is told at once, ahead of the states that wait for the database: play pauses.
  for (const m of ms) {
    for (const c of m.cs) {
      const notice = await c.next((x) => x.type === 'error' && x.id === undefined && x.code === 'unavailable', 5000,
        'the notice that the database cannot be written');
      assert.match(notice.message, /cannot save to its database right now: play pauses/);
    }
  }
  // Clear refusals, at once, for requests that would change something or create a player.
  const x = await srv.connect({ label: 'newcomer' });
  const hello = await x.request({ type: 'hello', name: 'Newcomer' }, 5000);
  assert.equal(hello.code, 'unavailable', 'a new player is refused, not welcomed and then forgotten');
  assert.match(hello.message, /cannot save to its database/);
  const c = await srv.connect({ label: 'returning' });
  c.send({ type: 'hello', name: 'A0', token: ms[0].tokens[0] }); // welcomed once its rooms' states are saved
  await sleep(300);
  assert.deepEqual(ms.map(seenPly), before, 'no state was shown while nothing could be saved');
  x.terminate();
  return c;
}

test('a full disk mid-match: unavailable, /readyz 503, nothing lost; play resumes when space returns; a SIGKILL mid-fault loses nothing seen', { timeout: 120000 }, () => onTmpfs('32m', async (dir) => {
  let srv = await Server.start({ dir });
  await withStderrTail(() => srv, async () => {
    const ms = await startMatches(srv);
    await until(() => ms.every((m) => seenPly(m) >= 6), { timeoutMs: 20000, what: 'both matches under way' });
    let filler = fill(dir);
    await duringFault(srv, ms, /the disk is full/);
    assert.match(srv.stderr, /database or disk is full/, 'the failure is logged');
    rmSync(filler);
    await until(async () => (await readyz(srv)).status === 'ok', { timeoutMs: 20000, what: '/readyz 200 again' });
    replayAll(ms);
    const resumed = ms.map(seenPly);
    await until(() => ms.every((m, i) => seenPly(m) > resumed[i] + 4 || lastState(m.cs[0], m.room).status === 'finished'),
      { timeoutMs: 20000, what: 'play resumed by itself' });

    // Again, and this time the server is killed in the middle of the fault.
    filler = fill(dir);
    await duringFault(srv, ms, /the disk is full/);
    srv.proc.kill('SIGKILL');
    await srv.exited;
    srv.stopped = true;
    for (const m of ms) for (const p of m.plays) p.stop();
    const seen = ms.map(seenPly);
    srv.assertValid();
    rmSync(filler);

    srv = await Server.start({ dir });
    for (const [i, m] of ms.entries()) {
      m.cs = [];
      for (const [seat, token] of m.tokens.entries()) {
        const c = await srv.connect({ label: `${seat ? 'B' : 'A'}${i} again` });
        const w = await c.request({ type: 'hello', name: `${seat ? 'B' : 'A'}${i}`, token });
        assert.equal(w.type, 'welcome', `${c.label}: the player made before the fault is still known`);
        m.cs.push(c);
      }
      const st = await m.cs[0].nextState(m.room);
      assert.ok(st.ply >= seen[i], `room ${m.room}: ply ${st.ply} after the restart, ${seen[i]} seen before it`);
      assert.equal(st.ply, seen[i], 'what was held unseen at the kill is gone, nothing else');
    }
    const fins = await Promise.all(ms.flatMap((m) => m.cs.map((c) => autoplay(c, m.room, { since: 0 }).done)));
    assert.ok(fins.every((f) => f.status === 'finished'));
    for (const m of ms) await srv.archive(m.room, { timeoutMs: 10000 });
    await srv.stop();
    assert.match(cli(dir, 'verify', '--all'), /^verified 2 of 2 matches/, 'both matches verify');
  });
}));

test('a read-only database mid-match (chattr +i): unavailable, /readyz 503; play resumes when it is writable again', { timeout: 90000 }, () => onImmutableCapableDisk(async (dir) => {
  const srv = await Server.start({ dir });
  // Not q.db-shm: SQLite maps it, and a page write to an immutable mapped file is a SIGBUS, not an error.
  const files = ['q.db', 'q.db-wal'].map((f) => path.join(dir, f));
  await withStderrTail(() => srv, async () => {
    const ms = await startMatches(srv);
    await until(() => ms.every((m) => seenPly(m) >= 6), { timeoutMs: 20000, what: 'both matches under way' });
    execFileSync('chattr', ['+i', ...files]);
    const returning = await duringFault(srv, ms, /cannot be written|read-only/);
    execFileSync('chattr', ['-i', ...files]);
    await until(async () => (await readyz(srv)).status === 'ok', { timeoutMs: 20000, what: '/readyz 200 again' });
    assert.equal((await returning.nextType('welcome', 10000)).type, 'welcome', 'the held welcome, once saved');
    replayAll(ms);
    const fins = await Promise.all(ms.flatMap((m) => m.plays.map((p) => p.done)));
    assert.ok(fins.every((f) => f.status === 'finished'), 'every match played on to its end');
    for (const m of ms) await srv.archive(m.room, { timeoutMs: 10000 });
    await srv.stop();
    assert.match(cli(dir, 'verify', '--all'), /^verified 2 of 2 matches/, 'both matches verify');
  });
}));

test('a read-only database at start: the server refuses to start, saying why', { timeout: 60000 }, () => onTmpfs('32m', async (dir) => {
  const first = await Server.start({ dir }); // creates the database
  await first.stop();
  execFileSync('chattr', ['+i', path.join(dir, 'q.db')]);
  await assert.rejects(Server.start({ dir }), (e) => {
    assert.match(e.message, /exited before listening \(code 1/);
    assert.match(e.message, /q\.db is read-only .*does not start/);
    return true;
  });
}));

// Another connection that holds a read transaction open: while it does, SQLite can neither finish a
// checkpoint past its snapshot nor start the WAL over, so a checkpoint and a WAL restart (on their own
// thread since checkpoints left the writer) cannot make room on the full disk behind the test's back.
async function pinSnapshot(db) {
  const p = spawn('sqlite3', [db], { stdio: ['pipe', 'pipe', 'inherit'] });
  const killIt = () => p.kill('SIGKILL');
  process.once('exit', killIt); // a failing test must not leave it holding the tmpfs
  let out = '';
  p.stdout.on('data', (d) => { out += d; });
  p.stdin.write('BEGIN;\nSELECT count(*) FROM live_rooms;\n');
  await until(() => /^\d+\s*$/m.test(out), { timeoutMs: 10000, what: 'the reader holding a snapshot' });
  return {
    release: () => new Promise((resolve) => {
      process.off('exit', killIt);
      p.on('exit', resolve);
      p.stdin.end('COMMIT;\n');
    }),
  };
}

const LEFT = 16384; // bytes: a resignation's batch fits (8 to 32 KiB all work), an archive of 80-odd actions does not

// The space left is enough for the journal batch that ends a match (a resignation: a row or two) but not
// for its archive (every action again): the archive save fails, is retried until space returns, and the
// journal keeps the match meanwhile. Killed in the middle, the next start brings the match back finished
// (not at an older ply) and archives it.
test('a disk too full for an archive: the save is retried until it commits, the journal keeps the match, a SIGKILL loses nothing', { timeout: 90000 }, () => onTmpfs('32m', async (dir) => {
  let srv = await Server.start({ dir });
  await withStderrTail(() => srv, async () => {
    const rooms = [];
    const players = [];
    for (const kill of [false, true]) {
      const a = await srv.player('Ana');
      const room = (await createRoom(a, 'ur')).id;
      await joinRoom(a, room, { seat: 0 });
      await a.request({ type: 'add_bot', room, seat: 1 });
      let acts = 0;
      const play = autoplay(a, room, { since: 0, choose: (st) => (acts++ < 80 ? pick(st.legal) : null) });
      await until(() => acts > 80 || lastState(a, room)?.status === 'finished', { timeoutMs: 30000, what: 'eighty acts' });
      play.stop();
      if (lastState(a, room).status === 'finished') continue; // a short match: no resignation to make
      const pin = await pinSnapshot(path.join(dir, 'q.db'));
      const filler = fill(dir);
      const fd = openSync(filler, 'r+');
      ftruncateSync(fd, statSync(filler).size - LEFT);
      closeSync(fd);
      await a.send({ type: 'resign', room });
      const fin = await a.nextState(room, (s) => s.status === 'finished', 10000);
      assert.deepEqual(fin.result.reason, 'resign', 'the resignation was saved and shown');
      await until(() => srv.stderr.includes(`match ${room} cannot be archived now (database or disk is full); retrying`),
        { timeoutMs: 10000, what: 'the archive save failing' });
      // SQLite can sometimes make room by itself (a retry reuses WAL blocks a failed attempt allocated): then
      // the save heals while the disk is still full. Otherwise the fault is visible until space returns.
      const healed = () => srv.stderr.includes(`match ${room} archived after its retries`);
      const ready = await readyz(srv);
      const refused = await a.request({ type: 'create', game: 'ur' });
      if (!healed()) {
        assert.equal((await srv.http(`/api/matches/${room}`)).status, 404, 'not archived yet');
        assert.equal(ready.reasons[0]?.code, 'storage_unavailable', '/readyz says why');
        assert.equal(refused.code, 'unavailable', 'changes are refused while the archive save fails');
      }
      rooms.push(room);
      players.push(a);
      if (kill) {
        srv.proc.kill('SIGKILL');
        await srv.exited;
        srv.stopped = true;
        srv.assertValid();
        rmSync(filler);
        await pin.release();
        srv = await Server.start({ dir });
      } else {
        rmSync(filler);
        await pin.release();
      }
      const archive = await srv.archive(room, { timeoutMs: 15000 });
      assert.deepEqual(archive.result.reason, 'resign');
      assert.equal(archive.actions.length, fin.ply, 'every action archived');
      const w = await srv.player('Watcher');
      const again = await w.request({ type: 'watch', room });
      if (again.type === 'watching') assert.equal((await w.nextState(room)).status, 'finished', 'it stays finished');
    }
    assert.equal(rooms.length, 2, 'both matches were long enough to resign');
    await srv.stop();
    assert.match(cli(dir, 'verify', '--all'), /^verified 2 of 2 matches/, 'both archives verify');
    assert.equal(execFileSync('sqlite3', [path.join(dir, 'q.db'), 'SELECT count(*) FROM live_rooms'], { encoding: 'utf8' }).trim(),
      '0', 'the journal dropped each match once it was archived');
  });
}));

// SIGTERM while the disk is full: the states held for the journal can never go out, so at the end of
// --shutdown-timeout they are dropped (never shown) and every client still gets its 1012; the server
// exits 0, and the next one, with space again, has every ply a client saw.
test('SIGTERM during a full disk: 1012 after --shutdown-timeout, exit 0, nothing seen is lost', { timeout: 60000 }, () => onTmpfs('32m', async (dir) => {
  let srv = await Server.start({ dir, args: ['--shutdown-timeout', '2'] });
  await withStderrTail(() => srv, async () => {
    const ms = await startMatches(srv);
    await until(() => ms.every((m) => seenPly(m) >= 6), { timeoutMs: 20000, what: 'both matches under way' });
    const filler = fill(dir);
    await duringFault(srv, ms, /the disk is full/);
    const t0 = Date.now();
    const stopped = srv.stop({ keepClients: true, timeoutMs: 15000 });
    for (const m of ms) {
      for (const c of m.cs) assert.equal((await c.waitClosed(10000)).code, 1012, `${c.label}: told the server restarts`);
    }
    await stopped;
    assert.ok(Date.now() - t0 < 8000, `exited ${Date.now() - t0} ms after SIGTERM`);
    assert.match(srv.stderr, /connections still open after 2 s; closing them/);
    for (const m of ms) for (const p of m.plays) p.stop();
    const seen = ms.map(seenPly);
    rmSync(filler);
    srv = await Server.start({ dir });
    for (const [i, m] of ms.entries()) {
      const c = await srv.connect({ label: `A${i} again` });
      await c.request({ type: 'hello', name: `A${i}`, token: m.tokens[0] });
      assert.equal((await c.nextState(m.room)).ply, seen[i], `room ${m.room}: the ply every client saw`);
    }
    await srv.stop();
  });
}));

test('a read-only database: a rematch offer and a mute are refused with unavailable, not shown', { timeout: 60000 }, () => onImmutableCapableDisk(async (dir) => {
  const srv = await Server.start({ dir });
  const files = ['q.db', 'q.db-wal'].map((f) => path.join(dir, f));
  await withStderrTail(() => srv, async () => {
    const a = await srv.player('Ana');
    const b = await srv.player('Ben');
    const room = (await createRoom(a, 'ur')).id;
    await joinRoom(a, room, { seat: 0 });
    await joinRoom(b, room, { seat: 1 });
    assert.equal((await a.request({ type: 'resign', room })).type, 'resigned');
    await b.nextState(room, (m) => m.status === 'finished');
    const x = await srv.player('Xavi');
    execFileSync('chattr', ['+i', ...files]);
    x.send({ type: 'create', game: 'ur' }); // a write that fails: the store is failing from then on
    await until(async () => (await readyz(srv)).status === 'unavailable', { timeoutMs: 20000, what: '/readyz 503' });
    const markB = b.mark();
    const e = await a.request({ type: 'rematch', room });
    assert.equal(e.code, 'unavailable', 'the offer is refused while it could not be saved');
    const e2 = await b.request({ type: 'mute', room, seat: 0, muted: true });
    assert.equal(e2.code, 'unavailable', 'so is a mute');
    await sleep(300);
    assert.equal(b.statesSince(markB, room).length, 0, 'nobody was shown an offer');
    execFileSync('chattr', ['-i', ...files]);
    await until(async () => (await readyz(srv)).status === 'ok', { timeoutMs: 20000, what: '/readyz 200 again' });
    const w = await srv.player('Wes');
    const st = await w.request({ type: 'watch', room }).then(() => w.nextState(room));
    assert.equal(st.rematch, null, 'no offer was made');
    const r = await b.request({ type: 'mute', room, seat: 0, muted: false });
    assert.deepEqual([r.type, r.seats], ['muted', []], 'no mute was made');
    a.send({ type: 'rematch', room }); // and once it can be saved, it is made
    await b.nextState(room, (m) => m.rematch?.status === 'offered');
    await srv.stop();
  });
}));
