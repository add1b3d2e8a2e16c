// rejoin.test.mjs: reconnecting with `since` (the states missed, in order, or the current one),
// spectator counts, chat's own rate limit and mutes, and rematches, against the real server.

import test from 'node:test';
import { assert, withServer, createRoom, joinRoom, watchRoom, sleep, until, autoplay } from './lib.mjs';
import { rng } from '../lib/util.mjs';

const RECENT = 16; // plies a playing room keeps (server/room.h ROOM_RECENT, PROTOCOL.md)
const GAMES = [['ur', {}], ['laquet', {}], ['super15', {}], ['quinteto', { max_turns: 10 }]];

// What every frame at one ply shares, whoever receives it and whenever (connections and spectator
// counts change between frames of one ply; the match does not).
const game = (st) => JSON.stringify([st.ply, st.status, st.to_act, st.view, st.last, st.result]);

// A spectator that keeps dropping and coming back with `watch.since`; resolves when the room is
// finished and it is connected, with its last state and what it saw.
async function dropper(srv, room, label, rnd, budget) {
  let c = await srv.player(label);
  await watchRoom(c, room);
  let last = c.messages.filter((m) => m.type === 'state').at(-1);
  const seen = new Map(); // ply -> game part
  const note = (m) => { if (m.type === 'state') { seen.set(m.ply, game(m)); last = m; } };
  c.messages.forEach(note);
  c.ws.on('message', () => note(c.messages.at(-1)));
  const stats = { reconnects: 0, incremental: 0, full: 0 };
  while (last.status !== 'finished' && budget.left > 0) {
    await sleep(rnd() * 80);
    if (last.status === 'finished' || budget.left <= 0) break;
    budget.left--;
    c.terminate();
    await c.closed;
    const since = last.ply;
    await sleep(rnd() < 0.1 ? 400 + rnd() * 600 : rnd() * 60); // now and then, longer than RECENT plies
    c = await srv.player(label);
    const mark = c.mark();
    const w = await c.request({ type: 'watch', room, since });
    assert.equal(w.type, 'watching');
    const first = await c.nextState(room);
    c.messages.slice(mark).forEach(note);
    c.ws.on('message', () => note(c.messages.at(-1)));
    stats.reconnects++;
    if (first.ply <= since + 1) stats.incremental++;
    else {
      stats.full++;
      assert.ok(first.ply - since - 1 >= RECENT || first.status === 'finished',
        `${label}: since ${since}, the room at ${first.ply}: the missed states should have come`);
    }
    for (const m of c.since(mark, (m) => m.type === 'state')) // the plies come in order
      assert.ok(m.ply >= since, `${label}: ply ${m.ply} after since ${since}`);
  }
  await until(() => last.status === 'finished', { timeoutMs: 60000, what: `${label}: the end of the match` });
  return { client: c, seen, stats, last: () => last };
}

test('1,000 reconnects at random plies: every spectator ends with the view of one that never dropped',
  { timeout: 240000 }, async () => {
    // every reconnect is a new identity from 127.0.0.1: past the default burst of new ones
    await withServer({ botDelayMs: 15, args: ['--new-players-burst', '5000'] }, async (srv) => {
      const rnd = rng();
      const budget = { left: 1000 };
      const totals = { reconnects: 0, incremental: 0, full: 0, matches: 0 };
      const t0 = Date.now();
      // each game plays match after match (bots only) while 5 spectators per room drop and return
      await Promise.all(GAMES.map(async ([g, opts]) => {
        while (budget.left > 0) {
          const ref = await srv.player(`Ref-${g}`);
          const room = await createRoom(ref, g, opts).then((r) => r.id);
          const refStates = [];
          ref.ws.on('message', () => { const m = ref.messages.at(-1); if (m.type === 'state') refStates.push(m); });
          await watchRoom(ref, room);
          const dropping = [];
          for (let i = 0; i < 5; i++) {
            const c = await srv.player(`D-${g}-${i}`);
            await watchRoom(c, room);
            c.close();
            dropping.push(c);
          }
          for (let s = 0; s < (g === 'quinteto' ? 6 : 2); s++)
            assert.equal((await ref.request({ type: 'add_bot', room, seat: s })).type, 'bot_added');
          const ds = await Promise.all([0, 1, 2, 3, 4].map((i) => dropper(srv, room, `D-${g}-${i}`, rnd, budget)));
          // everyone is back and the room quiet: the last frames must be identical
          await until(() => refStates.at(-1).spectators === 6, { what: 'every spectator back' });
          await sleep(200);
          const refLast = refStates.at(-1);
          const refByPly = new Map(refStates.map((m) => [m.ply, game(m)]));
          for (const d of ds) {
            assert.deepEqual(d.last(), refLast, `${g}: a dropping spectator ends with the same view`);
            for (const [ply, part] of d.seen)
              assert.equal(part, refByPly.get(ply), `${g}: the state of ply ${ply} as the reference saw it`);
            for (const k of Object.keys(totals)) if (k in d.stats) totals[k] += d.stats[k];
            d.client.close();
          }
          ref.close();
          totals.matches++;
        }
      }));
      assert.equal(totals.reconnects, 1000);
      assert.ok(totals.incremental > 500, `${totals.incremental} reconnects caught up with the missed states`);
      assert.ok(totals.full > 0, 'some reconnects were too late for the missed states and got the current one');
      console.log(`# ${JSON.stringify(totals)} in ${Date.now() - t0} ms`);
    });
  });

