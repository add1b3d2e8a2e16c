// A single server on PostgreSQL (`--store postgres`, docs/SCALING.md "The store"): the same promises as
// on SQLite. A match is played against a bot, the server is SIGKILLed mid-match, every ply a client
// saw is in PostgreSQL's journal, the restarted server resumes the seat by its token at the same
// ply, plays on, resigns (the quickest end) and the match is archived exactly once, and the archive
// API answers it. Then PostgreSQL is stopped under a match: the move already accepted is shown to
// nobody, changes are answered `unavailable`, /readyz says why; started again, the held state goes out
// and play goes on. And a hello whose token is not in memory waits for PostgreSQL on the store's lookup
// thread, not on the loop: with that connection's backend paused (SIGSTOP) the other clients are still
// answered, clients that hang up meanwhile have their reads dropped, an address's 33rd waiting read is
// refused `rate_limited`, and the hello completes after; with
// PostgreSQL stopped it is `unavailable` (it used to become a new identity, with a new token, once
// PostgreSQL was back). With PostgreSQL alive but slow, hellos queued behind a slow read are answered
// `unavailable` within about one deadline, not one deadline each in turn.
// Runs under tests/lib/with-pg.sh (a PostgreSQL of its own, its conninfo in QUINTETO_TEST_PG, its
// folder in QUINTETO_TEST_PG_DIR for deploy/cluster/lib.sh's pg_stop and pg_up).
import test from 'node:test';
import { execFileSync, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  Server, assert, autoplay, createRoom, joinRoom, parseMetrics, until, withServer,
} from './lib.mjs';

const conninfo = process.env.QUINTETO_TEST_PG;
const PG = ['--store', 'postgres', '--postgres', conninfo];
const psql = (q) => execFileSync('psql', [conninfo, '-XAtqc', q], { encoding: 'utf8' }).trim();
const lastState = (c, room) => c.messages.findLast((m) => m.type === 'state' && m.room === room);
const lib = (fn) => execFileSync('bash', ['-c', `. "$1/deploy/cluster/lib.sh" && ${fn} "$2" "$(cat "$2/pg/port")"`,
  'lib', process.env.QUINTETO_SOURCE, process.env.QUINTETO_TEST_PG_DIR], { stdio: 'inherit' });
const verify = (file) => execFileSync(process.env.QUINTETO_CLI, ['verify', file], { encoding: 'utf8' });

