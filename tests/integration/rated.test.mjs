// rated.test.mjs: rated rooms (PROTOCOL.md "Accounts and ratings", Rated rooms) against the real server
// and a real SQLite file: who may play one, the ratings applied in the archive's transaction (the
// figures compared with what rating_apply() gives, computed by tests/integration/rating_expect.c from
// the archived match: the same C), the `account` push, the seats' handle/rating in `state` and in the
// lobby, a SIGKILL in the middle of a rated match (still rated after the restart, rated once), the HTTP
// answers (the account's page, the leaderboard, the redirects), a casual match of two accounts that
// changes nothing, and `quinteto ratings rebuild --check` agreeing with what the server wrote.

import test from 'node:test';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { assert, Server, createRoom, joinRoom, pick, until } from './lib.mjs';

const EXPECT = process.env.QUINTETO_TEST_RATING_EXPECT;
const PASSWORD = 'correct horse battery';

// What rating_apply() makes of archived match `archive` from `before` (per seat: [rating, rd, vol,
// matches, last_at] or null for a first rated match): {place, after}.
function expected(archive, before) {
  const out = execFileSync(EXPECT, [JSON.stringify(before)], { input: JSON.stringify(archive) });
  return JSON.parse(out.toString());
}

// A player that claimed its identity as account `handle`.
async function account(srv, handle, name = handle) {
  const c = await srv.player(name);
  const a = await c.request({ type: 'claim', handle, password: PASSWORD });
  assert.equal(a.type, 'account', `claim ${handle}: ${JSON.stringify(a)}`);
  c.handle = handle;
  return c;
}

const lastState = (c, room) => c.messages.findLast((m) => m.type === 'state' && m.room === room);

// Plays `moves` actions in a two-seat room (whoever is to act, a legal action at random), then seat
// `resigner` resigns; resolves with the finished state.
async function playThenResign(room, seats, moves, resigner) {
  for (let k = 0; k < moves; k++) {
    const st = lastState(seats[0], room);
    assert.equal(st.status, 'playing', 'the match is still on before the resignation');
    const c = seats[st.to_act[0]];
    const mine = await until(() => { const m = lastState(c, room); return m.ply === st.ply && m.legal.length ? m : null; },
      { what: `seat ${st.to_act[0]}'s legal actions at ply ${st.ply}` });
    await c.send({ type: 'act', room, ply: mine.ply, action: pick(mine.legal) }); // answered by the next state
    await until(() => lastState(seats[0], room).ply > st.ply, { what: 'the next ply' });
  }
  assert.equal((await seats[resigner].request({ type: 'resign', room })).type, 'resigned');
  return until(() => { const m = lastState(seats[0], room); return m.status === 'finished' ? m : null; },
    { what: 'the end of the match' });
}

// The `account` pushed (without id) to c after mark that shows `matches` rated matches of `game`.
function pushed(c, mark, game, matches) {
  return until(() => c.since(mark, (m) => m.type === 'account' && m.id === undefined &&
    m.ratings?.[game]?.matches === matches).at(-1), { timeoutMs: 5000, what: `${c.label}: the account push` });
}

// Checks the figures a player is shown against rating_apply()'s (rounded as the protocol rounds them).
function sameFigures(shown, want, what) {
  assert.equal(shown.rating, Math.round(want[0]), `${what}: rating`);
  assert.equal(shown.rd, Math.round(want[1]), `${what}: rd`);
  assert.equal(shown.provisional, want[1] > 110, `${what}: provisional`);
  assert.equal(shown.matches, want[3], `${what}: matches`);
}