test('watch.since and hello.since: missed states in order; the current one alone when since is the ply or ahead',
  { timeout: 60000 }, async () => {
    await withServer({ botDelayMs: 5 }, async (srv) => {
      const a = await srv.player('Ana');
      const { id } = await createRoom(a, 'ur');
      const { state: s0 } = await joinRoom(a, id, { seat: 0 });
      assert.equal(s0.status, 'waiting');
      await a.request({ type: 'add_bot', room: id, seat: 1 });
      const ref = await srv.player('Ref');
      await watchRoom(ref, id);
      // Ana plays until ply 6, then stops at her turn
      const play = autoplay(a, id, { choose: (st) => (st.ply >= 6 ? null : st.legal[0]), since: 0 });
      const cur = await a.nextState(id, (m) => m.ply >= 6 && m.legal.length > 0, 20000);
      play.stop();
      await sleep(200);
      a.drain();
      const refLast = new Map();
      for (const m of ref.messages) if (m.type === 'state') refLast.set(m.ply, m);

      const w = await srv.player('Watcher');
      let mark = w.mark();
      assert.equal((await w.request({ type: 'watch', room: id, since: 2 })).type, 'watching');
      await w.nextState(id, (m) => m.ply === cur.ply);
      let got = w.statesSince(mark, id);
      assert.deepEqual(got.map((m) => m.ply), [...Array(cur.ply - 2).keys()].map((k) => k + 3),
        'one state per missed ply, in order, the current one last');
      for (const m of got.slice(0, -1)) {
        assert.deepEqual(m.legal, []);
        assert.equal(game(m), game(refLast.get(m.ply)));
      }
      // since = the current ply, or ahead of it: the current state only
      for (const since of [cur.ply, cur.ply + 50]) {
        const v = await srv.player(`V${since}`);
        mark = v.mark();
        assert.equal((await v.request({ type: 'watch', room: id, since })).type, 'watching');
        await v.nextState(id);
        await sleep(100);
        got = v.statesSince(mark, id);
        assert.deepEqual(got.map((m) => m.ply), [cur.ply]);
      }
      // an unknown room
      const e = await w.request({ type: 'watch', room: 'nosuchroom', since: 3 });
      assert.equal(e.code, 'unknown_room');
      const bad = await w.request({ type: 'watch', room: id, since: -1 });
      assert.equal(bad.code, 'bad_message');

      // hello.since: Ana comes back on a new connection having seen ply 1; gets 2..cur-1, then the current state with
      // her legal actions; a room of the map she holds no seat in is ignored
      a.terminate();
      await a.closed;
      const a2 = await srv.player('Ana', { token: a.welcome.token, since: { [id]: 1, nosuchroom: 4 } });
      const back = await a2.nextState(id, (m) => m.ply === cur.ply && m.legal.length > 0);
      const plies = a2.statesSince(0, id).map((m) => m.ply);
      assert.deepEqual(plies.slice(0, cur.ply - 2), [...Array(cur.ply - 2).keys()].map((k) => k + 2));
      assert.deepEqual(back.legal, cur.legal);
      const c = await srv.connect();
      const e2 = await c.request({ type: 'hello', name: 'X', since: { [id]: 'x' } });
      assert.equal(e2.code, 'bad_message');

      // nobody follows the room while Ana is away (her act, then the bot's plies): it still kept them for her
      ref.close();
      w.close();
      let cur2 = a2;
      let botPlayed = false;
      let turn = await cur2.nextState(id, (m) => m.legal.length > 0 || m.status === 'finished', 10000);
      for (let round = 0; round < 30 && !botPlayed; round++) { // act and drop until the bot has played meanwhile
        if (turn.status === 'finished') break;
        const gone = turn.ply;
        await cur2.send({ type: 'act', room: id, ply: gone, action: turn.legal[0] });
        cur2.terminate();
        await cur2.closed;
        await sleep(300); // the bot plays on (5 ms a move) until Ana's turn comes again
        cur2 = await srv.player('Ana', { token: a.welcome.token, since: { [id]: gone } });
        const now = await cur2.nextState(id, (m) => m.legal.length > 0 || m.status === 'finished', 10000);
        botPlayed = now.ply > gone + 1;
        turn = now;
        if (now.ply - gone - 1 < RECENT && now.status !== 'finished')
          assert.deepEqual(cur2.statesSince(0, id).map((m) => m.ply), [...Array(now.ply - gone).keys()].map((k) => k + gone + 1),
            'every ply since she left, in order, though nobody followed the room');
      }
      assert.ok(botPlayed, 'the bot played while Ana was away');
    });
  });

