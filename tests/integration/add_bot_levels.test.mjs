// add_bot_levels.test.mjs: the bot levels of protocol revision 3 (PROTOCOL.md, `add_bot` and `state`),
// over real WebSockets against the real server:
// - `add_bot` with a level that is not one ("expert", 7, "") is `bad_message`, with or without a seat, and
//   the room is unchanged: no state is sent, the lobby shows every seat free, and a good add_bot after
//   them gets the first seat asked for;
// - every game (GET /api/games) offers "random", "greedy" and "strong" at every seat, Quinteto's arranger
//   included: three rooms a game, the levels rotated over the seats, so each (seat, level) is seated once;
// - `bot_added` names the level too ("random" when add_bot named none);
// - each add_bot's state names the level in that seat's `bot`, every other taken seat keeps its own
//   level and a free seat is `false`, until the match starts with every bot as it was added.
import { test } from 'node:test';
import { withServer, assert, createRoom, watchRoom } from './lib.mjs';

const LEVELS = ['random', 'greedy', 'strong'];
const RATE = ['--rate', '1000', '--burst', '1000']; // many requests from one connection, none of them the point

test('add_bot: a level that is not one is bad_message and changes nothing (r3)', { timeout: 30000 }, async () => {
  await withServer({ args: RATE }, async (srv) => {
    const a = await srv.player('Ana');
    for (const game of ['ur', 'quinteto']) {
      const room = await createRoom(a, game);
      const last = room.seats.length - 1;
      const before = await watchRoom(a, room.id);
      const mark = a.mark();
      for (const level of ['expert', 7, '', 'Random', 'strong ']) {
        for (const seat of [undefined, last]) {
          const msg = { type: 'add_bot', room: room.id, level };
          if (seat !== undefined) msg.seat = seat;
          const r = await a.request(msg);
          assert.equal(r.type, 'error', `${game} ${JSON.stringify(msg)}: ${JSON.stringify(r)}`);
          assert.equal(r.code, 'bad_message', `${game} ${JSON.stringify(msg)}: ${JSON.stringify(r)}`);
        }
      }
      assert.deepEqual(a.statesSince(mark, room.id), [], `${game}: no state after a refused add_bot`);
      const listed = (await a.request({ type: 'rooms' })).rooms.find((x) => x.id === room.id);
      assert.deepEqual(listed.seats.map((s) => [s.name, s.bot]), room.seats.map(() => [null, false]),
        `${game}: every seat still free`);
      // the room takes a good one at the very seat the bad ones asked for
      const ok = await a.request({ type: 'add_bot', room: room.id, seat: last, level: 'greedy' });
      assert.deepEqual([ok.type, ok.seat, ok.level], ['bot_added', last, 'greedy'], JSON.stringify(ok));
      const st = await a.nextState(room.id, (s) => s.seats[last].bot !== false);
      assert.equal(st.ply, before.ply);
      assert.equal(st.status, 'waiting');
      assert.deepEqual(st.seats.map((s) => s.bot), room.seats.map((_, i) => (i === last ? 'greedy' : false)));
      // no level: random, and the reply and the state say so
      const dflt = await a.request({ type: 'add_bot', room: room.id, seat: 0 });
      assert.deepEqual([dflt.type, dflt.seat, dflt.level], ['bot_added', 0, 'random'], JSON.stringify(dflt));
      const st2 = await a.nextState(room.id, (s) => s.seats[0].bot !== false);
      assert.deepEqual([st2.seats[0].bot, st2.seats[last].bot], ['random', 'greedy']);
    }
  });
});

test('every game offers random, greedy and strong at every seat, and state names each bot\'s level (r3)',
  { timeout: 60000 }, async () => {
    // 25 ms a strong move: the matches these bots start play on while the test looks at their first states
    await withServer({ args: [...RATE, '--bot-move-ms', '25'] }, async (srv) => {
      const a = await srv.player('Ana');
      const { games, levels } = await srv.getJson('/api/games');
      assert.deepEqual([...games].sort(), ['laquet', 'quinteto', 'super15', 'ur']);
      for (const game of games) assert.deepEqual([...levels[game]].sort(), [...LEVELS].sort(), `${game}'s levels`);
      let seated = 0;
      for (const game of games) {
        for (let k = 0; k < LEVELS.length; k++) {
          const room = await createRoom(a, game);
          await watchRoom(a, room.id);
          const want = room.seats.map(() => false);
          for (const { seat } of room.seats) {
            const level = LEVELS[(seat + k) % LEVELS.length];
            const r = await a.request({ type: 'add_bot', room: room.id, seat, level });
            assert.deepEqual([r.type, r.seat, r.level], ['bot_added', seat, level],
              `${game} seat ${seat} ${level}: ${JSON.stringify(r)}`);
            want[seat] = level;
            const st = await a.nextState(room.id, (s) => s.seats[seat].bot !== false, 10000);
            assert.deepEqual(st.seats.map((s) => s.bot), want, `${game} after seat ${seat} ${level}`);
            assert.equal(st.seats[seat].stand_in, false);
            seated++;
          }
        }
      }
      assert.equal(seated, 3 * (2 + 2 + 2 + 6), 'every (game, seat, level) once');
    });
  });