test('on PostgreSQL: play, SIGKILL, restart, resume by token, finish, archived once', { timeout: 120000 }, async () => {
  assert.ok(conninfo, 'QUINTETO_TEST_PG is set (run through tests/lib/with-pg.sh)');
  const dir = await mkdtemp(path.join(tmpdir(), 'quinteto-pg-'));
  try {
    let token, room, before;
    {
      const srv = await Server.start({ dir, args: PG });
      const a = await srv.player('Ana');
      token = a.welcome.token;
      room = (await createRoom(a, 'ur')).id;
      await joinRoom(a, room, { seat: 0, client_seed: 'on postgres' });
      let acts = 0;
      const play = autoplay(a, room, { choose: (st) => (acts++ < 20 ? st.legal[0] : null) });
      await a.request({ type: 'add_bot', room, seat: 1 });
      await until(() => acts > 20, { timeoutMs: 30000, what: 'twenty acts, then Ana to act' });
      before = lastState(a, room);
      play.stop();
      srv.proc.kill('SIGKILL');
      await srv.exited;
      srv.stopped = true;
      srv.assertValid();
    }
    // Every ply Ana was shown is in the journal (frames wait for their batch's COMMIT).
    const journalled = Number(psql(`SELECT count(*) FROM live_actions WHERE room_id = '${room}'`));
    assert.ok(journalled >= before.ply, `the journal holds ${journalled} plies, Ana saw ${before.ply}`);
    assert.equal(psql(`SELECT node IS NULL FROM live_rooms WHERE id = '${room}'`), 't', 'a single server: no node');

    const srv = await Server.start({ dir, args: PG });
    try {
      const a = await srv.connect();
      const welcome = await a.request({ type: 'hello', name: 'Ana', token });
      assert.deepEqual(welcome.rooms, [room], 'the token (looked up in PostgreSQL) resumes the seat');
      const st = await a.nextState(room);
      assert.equal(st.ply, before.ply, 'at the ply Ana last saw');
      assert.deepEqual(st.view, before.view, 'in the same position');
      assert.equal(st.commit, before.commit, 'with the same committed seed');
      let more = 0;
      const play = autoplay(a, room, { since: 0, choose: (s) => (more++ < 4 ? s.legal[0] : null) });
      await until(() => more > 4, { timeoutMs: 30000, what: 'four more acts' });
      play.stop();
      await a.request({ type: 'resign', room });
      const fin = await a.nextState(room, (s) => s.status === 'finished', 10000);
      await until(() => psql(`SELECT count(*) FROM matches WHERE id = '${room}'`) === '1', { what: 'the archive row' });
      assert.equal(psql(`SELECT count(*) FROM live_rooms WHERE id = '${room}'`), '0', 'the journal is dropped once archived');
      assert.equal(psql(`SELECT plies FROM matches WHERE id = '${room}'`), String(fin.ply), 'every ply archived');
      // The archive API reads PostgreSQL (archive_read_pg.c) on the store's reader connections.
      const archive = await srv.archive(room);
      const file = path.join(dir, 'match.json');
      await writeFile(file, JSON.stringify(archive));
      assert.deepEqual(archive.client_seeds, ['on postgres', '']);
      assert.equal(archive.result.reason, 'resign');
      assert.match(verify(file), /^verified: ur match/, 'the archive replays through the rules core');
      const list = await srv.http('/api/matches?player=ana');
      assert.equal(list.status, 200);
      assert.deepEqual(list.json.matches.map((m) => m.id), [room], 'listed by the folded name');
    } finally {
      await srv.stop();
    }
    assert.equal(psql(`SELECT count(*) FROM matches WHERE id = '${room}'`), '1', 'archived once');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('PostgreSQL stopped under a match: nothing unsaved shown, changes unavailable, play resumes', { timeout: 120000 }, () => withServer({ args: PG }, async (srv) => {
  const [a, b, w] = [await srv.player('Ana'), await srv.player('Ben'), await srv.player('Watcher')];
  const room = (await createRoom(a, 'ur')).id;
  await joinRoom(a, room, { seat: 0 });
  await joinRoom(b, room, { seat: 1 });
  await w.request({ type: 'watch', room });
  await until(() => lastState(w, room)?.status === 'playing', { what: 'the match started' });
  const x = await srv.player('Xena');
  let up = false;
  lib('pg_stop');
  try {
    await a.send({ type: 'act', room, ply: 0, action: { roll: true } }); // accepted, journalled, held
    const failing = async () => parseMetrics(await (await fetch(`${srv.url}/metrics`)).text()).quinteto_journal_failing;
    await until(async () => (await failing()) === 1, { timeoutMs: 20000, what: 'the journal reported failing' });
    for (const c of [a, b, w]) assert.equal(lastState(c, room).ply, 0, 'no unsaved state shown');
    const e = await x.request({ type: 'create', game: 'ur', id: 'x-create' }, 3000);
    assert.equal(e.code, 'unavailable', 'a change while PostgreSQL is away');
    const ready = await srv.http('/readyz');
    assert.equal(ready.status, 503);
    assert.match(ready.json.reasons[0].message, /cannot be written or reached/);
    lib('pg_up');
    up = true;
    await until(() => lastState(w, room).ply === 1, { timeoutMs: 20000, what: 'the held state, after the commit' });
    await until(async () => (await srv.http('/readyz')).status === 200, { what: 'ready again' });
    assert.equal(psql(`SELECT count(*) FROM live_actions WHERE room_id = '${room}'`), '1', 'journalled once');
    const st = lastState(w, room); // play goes on: the player to act acts, and it is shown
    const mover = (st.to_act.includes(0) ? a : b);
    await until(() => lastState(mover, room)?.ply === st.ply, { what: 'the mover at that ply' });
    const mine = lastState(mover, room);
    await mover.send({ type: 'act', room, ply: mine.ply, action: mine.legal[0] });
    await until(() => lastState(w, room).ply === st.ply + 1, { what: 'the next move shown' });
  } finally {
    if (!up) lib('pg_up');
  }
}));

// Issue 26 on PostgreSQL: a rated match's ratings written in its archive's transaction (the rating_clock
// row first, rated_seq 1, 2, ...), the very figures rating_apply() gives (rating_expect, the same C),
// and the account's page and the leaderboard read from PostgreSQL.
test('on PostgreSQL: a rated match writes its ratings with its archive', { timeout: 60000 }, () => withServer({ args: PG }, async (srv) => {
  const expect = (archive, before) => JSON.parse(execFileSync(process.env.QUINTETO_TEST_RATING_EXPECT,
    [JSON.stringify(before)], { input: JSON.stringify(archive) }).toString());
  const claim = async (handle) => {
    const c = await srv.player(handle);
    assert.equal((await c.request({ type: 'claim', handle, password: 'correct horse battery' })).type, 'account');
    return c;
  };
  const [a, b] = [await claim('PgAna'), await claim('PgBen')];
  const clock = Number(psql('SELECT n FROM rating_clock'));
  const seq = Number(psql('SELECT coalesce(max(rated_seq), 0) FROM matches'));
  const room = (await a.request({ type: 'create', game: 'ur', rated: true })).room.id;
  await joinRoom(a, room, { seat: 0 });
  await joinRoom(b, room, { seat: 1 });
  await a.nextState(room, (s) => s.status === 'playing', 10000);
  const mark = a.mark();
  assert.equal((await b.request({ type: 'resign', room })).type, 'resigned');
  const push = await until(() => a.since(mark, (m) => m.type === 'account' && m.ratings?.ur).at(-1),
    { what: 'the account push' });
  const archive = await srv.archive(room);
  assert.equal(archive.rated, true);
  const want = expect(archive, [null, null]);
  assert.equal(push.ratings.ur.rating, Math.round(want.after[0][0]));
  assert.equal(psql(`SELECT rated || ',' || rated_seq FROM matches WHERE id = '${room}'`), `1,${seq + 1}`);
  assert.equal(Number(psql('SELECT n FROM rating_clock')), clock + 1, 'the clock row was taken');
  for (const [i, c] of [[0, a], [1, b]]) {
    const row = psql(`SET extra_float_digits = 3; SELECT r.rating || ' ' || r.rd || ' ' || r.vol || ' ' || r.matches ` +
      `FROM ratings r JOIN accounts x ON x.player_id = r.player_id WHERE x.handle = '${c.label}' AND r.game = 'ur'`)
      .split(/\s+/).map(Number);
    assert.deepEqual(row, want.after[i].slice(0, 4), `${c.label}'s row is rating_apply()'s, exactly`);
    const hist = psql(`SELECT count(*) FROM rating_history h JOIN accounts x ON x.player_id = h.player_id ` +
      `WHERE x.handle = '${c.label}'`);
    assert.equal(hist, '1', 'one history row');
  }
  const page = await srv.getJson('/api/players/pgana');
  assert.equal(page.handle, 'PgAna');
  assert.equal(page.ratings.ur.vol, want.after[0][2]);
  const board = await srv.getJson('/api/leaderboard?game=ur&limit=2');
  assert.deepEqual(board.players.map((p) => p.handle), ['PgAna', 'PgBen']);
  // the archive is the one truth: a rebuild from it gives the very numbers the writer committed
  execFileSync(process.env.QUINTETO_CLI, ['ratings', 'rebuild', '--check', '--postgres', conninfo], { stdio: 'pipe' });
}));

// A hello's identity read on PostgreSQL (docs/ARCHITECTURE.md, "No disk on the loop"): the backend of the lookup
// thread's connection (application_name quinteto-hello) is paused, so the read waits (up to its
// deadline, STORE_LOOKUP_MS); the loop serves everyone else meanwhile.
// The read's deadline is long here (QUINTETO_TEST_HELLO_READ_MS), so that a loaded machine's slowness never
// ends the wait before the test does.
test('on PostgreSQL: a hello waiting for its identity read does not stop the loop', { timeout: 90000 }, () => withServer({ args: PG, env: { QUINTETO_TEST_HELLO_READ_MS: '60000' } }, async (srv) => {
  const a = await srv.player('Ana');
  const gus = await srv.player('Gus'); // an identity that leaves memory once its connection goes
  const token = gus.welcome.token;
  const known = (await srv.metrics()).quinteto_players_known;
  gus.terminate();
  await until(async () => (await srv.metrics()).quinteto_players_known === known - 1, { what: 'Gus out of memory' });
  const warm = await srv.player('Warm', { token: 'a token nobody has' }); // the lookup thread connects
  assert.equal(warm.welcome.type, 'welcome');
  const pid = Number(psql(`SELECT pid FROM pg_stat_activity WHERE application_name = 'quinteto-hello'`));
  assert.ok(pid > 0, 'the lookup thread\'s backend');
  process.kill(pid, 'SIGSTOP');
  let stopped = true;
  try {
    const known2 = (await srv.metrics()).quinteto_players_known;
    const b = await srv.connect({ label: 'Gus back' });
    const b2 = await srv.connect({ label: 'Gus again' });
    b.send({ type: 'hello', name: 'Gus', token, id: 'hb' });
    b2.send({ type: 'hello', name: 'Gus', token, id: 'hb' }); // the same token at once: one player
    await until(async () => (await srv.metrics()).quinteto_hello_reads_waiting === 2, { what: 'the reads waiting' });
    // the loop answers the others while the read waits
    assert.equal((await a.request({ type: 'rooms' })).type, 'rooms');
    assert.equal((await srv.http('/healthz')).status, 200);
    assert.equal(b.messages.length + b2.messages.length, 0, 'the hellos are not answered yet');
    // clients that hang up while their reads wait: the reads are dropped, the connections closed
    const gone = [];
    for (let i = 0; i < 30; i++) {
      const c = await srv.connect({ label: `gone ${i}` });
      c.send({ type: 'hello', name: 'Gone', token: `another unknown token ${i}`, id: 'hc' });
      gone.push(c);
    }
    await until(async () => (await srv.metrics()).quinteto_hello_reads_waiting === 32, { what: '32 reads waiting' });
    // the address's 33rd waiting read is refused (no strike), the connection open
    const over = await srv.connect({ label: 'over' });
    const refused = await over.request({ type: 'hello', name: 'Over', token: 'one token too many' });
    assert.equal(refused.code, 'rate_limited');
    assert.equal((await srv.metrics()).quinteto_hello_reads_refused_total, 1);
    for (const c of gone) c.terminate();
    await until(async () => (await srv.metrics()).quinteto_hello_reads_dropped_total === 30, { what: 'the reads dropped' });
    assert.equal((await srv.metrics()).quinteto_hello_reads_waiting, 2);
    assert.equal((await over.request({ type: 'rooms' })).code, 'hello_required', 'the refused connection goes on');
    process.kill(pid, 'SIGCONT');
    stopped = false;
    // answered once PostgreSQL answers: Gus again, or `unavailable` if the deadline passed first
    for (const x of [b, b2]) {
      const w = await x.next((m) => m.id === 'hb', 15000);
      const back = w.type === 'welcome' ? w : await x.request({ type: 'hello', name: 'Gus', token }, 10000);
      if (w.type !== 'welcome') assert.equal(w.code, 'unavailable', `the hello answered ${JSON.stringify(w)}`);
      assert.equal(back.type, 'welcome');
      assert.equal(back.player, gus.welcome.player, 'Gus\'s identity, read from PostgreSQL');
      assert.equal((await x.request({ type: 'rooms' })).type, 'rooms', 'the connection goes on');
    }
    assert.equal((await srv.metrics()).quinteto_players_known, known2 + 1, 'one object for the two hellos');
  } finally {
    if (stopped) process.kill(pid, 'SIGCONT');
  }
  // PostgreSQL away: a hello whose token cannot be read is `unavailable`, nothing made (not a new
  // identity in place of the token's own); once it is back, the same hello resumes the identity
  const known3 = (await srv.metrics()).quinteto_players_known;
  warm.terminate();
  await until(async () => (await srv.metrics()).quinteto_players_known === known3 - 1, { what: 'Warm out of memory' });
  const created = (await srv.metrics()).quinteto_players_created_total;
  let up = false;
  lib('pg_stop');
  try {
    const h = await srv.connect({ label: 'Warm again' });
    const e = await h.request({ type: 'hello', name: 'Warm', token: warm.welcome.token }, 15000);
    assert.equal(e.code, 'unavailable', `the hello answered ${JSON.stringify(e)}`);
    assert.equal((await srv.metrics()).quinteto_players_created_total, created, 'no identity made');
    lib('pg_up');
    up = true;
    const w = await until(async () => {
      const r = await h.request({ type: 'hello', name: 'Warm', token: warm.welcome.token }, 15000);
      return r.type === 'welcome' ? r : null;
    }, { timeoutMs: 30000, what: 'the hello answered once PostgreSQL is back' });
    assert.equal(w.player, warm.welcome.player, 'the same identity');
  } finally {
    if (!up) lib('pg_up');
  }
}));

// A read's deadline counts from when it is queued, not from when it runs (docs/ARCHITECTURE.md, "No disk on
// the loop"): with PostgreSQL alive but slow (here every identity read waits on a lock another client holds
// on the sessions table), the hellos queued behind the first are answered `unavailable` within about one
// deadline, not one deadline each in turn (N of them: N deadlines); they are answered by the lookup thread
// (their reads queued too long are not run), not by the hellos' own bound, twice the deadline. The elapsed
// time is checked against half of N deadlines: a ratio, not a tight timing.
test('on PostgreSQL: hellos queued behind a slow read are answered within their deadline', { timeout: 60000 }, () => withServer({ args: PG, env: { QUINTETO_TEST_HELLO_READ_MS: '2000' } }, async (srv) => {
  const N = 8, deadline = 2000;
  const locker = spawn('psql', [conninfo, '-XAtq', '-v', 'ON_ERROR_STOP=1'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const exited = new Promise((resolve) => locker.on('exit', resolve));
  let out = '', locked = true;
  locker.stdout.on('data', (d) => { out += d; });
  try {
    locker.stdin.write("BEGIN; LOCK TABLE sessions IN ACCESS EXCLUSIVE MODE; SELECT 'locked';\n");
    await until(() => out.includes('locked'), { what: 'the sessions table locked' });
    const cs = [];
    for (let i = 0; i < N; i++) cs.push(await srv.connect({ label: `slow ${i}` }));
    const t0 = Date.now();
    cs.forEach((c, i) => c.send({ type: 'hello', name: 'Slow', token: `a token the slow database holds ${i}`, id: 'hs' }));
    const answers = await Promise.all(cs.map((c) => c.next((m) => m.id === 'hs', 30000)));
    const elapsed = Date.now() - t0;
    for (const a of answers) assert.equal(a.code, 'unavailable', `the hello answered ${JSON.stringify(a)}`);
    const m = await srv.metrics();
    assert.equal(m.quinteto_hello_reads_failed_total, N);
    assert.equal(m.quinteto_hello_reads_expired_total, 0, 'answered by the lookup thread, not by the hellos\' own bound');
    assert.ok(elapsed < N * deadline / 2, `${N} reads queued behind a slow one answered in ${elapsed} ms (a deadline of ${deadline} ms each in turn: ${N * deadline} ms)`);
    locker.stdin.write("ROLLBACK; SELECT 'released';\n");
    await until(() => out.includes('released'), { what: 'the sessions table released' });
    locked = false;
    // the connections go on: a hello said again is answered once the database is (as a client would, it
    // says hello again after an `unavailable`: a loaded machine's read may still miss its 2 s deadline)
    let w;
    for (let tries = 0; tries < 5; tries++) {
      w = await cs[0].request({ type: 'hello', name: 'Slow', token: 'a token the slow database holds 0' }, 15000);
      if (w.type !== 'error' || w.code !== 'unavailable') break;
    }
    assert.equal(w.type, 'welcome', JSON.stringify(w));
  } finally {
    locker.stdin.end(locked ? 'ROLLBACK;\n' : '');
    await exited;
  }
}));