test('spectators are counted in state and in the lobby, up and down', { timeout: 30000 }, async () => {
  await withServer(async (srv) => {
    const a = await srv.player('Ana');
    const { id } = await createRoom(a, 'ur');
    await joinRoom(a, id, { seat: 0 });
    const count = async () => (await srv.getJson('/api/rooms')).rooms.find((r) => r.id === id).watchers;
    assert.equal(await count(), 0);
    const w1 = await srv.player('W1');
    assert.equal((await watchRoom(w1, id)).spectators, 1);
    await a.nextState(id, (m) => m.spectators === 1);
    const w2 = await srv.player('W2');
    assert.equal((await watchRoom(w2, id)).spectators, 2);
    await w1.nextState(id, (m) => m.spectators === 2);
    assert.equal(await count(), 2);
    const lobby = await srv.player('Lobby');
    await lobby.request({ type: 'rooms' });
    await w2.request({ type: 'leave', room: id });
    await w1.nextState(id, (m) => m.spectators === 1);
    await lobby.next((m) => m.type === 'rooms' && m.rooms.find((r) => r.id === id)?.watchers === 1, 3000);
    w1.terminate();
    await a.nextState(id, (m) => m.spectators === 0);
    assert.equal(await count(), 0);
  });
});

// The latest state of `room` a client has.
const latest = (c, room) => c.messages.filter((m) => m.type === 'state' && m.room === room).at(-1);

// Sends n watch/leave pairs on `room` from `f` without waiting, then waits for every reply.
async function flood(f, room, n) {
  const mark = f.mark();
  for (let i = 0; i < n; i++) {
    f.send({ type: 'watch', room });
    f.send({ type: 'leave', room });
  }
  await until(() => f.since(mark, (m) => m.type === 'left').length === n, { timeoutMs: 10000, what: 'the flood\'s replies' });
  assert.equal(f.since(mark, (m) => m.type === 'error').length, 0);
}

