// added_game.test.mjs: docs/ADDING-A-GAME.md walked by a throwaway game. Nim (tests/games/nim/: its
// rules, codec and bots, nothing else) is registered at start-up by its own main, which links the
// server library as the build made it: no file of server/, the web shell or the lobby knows it.
// Over real WebSockets two players play it to the end, a player plays it against the game's own
// bot level, the archive is fetched and replayed by the server (GET .../replay re-derives every
// step through the rules), and the archive verifier checks it (`nim-server verify`, the verifier
// `quinteto verify` runs), a tampered copy failing.
//
// Schemas: the protocol's schemas list the games they know (protocol/schema/), so a frame or answer
// naming "nim" whose only failure is that `game` is not one of them is let through; every other
// failure fails the test as always.

import test from 'node:test';
import { execFile } from 'node:child_process';
import { mkdtemp, writeFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { assert, withServer, createRoom, joinRoom, autoplay } from './lib.mjs';

assert.ok(process.env.QUINTETO_TEST_NIM_SERVER, 'QUINTETO_TEST_NIM_SERVER must name tests/games/nim\'s server');
process.env.QUINTETO_SERVER = process.env.QUINTETO_TEST_NIM_SERVER; // Server.start() runs this binary

const verify = (file) => new Promise((resolve) => {
  execFile(process.env.QUINTETO_TEST_NIM_SERVER, ['verify', file], { timeout: 20000 }, (err, stdout, stderr) =>
    resolve({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, out: stdout + stderr }));
});

// Runs fn(srv) on a Nim server; "nim" not being among the schemas' games is dropped at the end.
function withNimServer(fn) {
  return withServer(async (srv) => {
    try {
      await fn(srv);
    } finally {
      const onlyGame = (b) => b.text.includes('"nim"') && b.error.replace(/^[^:]*: /, '').split('; ')
        .every((e) => /^data(\/room)?\/game must be equal to one of the allowed values$/.test(e));
      srv.invalid = srv.invalid.filter((b) => !onlyGame(b));
    }
  });
}

// Checks a finished Nim match's states as one seat saw them: the heap only shrinks, by 1..3.
function checkStates(states) {
  let heap = 11;
  for (const st of states) {
    assert.equal(st.game, 'nim');
    assert.ok(st.view.heap <= heap && heap - st.view.heap <= 3, `heap ${heap} -> ${st.view.heap}`);
    heap = st.view.heap;
  }
  return heap;
}

test('an added game is played, archived, replayed and verified without touching the server', { timeout: 60000 }, async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'quinteto-nim-'));
  try {
    await withNimServer(async (srv) => {
      const a = await srv.player('Ana');
      const b = await srv.player('Bruno');
      const { id } = await createRoom(a, 'nim');
      const states = [];
      const playA = autoplay(a, id, { onState: (st) => states.push(st) });
      const playB = autoplay(b, id);
      await joinRoom(a, id, { seat: 0 });
      await joinRoom(b, id, { seat: 1 });
      const final = await playA.done;
      await playB.done;
      assert.equal(final.status, 'finished');
      assert.equal(checkStates(states), 0, 'the match ends with the heap empty');
      assert.equal(final.result.reason, 'last_stone');
      assert.equal(final.last.seat, final.result.winner, 'who took the last stone wins');
      assert.deepEqual([...playA.errors, ...playB.errors], []);

      // The archive, as the API serves it, and the server's own replay of it.
      const arch = await srv.archive(id);
      assert.equal(arch.game, 'nim');
      assert.equal(arch.actions.length, final.ply);
      assert.deepEqual(arch.result, final.result);
      const replay = await srv.replay(id);
      assert.equal(replay.steps.length, final.ply + 1, 'a step per action, and the start');
      assert.equal(replay.steps.at(-1).view.heap, 0);

      // The archive verifier, as `quinteto verify` runs it.
      const good = path.join(dir, 'nim.json');
      await writeFile(good, JSON.stringify(arch));
      const ok = await verify(good);
      assert.equal(ok.code, 0, ok.out);
      assert.match(ok.out, /verified/);
      const bad = structuredClone(arch);
      bad.actions[0].outcome.left += 1;
      const badFile = path.join(dir, 'tampered.json');
      await writeFile(badFile, JSON.stringify(bad));
      const r = await verify(badFile);
      assert.equal(r.code, 1, `a tampered outcome: ${r.out}`);
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('an added game brings its own bot level', { timeout: 60000 }, async () => {
  await withNimServer(async (srv) => {
    const a = await srv.player('Vera');
    const { id } = await createRoom(a, 'nim');
    const play = autoplay(a, id, { choose: () => ({ take: 1 }) }); // always takes one stone
    await joinRoom(a, id, { seat: 0 });
    const added = await a.request({ type: 'add_bot', room: id, level: 'perfect' });
    assert.equal(added.type, 'bot_added', JSON.stringify(added));
    const unknown = await a.request({ type: 'add_bot', room: id, level: 'greedy' });
    assert.equal(unknown.type, 'error');
    const final = await play.done;
    // 11 stones, one at a time against a seat that leaves a multiple of four: the bot wins.
    assert.equal(final.result.winner, 1);
    assert.equal(final.result.reason, 'last_stone');
  });
});
