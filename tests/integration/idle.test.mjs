// Matches a player can stall or grief (issue 19, point 4; protocol.md, Clocks and absent players):
// in a room without a clock a seated player who stays connected and never acts gets a stand-in after
// the idle limit (the server's idle_limit_ms, shown in state.options.idle_after_ms) and the match goes
// on to its end; acting takes the seat back; a new room's stand_in_after_ms has a minimum (5000 ms);
// a player whose seat a stand-in plays gets it back the moment it reconnects: no stand-in move after
// its `welcome`. Short limits and generous waits: the machine is shared.
import test from 'node:test';
import { execFileSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { assert, autoplay, createRoom, joinRoom, seatedPair as pair, sleep, watchRoom, withServer } from './lib.mjs';

test('a new room\'s stand_in_after_ms is 0 (never) or at least 5000 ms; idle_after_ms stays within the server\'s limit', { timeout: 60000 }, async () => {
  await withServer({}, async (srv) => {
    const a = await srv.player('Ana');
    for (const options of [{ stand_in_after_ms: 1 }, { stand_in_after_ms: 4999 }, { idle_after_ms: 0 }, { idle_after_ms: 4999 },
      { idle_after_ms: 300001 }, { idle_after_ms: 60000, clock: { per_action_ms: 60000 } }, { idle_after_ms: '5m' }]) {
      const r = await a.request({ type: 'create', game: 'ur', options });
      assert.equal(r.type, 'error', `${JSON.stringify(options)} is refused`);
      assert.equal(r.code, 'bad_options');
      assert.match(r.message, /options\.(stand_in_after_ms|idle_after_ms)/, 'the message names the option');
    }
    const r = await a.request({ type: 'create', game: 'ur', options: { stand_in_after_ms: 1 } });
    assert.match(r.message, /at least 5000/, 'and says the minimum');
    assert.deepEqual((await a.request({ type: 'rooms' })).rooms, [], 'nothing was created');
    const ok = await createRoom(a, 'ur', { stand_in_after_ms: 5000, idle_after_ms: 60000 });
    assert.deepEqual(ok.options, { stand_in_after_ms: 5000, idle_after_ms: 60000 });
    const st = await watchRoom(a, ok.id);
    assert.equal(st.options.idle_after_ms, 60000, 'the room\'s own idle limit');
    const never = await createRoom(a, 'ur', { stand_in_after_ms: 0 });
    assert.equal((await watchRoom(a, never.id)).options.idle_after_ms, 300000, 'the server\'s idle limit, filled in');
  });
});

test('a connected seat that never acts gets a stand-in after the idle limit; the match goes on to its end', { timeout: 120000 }, async () => {
  await withServer({ args: ['--idle-limit-ms', '1000'] }, async (srv) => {
    const { a, b, room, st } = await pair(srv, 'ur', {});
    assert.equal(st.options.idle_after_ms, 1000, 'state.options says the idle limit that applies');
    assert.equal(st.options.clock, null);
    const bruno = autoplay(b, room, { since: 0 });
    // Ana stays connected and never acts.
    const held = await a.nextState(room, (s) => s.seats[0].stand_in === true, 20000);
    assert.equal(held.seats[0].connected, true, 'connected, yet idle: a stand-in plays for the seat');
    assert.equal(held.seats[1].stand_in, false, 'Bruno acts: no stand-in for him');
    const fin = await bruno.done;
    assert.equal(fin.status, 'finished', 'the match is not stalled');
    const archive = await srv.archive(room, { timeoutMs: 15000 });
    const ana = archive.actions.filter((x) => x.seat === 0);
    assert.ok(ana.length > 0 && ana.every((x) => x.stand_in), 'every one of Ana\'s actions is marked as the stand-in\'s');
    assert.ok(!archive.actions.some((x) => x.seat === 1 && x.stand_in), 'Bruno played for himself');
    assert.equal((await srv.getJson('/api/players/Ana')).abandoned, 1, 'left to the stand-in to the end: abandoned');
  });
});

test('the idle player acting again takes the seat back; the idle time starts again (the room\'s own idle_after_ms)', { timeout: 120000 }, async () => {
  // The stand-in waits 3 s before each action, so the player's `act` comes first. The room lowers the
  // server's idle limit to 800 ms (under the 5 s minimum: the test-only --stand-in-min-ms).
  await withServer({ args: ['--stand-in-min-ms', '0'], botDelayMs: 3000 }, async (srv) => {
    const { a, b, room, st } = await pair(srv, 'ur', { idle_after_ms: 800 });
    assert.equal(st.options.idle_after_ms, 800);
    const bruno = autoplay(b, room, { since: 0 });
    // The idle limit runs out while Ana is to act: the state that shows the stand-in offers her the actions.
    const mine = await a.nextState(room, (s) => s.seats[0].stand_in === true, 20000);
    assert.ok(mine.legal.length > 0 && mine.seats[0].connected);
    const id = 'take-back';
    await a.send({ type: 'act', id, room, ply: mine.ply, action: mine.legal[0] });
    const back = await a.next((m) => (m.type === 'error' && m.id === id) ||
      (m.type === 'state' && m.room === room && m.ply > mine.ply), 10000, 'the act\'s state');
    assert.equal(back.type, 'state', `the act is accepted: ${JSON.stringify(back)}`);
    assert.deepEqual([back.last.seat, back.seats[0].stand_in], [0, false], 'Ana\'s own action takes the seat back');
    // Ana idles again: the stand-in comes back after the idle limit.
    await a.nextState(room, (s) => s.seats[0].stand_in === true, 20000);
    const ana = autoplay(a, room, { since: 0 });
    await Promise.all([ana.done, bruno.done]);
    const archive = await srv.archive(room, { timeoutMs: 15000 });
    assert.deepEqual(archive.options, { idle_after_ms: 800 }, 'the archive keeps the options as given');
    const file = path.join(srv.dir, `${room}.json`);
    await writeFile(file, JSON.stringify(archive));
    assert.match(execFileSync(process.env.QUINTETO_CLI, ['verify', file], { encoding: 'utf8' }), /^verified: /);
    const own = archive.actions.find((x) => x.ply === mine.ply);
    assert.deepEqual([own.seat, own.stand_in === true], [0, false], 'the action that took the seat back is the player\'s');
    assert.equal((await srv.getJson('/api/players/Ana')).abandoned, 0, 'Ana took her seat back: not abandoned');
  });
});

test('a seat played by a stand-in is its player\'s again the moment it reconnects: no stand-in move after the welcome', { timeout: 120000 }, async () => {
  // --stand-in-min-ms 0: a grace period under the 5 s minimum, for the test (docs/HOSTING.md).
  await withServer({ args: ['--stand-in-min-ms', '0'], botDelayMs: 50 }, async (srv) => {
    const { a, b, room } = await pair(srv, 'ur', { stand_in_after_ms: 300, stand_in_level: 'random' });
    const w = await srv.player('Watcher');
    await watchRoom(w, room);
    const token = a.welcome.token;
    a.terminate();
    const bruno = autoplay(b, room, { since: 0 });
    const standIn = await w.nextState(room, (s) => s.seats[0].stand_in === true, 10000);
    // The stand-in plays a few of Ana's actions.
    await w.nextState(room, (s) => s.ply >= standIn.ply + 6 && s.to_act.includes(1), 30000);
    const mark = w.mark();
    const back = await srv.connect();
    await back.request({ type: 'hello', name: 'Ana', token });
    const now = await back.nextState(room);
    assert.deepEqual([now.seats[0].connected, now.seats[0].stand_in], [true, false], 'the seat is Ana\'s again at once');
    // Ana does not act: Bruno plays his turn if it is his, then the match waits for her (a stand-in would
    // have acted within 50 ms).
    await w.nextState(room, (s) => s.ply >= now.ply && s.seats[0].connected && s.to_act.length === 1 && s.to_act[0] === 0, 10000);
    await sleep(1500);
    const states = w.messages.slice(mark).filter((m) => m.type === 'state' && m.room === room);
    const after = states.slice(states.findIndex((s) => s.seats[0].connected));
    assert.ok(after.length > 0 && after[0].ply === now.ply, 'the watcher saw the seat come back');
    assert.ok(after.every((s) => s.seats[0].stand_in === false), 'no stand-in after the welcome');
    assert.ok(after.every((s) => s.ply <= now.ply || s.last.seat !== 0),
      `no action of Ana's seat after the welcome: ${JSON.stringify(after.map((s) => [s.ply, s.last && s.last.seat]))}`);
    const ana = autoplay(back, room, { since: 0 });
    await Promise.all([ana.done, bruno.done]);
    const archive = await srv.archive(room, { timeoutMs: 15000 });
    assert.ok(archive.actions.some((x) => x.seat === 0 && x.stand_in), 'the stand-in played before');
    assert.ok(!archive.actions.some((x) => x.seat === 0 && x.stand_in && x.ply >= now.ply), 'and never after the welcome');
    assert.equal((await srv.getJson('/api/players/Ana')).abandoned, 0, 'Ana came back: not abandoned');
  });
});