test('a flood of 200 watch/leave on one room: a few states to its players, their moves answered at once',
  { timeout: 30000 }, async () => {
    await withServer({ args: ['--rate', '100000', '--burst', '100000'] }, async (srv) => {
      const a = await srv.player('Ana');
      const b = await srv.player('Ben');
      const { id } = await createRoom(a, 'ur', { autoroll: true });
      await joinRoom(a, id, { seat: 0 });
      await joinRoom(b, id, { seat: 1 });
      await until(() => [a, b].some((c) => latest(c, id)?.legal.length > 0), { what: 'a seat to act' });
      const f = await srv.player('Flood');
      await sleep(300);
      // 100 watch + 100 leave: before, every one re-sent the state to every member (200 frames each)
      let mark = [a.mark(), b.mark()];
      // The count goes out at most every 250 ms (LOBBY_SPECTATORS_MS): a loaded machine that takes more than a
      // second over the flood rightly sends it more often than five times (not once a message, as before).
      const most = (since) => Math.max(5, 2 + Math.ceil((Date.now() - since) / 250));
      let floodAt = Date.now();
      await flood(f, id, 100);
      await until(() => latest(a, id).spectators === 0 && latest(b, id).spectators === 0, { what: 'the count back at 0' });
      let bound = most(floodAt);
      await sleep(400);
      const counts = [a, b].map((c, k) => c.statesSince(mark[k], id).length);
      assert.ok(counts.every((n) => n <= bound), `states to the players during the flood: ${counts} (at most ${bound})`);

      // a flood again while the seat to act plays: its move is answered at once, the count catches up
      await until(() => [a, b].some((c) => latest(c, id).legal.length > 0), { what: 'a seat to act' });
      const mover = [a, b].find((c) => latest(c, id).legal.length > 0);
      const st = latest(mover, id);
      mark = [a.mark(), b.mark()];
      floodAt = Date.now();
      const flooding = flood(f, id, 100);
      const t0 = Date.now();
      await mover.send({ type: 'act', room: id, ply: st.ply, action: st.legal[0] });
      await mover.nextState(id, (m) => m.ply > st.ply, 2000);
      const took = Date.now() - t0;
      await flooding;
      assert.ok(took < 1000, `the move was answered after ${took} ms`);
      await until(() => latest(a, id).spectators === 0 && latest(b, id).spectators === 0, { what: 'the count back at 0' });
      bound = most(floodAt);
      await sleep(400);
      // the move's own states aside (the move, the next roll), those that only had a new count
      const countOnly = (c, k) => c.statesSince(mark[k] - 1, id).filter((m, i, all) => i > 0 && game(m) === game(all[i - 1]));
      const counts2 = [a, b].map((c, k) => countOnly(c, k).length);
      assert.ok(counts2.every((n) => n <= bound), `states with only a new count during the second flood: ${counts2} (at most ${bound})`);
      console.log(`# states to the players: ${counts} (flood), ${counts2} (flood and a move answered in ${took} ms)`);
    });
  });

test('chat: its own rate limit; seated players mute a seat or the spectators, for themselves only',
  { timeout: 30000 }, async () => {
    await withServer(async (srv) => {
      const a = await srv.player('Ana');
      const b = await srv.player('Ben');
      const w = await srv.player('Wes');
      const { id } = await createRoom(a, 'ur');
      await joinRoom(a, id, { seat: 0 });
      await joinRoom(b, id, { seat: 1 });
      await watchRoom(w, id);
      const chats = (c, text) => c.messages.filter((m) => m.type === 'chat' && m.text === text).length;
      const say = async (c, text) => { await c.send({ type: 'chat', room: id, text }); };
      // 5 lines at once pass, the 6th is refused with its own code; the connection stays open
      for (let i = 0; i < 5; i++) await say(w, `w${i}`);
      const e = await w.request({ type: 'chat', room: id, text: 'w5' });
      assert.equal(e.code, 'chat_rate_limited');
      await a.nextType('chat', 3000, (m) => m.text === 'w4');
      assert.equal(chats(a, 'w5'), 0);
      assert.ok(w.isOpen);
      const rooms = await w.request({ type: 'rooms' }); // other messages are not limited by chat's bucket
      assert.equal(rooms.type, 'rooms');
      // mutes: Ana mutes the spectators and Ben; Ben mutes nobody
      let r = await a.request({ type: 'mute', room: id, spectators: true, muted: true });
      assert.deepEqual(r, { type: 'muted', id: r.id, room: id, seats: [], spectators: true });
      r = await a.request({ type: 'mute', room: id, seat: 1, muted: true });
      assert.deepEqual([r.seats, r.spectators], [[1], true]);
      assert.equal((await a.request({ type: 'mute', room: id, seat: 0, muted: true })).code, 'bad_message');
      assert.equal((await a.request({ type: 'mute', room: id, seat: 4, muted: true })).code, 'bad_message');
      assert.equal((await w.request({ type: 'mute', room: id, seat: 0, muted: true })).code, 'not_in_room');
      await sleep(2100); // Wes' bucket gets a line back
      await say(w, 'from-wes');
      await say(b, 'from-ben');
      await say(a, 'from-ana');
      await w.nextType('chat', 3000, (m) => m.text === 'from-ana');
      await b.nextType('chat', 3000, (m) => m.text === 'from-ana');
      await a.nextType('chat', 3000, (m) => m.text === 'from-ana');
      await b.nextType('chat', 3000, (m) => m.text === 'from-wes');
      await w.nextType('chat', 3000, (m) => m.text === 'from-ben');
      await sleep(200);
      assert.equal(chats(a, 'from-wes'), 0, 'muted spectators');
      assert.equal(chats(a, 'from-ben'), 0, 'muted seat');
      assert.equal(chats(b, 'from-ben'), 1, 'the sender sees its own line');
      // unmute Ben
      r = await a.request({ type: 'mute', room: id, seat: 1, muted: false });
      assert.deepEqual([r.seats, r.spectators], [[], true]);
      await say(b, 'again');
      await a.nextType('chat', 3000, (m) => m.text === 'again');
    });
  });