test('rated rooms: accounts only, ratings applied once in the archive\'s transaction, shown everywhere',
  { timeout: 120000 }, async () => {
    assert.ok(EXPECT, 'QUINTETO_TEST_RATING_EXPECT names tests/integration/rating_expect');
    const dir = await mkdtemp(path.join(tmpdir(), 'quinteto-rated-'));
    let srv = await Server.start({ dir });
    try {
      const ana = await account(srv, 'Ana_R', 'Ana');
      const bob = await account(srv, 'b0b', 'Bob');
      const guest = await srv.player('Gus');

      // --- who may play
      let r = await guest.request({ type: 'create', game: 'ur', rated: true });
      assert.equal(r.code, 'account_required', 'a guest creates no rated room');
      const created = await ana.request({ type: 'create', game: 'ur', rated: true });
      assert.equal(created.type, 'created');
      assert.equal(created.room.rated, true, 'the summary says rated');
      const room = created.room.id;
      r = await guest.request({ type: 'join', room });
      assert.equal(r.code, 'account_required', 'a guest joins no rated room');
      r = await ana.request({ type: 'add_bot', room, seat: 1 });
      assert.equal(r.code, 'rated_room', 'no bot in a rated room');
      const casualRoom = (await createRoom(guest, 'ur')).id; // casual: frames as before
      const casual = (await guest.request({ type: 'watch', room: casualRoom }), await guest.nextState(casualRoom));
      assert.equal('rated' in casual, false, 'a casual room says nothing of ratings');

      await joinRoom(ana, room, { seat: 0 });
      await joinRoom(bob, room, { seat: 1 });
      const first = await ana.nextState(room, (s) => s.status === 'playing', 10000);
      assert.equal(first.rated, true);
      for (const [i, h] of [[0, 'Ana_R'], [1, 'b0b']]) {
        assert.equal(first.seats[i].handle, h);
        assert.equal(first.seats[i].rating, 1500);
        assert.equal(first.seats[i].provisional, true);
      }
      const lobby = await srv.getJson('/api/rooms');
      const listed = lobby.rooms.find((x) => x.id === room);
      assert.equal(listed.rated, true, 'the lobby lists it rated');
      assert.deepEqual(listed.seats.map((s) => [s.handle, s.rating, s.provisional]),
        [['Ana_R', 1500, true], ['b0b', 1500, true]], 'the lobby shows the seats\' ratings');

      // --- a rated ur match, to a resignation after a few moves
      const markA = ana.mark(), markB = bob.mark();
      const end = await playThenResign(room, [ana, bob], 4, 1);
      assert.equal(end.result.winner, 0);
      const arch = await srv.archive(room);
      assert.equal(arch.rated, true, 'the archive says rated');
      const urWant = expected(arch, [null, null]);
      assert.deepEqual(urWant.place, [0, 1]);
      const pa = await pushed(ana, markA, 'ur', 1), pb = await pushed(bob, markB, 'ur', 1);
      sameFigures(pa.ratings.ur, urWant.after[0], 'Ana\'s push');
      sameFigures(pb.ratings.ur, urWant.after[1], 'Bob\'s push');
      assert.ok(urWant.after[0][0] > 1500 && urWant.after[1][0] < 1500, 'the winner gains, the loser loses');

      // --- the account's page: by key (case, 0/o), the figures, its history and recent matches
      for (const asked of ['ana_r', 'ANA_R', 'Aná_r', 'b0b', 'BOB']) {
        const p = await srv.getJson(`/api/players/${encodeURIComponent(asked)}`);
        assert.equal(p.account, true, `${asked} finds an account`);
      }
      const pageA = await srv.getJson('/api/players/ana_r');
      assert.equal(pageA.handle, 'Ana_R');
      assert.equal(pageA.name, 'Ana');
      sameFigures(pageA.ratings.ur, urWant.after[0], 'Ana\'s page');
      assert.equal(pageA.ratings.ur.vol, urWant.after[0][2], 'vol as stored, exactly');
      assert.deepEqual(pageA.ratings.ur.history.map((h) => [h.match, h.rating]), [[room, Math.round(urWant.after[0][0])]]);
      assert.deepEqual(pageA.recent.map((x) => [x.id, x.result, x.rated]), [[room, 'won', true]]);
      assert.equal(pageA.matches, 1);

      // --- a rated Quinteto match of six accounts, ended by resignations: hunters 0..4 resign in turn,
      //     so the arranger wins and the places are all different (docs/RATINGS.md)
      const six = [ana, bob];
      for (const h of ['Cai', 'Dee', 'Eli', 'Fay']) six.push(await account(srv, h));
      const q = (await six[5].request({ type: 'create', game: 'quinteto', rated: true })).room.id;
      for (let s = 0; s < 6; s++) await joinRoom(six[s], q, { seat: s });
      await six[0].nextState(q, (s) => s.status === 'playing', 10000);
      const marks = six.map((c) => c.mark());
      for (let s = 0; s < 5; s++)
        assert.equal((await six[s].request({ type: 'resign', room: q })).type, 'resigned', `hunter ${s} resigns`);
      const qEnd = await six[5].nextState(q, (s) => s.status === 'finished', 10000);
      assert.equal(qEnd.result.winner, 5, 'the arranger wins when every hunter is out');
      const qArch = await srv.archive(q);
      assert.equal(qArch.rated, true);
      const qWant = expected(qArch, six.map(() => null));
      assert.equal(new Set(qWant.place).size, 6, `six places: ${qWant.place}`);
      for (let s = 0; s < 6; s++) {
        const p = await pushed(six[s], marks[s], 'quinteto', 1);
        sameFigures(p.ratings.quinteto, qWant.after[s], `seat ${s}'s quinteto push`);
      }

      // --- SIGKILL in the middle of a rated match: still rated after the restart, finishes, rated once
      const k = (await ana.request({ type: 'create', game: 'ur', rated: true })).room.id;
      await joinRoom(ana, k, { seat: 0 });
      await joinRoom(bob, k, { seat: 1 });
      let kst = await until(() => lastState(ana, k)?.status === 'playing' && lastState(ana, k), { what: 'the start' });
      const toAct = [ana, bob][kst.to_act[0]];
      const mine = await until(() => { const m = lastState(toAct, k); return m.ply === kst.ply && m.legal.length ? m : null; },
        { what: 'the legal actions' });
      await toAct.send({ type: 'act', room: k, ply: mine.ply, action: pick(mine.legal) });
      await until(() => lastState(ana, k).ply > kst.ply, { what: 'the act shown' }); // committed before shown
      const port = srv.port;
      srv.proc.kill('SIGKILL');
      await srv.exited;
      srv = await Server.start({ dir, port });
      for (const c of [ana, bob, guest]) await c.reopen(null);
      kst = await (await ana.request({ type: 'watch', room: k }), ana.nextState(k));
      assert.equal(kst.rated, true, 'still rated after the restart');
      assert.equal(kst.status, 'playing');
      const kMark = ana.mark();
      assert.equal((await bob.request({ type: 'resign', room: k })).type, 'resigned');
      await ana.nextState(k, (s) => s.status === 'finished', 10000);
      const kArch = await srv.archive(k);
      const kWant = expected(kArch, [urWant.after[0], urWant.after[1]]);
      const pk = await pushed(ana, kMark, 'ur', 2);
      sameFigures(pk.ratings.ur, kWant.after[0], 'Ana after the restart');
      const pageA2 = await srv.getJson('/api/players/Ana_R');
      assert.equal(pageA2.ratings.ur.matches, 2, 'rated once');
      assert.deepEqual(pageA2.ratings.ur.history.map((h) => h.match), [room, k], 'history oldest first, once each');
      assert.equal(pageA2.ratings.ur.vol, kWant.after[0][2]);

      // --- a casual match of two accounts changes no rating
      const c2 = (await createRoom(ana, 'ur')).id;
      await joinRoom(ana, c2, { seat: 0 });
      await joinRoom(bob, c2, { seat: 1 });
      await ana.nextState(c2, (s) => s.status === 'playing', 10000);
      assert.equal((await ana.request({ type: 'resign', room: c2 })).type, 'resigned');
      const c2Arch = await srv.archive(c2);
      assert.equal('rated' in c2Arch, false, 'a casual archive is as before');
      const pageA3 = await srv.getJson('/api/players/Ana_R');
      assert.deepEqual(pageA3.ratings, pageA2.ratings, 'no rating changed');
      assert.equal(pageA3.matches, 3 + 0 + 1, 'but the match counts in the record (ur twice rated, quinteto, casual)');

      // --- a guest's name still gets the name record
      const gb = (await createRoom(guest, 'ur')).id;
      await joinRoom(guest, gb, { seat: 0 });
      assert.equal((await guest.request({ type: 'add_bot', room: gb, seat: 1 })).type, 'bot_added');
      await guest.nextState(gb, (s) => s.status === 'playing', 10000);
      await guest.request({ type: 'resign', room: gb });
      await srv.archive(gb);
      const gp = await srv.getJson('/api/players/Gus');
      assert.equal(gp.account, undefined);
      assert.equal(gp.name, 'Gus');

      // --- the leaderboard: order, limit, bad input
      const board = await srv.getJson('/api/leaderboard?game=ur');
      assert.deepEqual(board.players.map((p) => p.handle), ['Ana_R', 'b0b']);
      assert.deepEqual(board.players.map((p) => p.rank), [1, 2]);
      assert.equal(board.players[0].rating, Math.round(kWant.after[0][0]));
      const qb = await srv.getJson('/api/leaderboard?game=quinteto&limit=3');
      assert.equal(qb.players.length, 3);
      const prov = (s) => (qWant.after[s][1] > 110 ? 1 : 0); // the provisional after the others
      const byRating = [...qWant.after.keys()].sort((x, y) => prov(x) - prov(y) || qWant.after[y][0] - qWant.after[x][0]);
      assert.deepEqual(qb.players.map((p) => p.handle), byRating.slice(0, 3).map((s) => six[s].handle));
      for (const bad of ['?game=chess', '', '?game=ur&limit=0', '?game=ur&limit=201', '?game=ur&limit=01', '?game=ur&game=ur'])
        assert.equal((await srv.http(`/api/leaderboard${bad}`)).status, 400, `leaderboard${bad}`);

      // --- the redirects to the web client's pages
      let red = await srv.http('/players/Ana_R');
      assert.equal(red.status, 302);
      assert.equal(red.headers.get('location'), '/#/players/Ana_R');
      red = await srv.http('/leaderboard?game=quinteto');
      assert.equal(red.status, 302);
      assert.equal(red.headers.get('location'), '/#/leaderboard?game=quinteto');

      // --- a finished rated room's rematch offer survives a restart (live_after.rated) and its rematch is rated
      await ana.send({ type: 'rematch', room: k });
      await until(() => lastState(bob, k)?.rematch?.status === 'offered', { what: 'the offer' });
      await srv.stop();
      srv.assertValid();
      srv = await Server.start({ dir, port });
      for (const c of [ana, bob]) await c.reopen(null);
      await bob.request({ type: 'watch', room: k });
      const back = await until(() => { const m = lastState(bob, k); return m?.rematch?.status === 'offered' && m; },
        { what: 'the offer, after the restart' });
      assert.equal(back.rated, true, 'the finished room restored from the archive is still rated');
      const markR = ana.mark();
      await bob.send({ type: 'rematch', room: k });
      const re = await ana.nextType('rematch', 5000, (m) => m.room === k);
      await until(() => ana.since(markR, (m) => m.type === 'state' && m.room === re.new_room).length, { what: 'the rematch\'s state' });
      assert.equal(lastState(ana, re.new_room).rated, true, 'a rematch of a rated room is rated');
      await srv.stop();
      srv.assertValid();

      // --- the archive is the one truth: a rebuild from it gives the very numbers the server wrote
      const cli = process.env.QUINTETO_CLI;
      const rebuild = spawnSync(cli, ['ratings', 'rebuild', '--check', '--db', path.join(dir, 'q.db')]);
      assert.equal(rebuild.status, 0, `quinteto ratings rebuild --check: ${rebuild.stdout}${rebuild.stderr}`);
    } finally {
      if (!srv.stopped) await srv.stop().catch(() => {});
      await rm(dir, { recursive: true, force: true });
    }
  });
