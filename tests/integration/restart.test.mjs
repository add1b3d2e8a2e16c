// A restart loses nothing that was accepted: rooms, seats and actions come
// back from the live journal (replayed through the rules core), play goes
// on, and a match whose archive write failed is archived at the next start
// with its real times. Faults are injected into the real SQLite file with a
// trigger (the sqlite3 command-line tool), not mocked.
import test from 'node:test';
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  Server, assert, autoplay, createRoom, joinRoom, sleep, until, watchRoom,
} from './lib.mjs';

const sql = (dir, statement) => execFileSync('sqlite3', [path.join(dir, 'q.db'), statement], { encoding: 'utf8' });
const lastState = (c, room) => c.messages.findLast((m) => m.type === 'state' && m.room === room);
const verify = (file) => execFileSync(process.env.QUINTETO_CLI, ['verify', file], { encoding: 'utf8' });

test('a match in progress survives a restart: same ply, seats, dice; play goes on to a verified archive', { timeout: 90000 }, async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'quinteto-restart-'));
  try {
    let token, room, before;
    {
      const srv = await Server.start({ dir });
      const a = await srv.player('Ana');
      token = a.welcome.token;
      room = (await createRoom(a, 'ur')).id;
      await joinRoom(a, room, { seat: 0, client_seed: 'across a restart' });
      let acts = 0;
      const play = autoplay(a, room, { choose: (st) => (acts++ < 30 ? st.legal[0] : null) });
      await a.request({ type: 'add_bot', room, seat: 1 });
      // Once the chooser has passed (returned null), the latest state waits on Ana: nothing moves.
      await until(() => acts > 30, { timeoutMs: 30000, what: 'thirty acts, then Ana to act' });
      before = lastState(a, room);
      assert.ok(before.to_act.includes(0) && before.legal.length > 0);
      play.stop();
      await srv.stop();
    }
    const srv = await Server.start({ dir });
    try {
      const watcher = await srv.player('Watcher');
      const w0 = await watchRoom(watcher, room);
      assert.equal(w0.ply, before.ply, 'the restored room is at the same ply');
      assert.deepEqual(w0.view, before.view, 'and in the same position');
      assert.equal(w0.commit, before.commit, 'with the same committed seed');
      assert.equal(w0.seats[0].connected, false, 'Ana is away until she says hello');
      const a = await srv.connect();
      const welcome = await a.request({ type: 'hello', name: 'Ana', token });
      assert.deepEqual(welcome.rooms, [room], 'the token resumes the seat');
      const st = await a.nextState(room);
      assert.deepEqual(st.legal, before.legal, 'the same legal actions are offered');
      await until(() => lastState(watcher, room)?.seats[0].connected, { what: 'Ana connected again' });
      const fin = await autoplay(a, room, { since: 0 }).done; // acts on the latest state only
      assert.equal(fin.status, 'finished');
      const archive = await srv.archive(room);
      assert.deepEqual(archive.client_seeds, ['across a restart', '']);
      const file = path.join(dir, 'match.json');
      await writeFile(file, JSON.stringify(archive));
      assert.match(verify(file), /^verified: ur match/, 'the whole match replays through the rules core');
      assert.equal(sql(dir, 'SELECT count(*) FROM live_rooms').trim(), '0', 'the journal is dropped once archived');
    } finally {
      await srv.stop();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('a failed archive write keeps the match: the next start archives it, resignation and times intact', { timeout: 60000 }, async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'quinteto-restart-'));
  try {
    let room, ended;
    {
      const srv = await Server.start({ dir }); // creates the schema
      await srv.stop();
    }
    sql(dir, "CREATE TRIGGER fail BEFORE INSERT ON matches BEGIN SELECT RAISE(ABORT, 'disk says no'); END;");
    {
      const srv = await Server.start({ dir });
      try {
        const a = await srv.player('Ana');
        const b = await srv.player('Bo');
        room = (await createRoom(a, 'ur')).id;
        await joinRoom(a, room, { seat: 0 });
        await joinRoom(b, room, { seat: 1 });
        await a.send({ type: 'act', room, ply: 0, action: { roll: true } }); // no direct reply
        await a.nextState(room, (s) => s.ply === 1);
        await a.send({ type: 'resign', room }); // the reply is the room's next state
        const fin = await a.nextState(room, (s) => s.status === 'finished');
        assert.deepEqual(fin.result, { winner: 1, reason: 'resign' });
        ended = Date.now();
        await until(() => /could not be archived/.test(srv.stderr), { timeoutMs: 10000, what: 'the failed write' });
        // the record follows the message on the same line, which may reach us in a later chunk
        await until(() => srv.stderr.includes(`"id":"${room}"`), { timeoutMs: 10000, what: 'the unarchived record logged whole' });
      } finally {
        await srv.stop();
      }
    }
    sql(dir, 'DROP TRIGGER fail;');
    await sleep(50);
    const restartedAt = Date.now();
    const srv = await Server.start({ dir });
    try {
      const archive = await srv.archive(room);
      assert.deepEqual(archive.result, { winner: 1, reason: 'resign' }, 'the resignation was journalled');
      assert.equal(archive.actions.length, 1);
      assert.ok(archive.ended_at <= ended && archive.ended_at < restartedAt, 'ended_at is when it ended');
      assert.ok(archive.started_at <= archive.actions[0].at, 'started_at is when it started');
      const a = await srv.player('Ana2');
      const again = await watchRoom(a, room);
      assert.equal(again.status, 'finished', 'a finished match does not come back to life');
    } finally {
      await srv.stop();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('(r2) a room remembers its creator across a restart: the creator may still add bots without a seat', { timeout: 60000 }, async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'quinteto-restart-'));
  try {
    let token, room;
    {
      const srv = await Server.start({ dir });
      const a = await srv.player('Host');
      token = a.welcome.token;
      room = (await createRoom(a, 'ur')).id; // created, not joined
      await srv.stop();
    }
    assert.equal(sql(dir, `SELECT creator_id IS NOT NULL FROM live_rooms WHERE id = '${room}'`).trim(), '1',
      'the creator is journalled with the room');
    const srv = await Server.start({ dir });
    try {
      const stranger = await srv.player('Stranger');
      const refused = await stranger.request({ type: 'add_bot', room, seat: 0 });
      assert.equal(refused.type, 'error');
      assert.equal(refused.code, 'not_in_room', 'a stranger still may not add bots');
      const a = await srv.connect();
      await a.request({ type: 'hello', name: 'Host', token });
      const added = await a.request({ type: 'add_bot', room, seat: 0 });
      assert.equal(added.type, 'bot_added', 'the creator, unseated, may add a bot after the restart');
      assert.equal(added.seat, 0);
    } finally {
      await srv.stop();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

// SIGTERM mid-match (issue 12, section 5): the server stops taking connections, closes every WebSocket
// with 1012 ("service restart") once the states it holds are out, writes its journal and exits 0 at
// once. A new server on the same database has every ply a client saw; the clients come back with their
// tokens and finish the match.
test('SIGTERM mid-match: clients get 1012, the server exits 0 promptly, a new server resumes every seen ply', { timeout: 90000 }, async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'quinteto-restart-'));
  try {
    let room, tokens, seen;
    {
      const srv = await Server.start({ dir });
      const [a, b] = [await srv.player('Ana'), await srv.player('Bo')];
      tokens = [a.welcome.token, b.welcome.token];
      room = (await createRoom(a, 'ur')).id;
      await joinRoom(a, room, { seat: 0, client_seed: 'before' });
      await joinRoom(b, room, { seat: 1, client_seed: 'the restart' });
      const plays = [a, b].map((c) => autoplay(c, room, { since: 0 }));
      await until(() => (lastState(a, room)?.ply ?? 0) >= 20, { timeoutMs: 30000, what: 'twenty plies played' });
      assert.equal(lastState(a, room).status, 'playing', 'still mid-match');
      const t0 = Date.now();
      const stopped = srv.stop({ keepClients: true, timeoutMs: 15000 }); // SIGTERM while both play on
      const closes = await Promise.all([a.waitClosed(12000), b.waitClosed(12000)]);
      for (const c of closes) assert.equal(c.code, 1012, `closed with 1012 (got ${c.code} ${c.reason})`);
      await stopped; // exit status 0, no sanitizer report
      const took = Date.now() - t0;
      assert.ok(took < 8000, `the server exited ${took} ms after SIGTERM`);
      assert.match(srv.stderr, /SIGTERM: stopping; telling 2 connections the server restarts \(1012\)/);
      for (const p of plays) p.stop();
      seen = Math.max(lastState(a, room).ply, lastState(b, room).ply);
      assert.ok(seen >= 20);
    }
    const srv = await Server.start({ dir });
    try {
      const cs = [];
      for (const [seat, token] of tokens.entries()) {
        const c = await srv.connect({ label: seat ? 'Bo again' : 'Ana again' });
        const w = await c.request({ type: 'hello', name: seat ? 'Bo' : 'Ana', token });
        assert.deepEqual(w.rooms, [room], 'the token resumes the seat');
        cs.push(c);
      }
      const w0 = await watchRoom(cs[0], room);
      assert.equal(w0.ply, seen, 'the restored room is at the last ply a client saw: nothing accepted is missing');
      const fins = await Promise.all(cs.map((c) => autoplay(c, room, { since: 0 }).done));
      assert.equal(fins[0].status, 'finished');
      const archive = await srv.archive(room);
      assert.deepEqual(archive.client_seeds, ['before', 'the restart']);
      const file = path.join(dir, 'match.json');
      await writeFile(file, JSON.stringify(archive));
      assert.match(verify(file), /^verified: ur match/, 'the whole match replays through the rules core');
    } finally {
      await srv.stop();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('mutes and rematch offers survive SIGKILL: an open offer, an accepted one and mutes, in finished and playing rooms; (r3) welcome.mutes lists them',
  { timeout: 60000 }, async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'quinteto-after-'));
    let srv;
    try {
      srv = await Server.start({ dir });
      const a = await srv.player('Ana');
      const b = await srv.player('Ben');
      const tokens = [a.welcome.token, b.welcome.token];
      const pair = async () => {
        const id = (await createRoom(a, 'ur')).id;
        await joinRoom(a, id, { seat: 0 });
        await joinRoom(b, id, { seat: 1 });
        return id;
      };
      const end = async (id) => {
        assert.equal((await a.request({ type: 'resign', room: id })).type, 'resigned');
        await b.nextState(id, (m) => m.status === 'finished');
      };
      // room 1: Ana mutes the spectators and Ben mid-match; after the end she offers a rematch
      const r1 = await pair();
      assert.deepEqual((await a.request({ type: 'mute', room: r1, spectators: true, muted: true })).spectators, true);
      assert.deepEqual((await a.request({ type: 'mute', room: r1, seat: 1, muted: true })).seats, [1]);
      await end(r1);
      await a.send({ type: 'rematch', room: r1 });
      const offer = await b.nextState(r1, (m) => m.rematch?.status === 'offered');
      // room 2: offered by Ben, accepted by Ana: room 3 opens
      const r2 = await pair();
      await end(r2);
      await b.send({ type: 'rematch', room: r2 });
      await a.nextState(r2, (m) => m.rematch?.status === 'offered');
      await a.send({ type: 'rematch', room: r2 });
      const moved = await b.nextType('rematch', 5000, (m) => m.room === r2);
      const r3 = moved.new_room;
      await b.nextState(r2, (m) => m.rematch?.status === 'accepted');
      // room 3 plays on; Ben mutes Ana there
      assert.deepEqual((await b.request({ type: 'mute', room: r3, seat: 0, muted: true })).seats, [0]);
      // (r3) welcome.mutes: a reconnection with the token lists them, one entry a room with a mute; room 2
      // (no mute) and Ana's room 3 (Ben mutes there, not she) are left out
      const byRoom = (mutes) => [...mutes].sort((x, y) => (x.room < y.room ? -1 : 1));
      const aMutes = [{ room: r1, seats: [1], spectators: true }];
      const bMutes = [{ room: r3, seats: [0], spectators: false }];
      const again1 = await srv.connect({ label: 'Ana, a second tab' });
      assert.deepEqual((await again1.request({ type: 'hello', name: 'Ana', token: tokens[0] })).mutes, aMutes);
      const again2 = await srv.connect({ label: 'Ben, a second tab' });
      assert.deepEqual((await again2.request({ type: 'hello', name: 'Ben', token: tokens[1] })).mutes, bMutes);
      assert.deepEqual((await srv.player('Cy')).welcome.mutes, [], 'nobody muted: an empty list');
      srv.proc.kill('SIGKILL'); // every reply above was released once saved: all of it must come back
      await srv.exited;
      srv.stopped = true;

      srv = await Server.start({ dir });
      const w = await srv.player('Wes');
      const s1 = await watchRoom(w, r1);
      assert.equal(s1.status, 'finished', 'the finished room is back');
      assert.deepEqual(s1.rematch, offer.rematch, 'with its open offer as it was');
      const s2 = await watchRoom(w, r2);
      assert.deepEqual([s2.rematch.status, s2.rematch.room], ['accepted', r3], 'and the accepted one');
      assert.equal((await watchRoom(w, r3)).status, 'playing');
      const a2 = await srv.connect({ label: 'Ana again' });
      const b2 = await srv.connect({ label: 'Ben again' });
      const wa = await a2.request({ type: 'hello', name: 'Ana', token: tokens[0] });
      const wb = await b2.request({ type: 'hello', name: 'Ben', token: tokens[1] });
      assert.deepEqual([...wa.rooms].sort(), [r1, r2, r3].sort(), 'her seats, in the finished rooms too');
      assert.deepEqual([...wb.rooms].sort(), [r1, r2, r3].sort());
      assert.deepEqual(byRoom(wa.mutes), aMutes, 'welcome.mutes after the restart');
      assert.deepEqual(byRoom(wb.mutes), bMutes);
      // the mutes: unmuting one target answers with what remains muted
      const m1 = await a2.request({ type: 'mute', room: r1, seat: 1, muted: false });
      assert.deepEqual([m1.seats, m1.spectators], [[], true], 'Ana still muted the spectators of room 1');
      const m3 = await b2.request({ type: 'mute', room: r3, spectators: true, muted: false });
      assert.deepEqual([m3.seats, m3.spectators], [[0], false], 'Ben still mutes Ana in room 3');
      // the open offer goes on: Ben's acceptance opens the rematch of room 1
      await b2.send({ type: 'rematch', room: r1 });
      const again = await a2.nextType('rematch', 5000, (m) => m.room === r1);
      assert.equal((await a2.nextState(again.new_room, (m) => m.status === 'playing')).status, 'playing');
      await srv.stop();
      assert.equal(sql(dir, 'SELECT count(*) FROM live_after').trim(), '3', 'rooms 1, 2 and 3 have one');
      // a finished room whose time ran out while the server was away does not come back, nor does its row
      srv = await Server.start({ dir, args: ['--finished-room-ttl-s', '0'] });
      const w2 = await srv.player('Wes');
      assert.equal((await w2.request({ type: 'watch', room: r1 })).code, 'unknown_room');
      assert.equal((await watchRoom(w2, r3)).status, 'playing');
      await srv.stop();
      assert.equal(sql(dir, 'SELECT room_id FROM live_after').trim(), r3);
    } catch (e) {
      if (srv) e.message += `\nserver stderr (tail):\n${srv.stderr.slice(-4000)}`;
      throw e;
    } finally {
      if (srv?.alive) await srv.stop().catch(() => {});
      await rm(dir, { recursive: true, force: true });
    }
  });