// Plays a two-player room to its end (Ana resigns); returns the final state as Ben sees it.
async function finished(a, b, id) {
  const r = await a.request({ type: 'resign', room: id });
  assert.equal(r.type, 'resigned');
  return b.nextState(id, (m) => m.status === 'finished');
}

test('rematch: accepted by both (same seats, a new room, a new commit), declined, with a bot, expired',
  { timeout: 60000 }, async () => {
    await withServer({ args: ['--rematch-timeout', '1'] }, async (srv) => {
      const a = await srv.player('Ana');
      const b = await srv.player('Ben');
      const w = await srv.player('Wes');
      const { id } = await createRoom(a, 'ur', { autoroll: true });
      await joinRoom(a, id, { seat: 1 });
      await joinRoom(b, id, { seat: 0 });
      await watchRoom(w, id);
      // not before the end
      assert.equal((await a.request({ type: 'rematch', room: id })).code, 'rematch_unavailable');
      const end = await finished(a, b, id);
      assert.equal(end.rematch, null);
      assert.equal((await w.request({ type: 'rematch', room: id })).code, 'not_in_room');
      assert.equal((await a.request({ type: 'rematch', room: id, accept: false })).code, 'rematch_unavailable',
        'nothing to decline');
      // Ana offers, Ben declines
      await a.send({ type: 'rematch', room: id });
      let st = await b.nextState(id, (m) => m.rematch?.status === 'offered');
      assert.deepEqual([st.rematch.by, st.rematch.accepted, st.rematch.room], [1, [1], null]);
      assert.ok(st.rematch.expires_at > Date.now());
      await b.send({ type: 'rematch', room: id, accept: false });
      st = await a.nextState(id, (m) => m.rematch?.status === 'declined');
      assert.deepEqual(st.rematch.accepted, []);
      // offered again and left to lapse (1 s here)
      await b.send({ type: 'rematch', room: id });
      await a.nextState(id, (m) => m.rematch?.status === 'offered' && m.rematch.by === 0);
      await a.nextState(id, (m) => m.rematch?.status === 'expired', 4000);
      // offered and accepted by both
      await a.send({ type: 'rematch', room: id });
      await b.nextState(id, (m) => m.rematch?.status === 'offered' && m.rematch.by === 1);
      await b.send({ type: 'rematch', room: id, accept: true });
      const ra = await a.nextType('rematch');
      const rb = await b.nextType('rematch');
      assert.equal(ra.new_room, rb.new_room);
      assert.notEqual(ra.new_room, id);
      assert.deepEqual([ra.seat, ra.role, rb.seat, rb.role], [1, 'dark', 0, 'light']);
      const ns = await a.nextState(ra.new_room, (m) => m.status === 'playing');
      assert.deepEqual(ns.seats.map((s) => s.name), ['Ben', 'Ana']);
      assert.deepEqual(ns.options, end.options);
      assert.notEqual(ns.commit, end.commit, 'new seeds');
      await b.nextState(ra.new_room);
      st = await w.nextState(id, (m) => m.rematch?.status === 'accepted');
      assert.equal(st.rematch.room, ra.new_room);
      assert.equal(w.messages.filter((m) => m.type === 'rematch').length, 0, 'a spectator is not moved');
      assert.equal((await a.request({ type: 'rematch', room: id })).code, 'rematch_unavailable', 'once');
      // with a bot: one human accepting is enough
      const { id: id2 } = await createRoom(a, 'laquet');
      await joinRoom(a, id2, { seat: 0 });
      await a.request({ type: 'add_bot', room: id2, seat: 1, level: 'random' });
      await a.nextState(id2, (m) => m.status === 'playing');
      await a.request({ type: 'resign', room: id2 });
      await a.nextState(id2, (m) => m.status === 'finished');
      await a.send({ type: 'rematch', room: id2 });
      const rr = await a.nextType('rematch', 5000, (m) => m.room === id2);
      const s2 = await a.nextState(rr.new_room, (m) => m.status === 'playing');
      assert.deepEqual(s2.seats.map((s) => [s.name, s.bot]), [['Ana', false], ['Random bot 2', 'random']]); // (r3) the rematch's bot keeps its level
    });
  });

test('rematch past the room cap: too_many_rooms to whoever completes it, no room, the offer as it was',
  { timeout: 30000 }, async () => {
    await withServer({ args: ['--max-rooms', '2'] }, async (srv) => {
      // one address holds one of the two rooms at most (--max-live-rooms-per-addr): Ben is elsewhere
      const a = await srv.player('Ana');
      srv.wsOptions = { localAddress: '127.0.0.2' };
      const b = await srv.player('Ben');
      srv.wsOptions = undefined;
      const { id } = await createRoom(b, 'ur', { autoroll: true });
      await joinRoom(a, id, { seat: 1 });
      await joinRoom(b, id, { seat: 0 });
      await finished(a, b, id);
      const { id: id2 } = await createRoom(a, 'laquet');
      await joinRoom(a, id2, { seat: 0 });
      await a.request({ type: 'add_bot', room: id2, seat: 1, level: 'random' });
      await a.nextState(id2, (m) => m.status === 'finished' || m.status === 'playing');
      await a.request({ type: 'resign', room: id2 });
      await a.nextState(id2, (m) => m.status === 'finished');
      assert.equal((await srv.getJson('/api/rooms')).total, 2);
      // two humans: Ana offers, Ben's acceptance would open a third room
      await a.send({ type: 'rematch', room: id });
      await b.nextState(id, (m) => m.rematch?.status === 'offered');
      await a.nextState(id, (m) => m.rematch?.status === 'offered');
      const markA = a.mark();
      const e = await b.request({ type: 'rematch', room: id });
      assert.equal(e.code, 'too_many_rooms');
      // with a bot: Ana's offer completes at once, and is refused as a whole
      const e2 = await a.request({ type: 'rematch', room: id2 });
      assert.equal(e2.code, 'too_many_rooms');
      await sleep(300);
      assert.equal(a.since(markA, (m) => m.type === 'rematch').length, 0, 'nobody is moved');
      assert.equal(a.statesSince(markA).length, 0, 'nothing changed that anyone sees');
      assert.equal((await srv.getJson('/api/rooms')).total, 2, 'no room was made');
      // the offer is as it was: Ana's acceptance only, still open; the bot room has none
      const w = await srv.player('Wes');
      assert.deepEqual((await watchRoom(w, id)).rematch.accepted, [1]);
      assert.equal((await watchRoom(w, id2)).rematch, null);
      await b.send({ type: 'rematch', room: id, accept: false });
      const st = await a.nextState(id, (m) => m.rematch?.status === 'declined');
      assert.deepEqual(st.rematch.accepted, []);
      // no seat in a room that never was, after a reconnect either
      const a2 = await srv.player('Ana', { token: a.welcome.token });
      assert.deepEqual([...a2.welcome.rooms].sort(), [id, id2].sort());
      const b2 = await srv.player('Ben', { token: b.welcome.token });
      assert.deepEqual(b2.welcome.rooms, [id]);
    });
  });
