// ur_match.test.mjs: whole Royal Game of Ur matches against the real server: two humans choosing
// among `legal`, the state invariants every receiver must see, the commit/reveal of the dice seed
// (and the dice stream recomputed here from protocol.md), the archive, `quinteto verify` on it,
// resuming a seat with the token, autoroll, resignation, and a clean SIGTERM with clients connected.

import test from 'node:test';
import { createHash } from 'node:crypto';
import {
  assert, withServer, Server, createRoom, joinRoom, watchRoom, autoplay, until, within,
} from './lib.mjs';
import {
  canon, statesOf, diceBytes, runCli, withTempDir, verifyFile, playMatch, playAgainstBots, playFirstPlies,
} from '../lib/match.mjs';

// Checks the states one client received for a room, in order. seat: the receiver's seat, or null
// for a watcher. Returns the actions seen: actions[p] = the `last` of the first state with ply p+1.
function checkStates(label, states, { seat, commit }) {
  const actions = [];
  let prev = null;
  assert.ok(states.length > 0, `${label}: no state received`);
  for (const [i, st] of states.entries()) {
    const where = `${label}, state #${i} (ply ${st.ply}, ${st.status})`;
    assert.equal(st.commit, commit, `${where}: commit changed`);
    assert.equal(st.game, 'ur', where);
    if (st.status === 'playing') assert.equal(st.to_act.length, 1, `${where}: to_act ${JSON.stringify(st.to_act)}`);
    else assert.deepEqual(st.to_act, [], `${where}: to_act must be [] unless playing`);
    const mine = seat !== null && st.status === 'playing' && st.to_act.includes(seat);
    if (mine) assert.ok(st.legal.length > 0, `${where}: the seat to act got no legal actions`);
    else assert.deepEqual(st.legal, [], `${where}: legal must be [] for ${seat === null ? 'a watcher' : 'a seat not to act'}`);
    assert.equal(new Set(st.legal.map(canon)).size, st.legal.length, `${where}: legal has duplicates`);
    if (st.status === 'finished') {
      assert.ok(st.result, `${where}: finished without a result`);
      assert.ok('server_seed' in st && 'client_seeds' in st, `${where}: finished without the seed reveal`);
    } else {
      assert.equal(st.result, null, `${where}: result before the end`);
      assert.ok(!('server_seed' in st), `${where}: server_seed revealed before the end`);
      assert.ok(!('client_seeds' in st), `${where}: client_seeds before the end`);
    }
    if (st.ply === 0) assert.equal(st.last, null, `${where}: last before the first action`);
    if (prev) {
      const d = st.ply - prev.ply;
      assert.ok(d === 0 || d === 1, `${where}: ply jumped from ${prev.ply} to ${st.ply}`);
      if (d === 1) {
        assert.ok(st.last, `${where}: ply advanced without last`);
        assert.ok(prev.to_act.includes(st.last.seat), `${where}: last.seat ${st.last.seat} was not to act (${JSON.stringify(prev.to_act)})`);
        if (prev.legal.length) // the receiver was the one to act: it must have been one of its legal actions
          assert.ok(prev.legal.map(canon).includes(canon(st.last.action)), `${where}: ${canon(st.last.action)} was not legal`);
        actions[prev.ply] = st.last;
      } else {
        assert.deepEqual(st.last, prev.last, `${where}: last changed without an action`);
      }
      assert.ok(!(prev.status === 'finished' && st.status !== 'finished'), `${where}: un-finished`);
    } else if (st.ply > 0) {
      actions[st.ply - 1] = st.last;
    }
    prev = st;
  }
  return actions;
}

// Recomputes every roll from the revealed seeds (protocol.md, Randomness) and checks the outcomes.
function checkDice(label, seeds, actions) {
  const byte = diceBytes(seeds);
  const values = { 3: 5, 0: 4, 2: 1, 1: 0 };
  let rolls = 0;
  for (const [i, a] of actions.entries()) {
    if (!a || !a.action.roll) continue;
    const dice = [byte() & 1, byte() & 1, byte() & 1].map(Boolean);
    assert.deepEqual(a.outcome.dice, dice, `${label}: ply ${i}: dice differ from the stream`);
    assert.equal(a.outcome.value, values[dice.filter(Boolean).length], `${label}: ply ${i}: value`);
    assert.equal(a.outcome.again, a.outcome.value >= 4, `${label}: ply ${i}: again`);
    rolls++;
  }
  return rolls;
}

function checkArchive(arch, { id, seats, client_seeds, commit, final, actions, options = {} }) {
  assert.equal(arch.id, id);
  assert.equal(arch.game, 'ur');
  assert.deepEqual(arch.options, options);
  assert.deepEqual(arch.seats, seats);
  assert.deepEqual(arch.client_seeds, client_seeds);
  assert.equal(arch.commit, commit);
  assert.equal(arch.server_seed, final.server_seed);
  assert.deepEqual(arch.result, final.result);
  assert.ok(arch.started_at <= arch.ended_at, 'started_at <= ended_at');
  assert.equal(arch.actions.length, actions.length, 'as many archived actions as plies seen');
  let at = arch.started_at;
  for (const [i, a] of arch.actions.entries()) {
    assert.equal(a.ply, i, `archived action #${i}: ply`);
    assert.equal(a.seat, actions[i].seat, `ply ${i}: seat`);
    assert.deepEqual(a.action, actions[i].action, `ply ${i}: action`);
    assert.deepEqual(a.outcome, actions[i].outcome, `ply ${i}: outcome`);
    assert.ok(a.at >= at && a.at <= arch.ended_at, `ply ${i}: at ${a.at} out of order`);
    at = a.at;
  }
}

test('two players play an Ur match to the end by choosing among legal', { timeout: 60000 }, async () => {
  await withServer(async (srv) => {
    const seedA = 'Ana’s lucky seed ñ 🎲', seedB = 'bruno-42';
    const {
      id, room, w0, commit, players: [a, b], w, plays: [playA, playB], joins: [ja, jb], finals: [finalA, finalB], finalW,
    } = await playMatch(srv, 'ur', { watcher: 'Wanda', seeds: [seedA, seedB] });
    assert.equal(room.status, 'waiting');
    assert.deepEqual(room.options, {});
    assert.deepEqual(room.seats.map((s) => [s.seat, s.role, s.name, s.bot]), [[0, 'light', null, false], [1, 'dark', null, false]]);
    assert.equal(w0.status, 'waiting'); // watched before any seat was taken: the create-time commit
    assert.equal(w0.ply, 0);
    assert.deepEqual([ja.joined.room, ja.joined.seat, ja.joined.role], [id, 0, 'light']);
    assert.equal(ja.state.status, 'waiting');
    assert.deepEqual([jb.joined.seat, jb.joined.role], [1, 'dark']);
    assert.deepEqual(playA.errors, [], 'A got no error');
    assert.deepEqual(playB.errors, [], 'B got no error');
    assert.ok(playA.sent.length > 10 && playB.sent.length > 10, 'both played');

    const seen = checkStates('watcher', statesOf(w, id), { seat: null, commit });
    const seenA = checkStates('A', statesOf(a, id), { seat: 0, commit });
    const seenB = checkStates('B', statesOf(b, id), { seat: 1, commit });
    const n = finalW.ply;
    assert.equal(seen.length, n);
    for (let p = 0; p < n; p++) assert.ok(seen[p], `the watcher missed ply ${p}`);
    assert.deepEqual(seenA, seen, 'A saw the same actions as the watcher');
    assert.deepEqual(seenB, seen, 'B saw the same actions as the watcher');
    assert.equal(playA.sent.length + playB.sent.length, n, 'every act sent was accepted, one ply each');

    for (const f of [finalA, finalB, finalW]) {
      assert.equal(f.status, 'finished');
      assert.equal(f.ply, n);
      assert.deepEqual(f.to_act, []);
      assert.deepEqual(f.legal, []);
      assert.equal(f.result.reason, 'race');
      assert.ok(f.result.winner === 0 || f.result.winner === 1);
      assert.ok(f.last.outcome.won, 'the last action won');
      assert.equal(f.last.seat, f.result.winner);
      assert.equal(createHash('sha256').update(Buffer.from(f.server_seed, 'hex')).digest('hex'), commit, 'sha256(server_seed) == commit');
      assert.deepEqual(f.client_seeds, [seedA, seedB]);
      assert.ok(f.view.pieces[f.result.winner].every((x) => x === 24), 'the winner bore off all seven');
    }
    const rolls = checkDice('states', finalW, seen);
    assert.ok(rolls > 10);

    const arch = await srv.archive(id);
    checkArchive(arch, {
      id, commit, final: finalW, actions: seen, client_seeds: [seedA, seedB],
      seats: [{ seat: 0, role: 'light', name: 'Ana', bot: false }, { seat: 1, role: 'dark', name: 'Bruno', bot: false }],
    });
  });
});

test('the archived match replays through the rules core', { timeout: 60000 }, async () => {
  await withTempDir('quinteto-verify-', async (dir) => {
    await withServer(async (srv) => {
      const { id, final } = await playAgainstBots(srv, 'ur', { seat: 1, clientSeed: 'verify me' });
      assert.equal(final.status, 'finished');
      const arch = await srv.archive(id);
      assert.deepEqual(arch.client_seeds, ['', 'verify me']);
      assert.deepEqual(arch.seats.map((s) => s.bot), [true, false]);
      checkDice('archive', arch, arch.actions);

      const ok = await verifyFile(dir, 'match.json', arch);
      assert.equal(ok.code, 0, `verify exit ${ok.code}\n${ok.stdout}${ok.stderr}`);
      assert.match(ok.stdout + ok.stderr, /verified/);
      const viaStdin = await runCli(['verify', '-'], JSON.stringify(arch));
      assert.equal(viaStdin.code, 0, `verify - exit ${viaStdin.code}\n${viaStdin.stdout}${viaStdin.stderr}`);

      // One die flipped in one roll: the replay must disagree.
      const bad = structuredClone(arch);
      const k = bad.actions.findIndex((x) => x.action.roll);
      bad.actions[k].outcome.dice[0] = !bad.actions[k].outcome.dice[0];
      const r = await verifyFile(dir, 'tampered.json', bad);
      assert.equal(r.code, 1, `tampered dice: verify exit ${r.code}\n${r.stdout}${r.stderr}`);

      // Another server seed: the commit gives it away.
      const bad2 = structuredClone(arch);
      bad2.server_seed = (bad2.server_seed[0] === '0' ? '1' : '0') + bad2.server_seed.slice(1);
      const r2 = await verifyFile(dir, 'tampered.json', bad2);
      assert.equal(r2.code, 1, `tampered seed: verify exit ${r2.code}\n${r2.stdout}${r2.stderr}`);

      // Not an archive at all.
      const r3 = await verifyFile(dir, 'tampered.json', '{"hello":"world"}');
      assert.equal(r3.code, 2, `not an archive: verify exit ${r3.code}\n${r3.stdout}${r3.stderr}`);
    });
  });
});

test('a player resumes its identity and seat with its token after a disconnect', { timeout: 60000 }, async () => {
  await withServer(async (srv) => {
    let a = await srv.player('Rita');
    const { player, token } = a.welcome;
    assert.deepEqual(a.welcome.rooms, []);
    const w = await srv.player('Watcher');
    const { id } = await createRoom(a, 'ur');
    await watchRoom(w, id);
    // A plays until its turn comes at ply >= 4, then vanishes without acting.
    let before = null;
    const play = autoplay(a, id, {
      choose: (st) => {
        if (st.ply >= 4) { before = st; return null; }
        return st.legal[Math.floor(Math.random() * st.legal.length)];
      },
    });
    await joinRoom(a, id, { seat: 0 });
    await a.request({ type: 'add_bot', room: id, seat: 1 });
    await until(() => before, { timeoutMs: 10000, what: 'A to act at ply >= 4' });
    play.stop();
    assert.equal(before.status, 'playing');
    a.terminate();
    const away = await w.nextState(id, (s) => s.seats[0].connected === false, 5000);
    assert.equal(away.seats[1].connected, true, 'a bot is always connected');
    assert.equal(away.status, 'playing');
    w.drain();

    a = await srv.connect({ label: 'Rita again' });
    const welcome = await a.request({ type: 'hello', name: 'Rita Returns', token });
    assert.equal(welcome.type, 'welcome');
    assert.equal(welcome.player, player, 'same player identity');
    assert.equal(welcome.token, token);
    assert.equal(welcome.name, 'Rita Returns');
    assert.deepEqual(welcome.rooms, [id]);
    const st = await a.nextState(id);
    assert.equal(st.seats[0].connected, true);
    assert.equal(st.seats[0].name, 'Rita Returns');
    if (st.to_act.includes(0)) assert.ok(st.legal.length > 0, 'resumed seat to act gets its legal actions');
    else assert.deepEqual(st.legal, []);
    assert.equal(st.ply, before.ply, 'nothing happened while A was away (it was A\'s turn)');
    assert.deepEqual(st.legal.map((x) => JSON.stringify(x)).sort(), before.legal.map((x) => JSON.stringify(x)).sort());
    const back = await w.nextState(id, (s) => s.seats[0].connected === true);
    assert.equal(back.seats[0].name, 'Rita Returns');

    // And it can play on to the end from the resumed seat.
    const play2 = autoplay(a, id, { since: 0 });
    const final = await within(play2.done, 30000);
    assert.ok(final, 'match finished');
    assert.equal(final.status, 'finished');
    const arch = await srv.archive(id);
    assert.equal(arch.seats[0].name, 'Rita Returns');
    assert.equal(arch.seats[0].bot, false);
  });
});

test('autoroll plays the roll by itself', { timeout: 60000 }, async () => {
  await withServer(async (srv) => {
    const { a, id, room, play } = await playAgainstBots(srv, 'ur', { name: 'Otto', options: { autoroll: true }, timeoutMs: 40000 });
    assert.deepEqual(room.options, { autoroll: true });
    const states = statesOf(a, id);
    const rollOnly = states.filter((s) => s.legal.length === 1 && s.legal[0].roll === true);
    assert.equal(rollOnly.length, 0,
      `with autoroll a human seat is never offered {"roll":true} as its only legal action; it was in ${rollOnly.length} `
      + `of its ${states.length} states, e.g. ${JSON.stringify(rollOnly.slice(0, 2).map((s) => ({ ply: s.ply, to_act: s.to_act, legal: s.legal, last: s.last })))}`);
    assert.deepEqual(play.errors, [], 'no error for A');
    const arch = await srv.archive(id);
    assert.deepEqual(arch.options, { autoroll: true });
    const humanRolls = arch.actions.filter((x) => x.seat === 0 && x.action.roll);
    assert.ok(humanRolls.length > 5, 'the archive has the autorolls of the human seat');
    for (const [i, x] of arch.actions.entries()) assert.equal(x.ply, i);
    // the human never sent a roll whose only alternative was nothing: all its rolls were autorolls
    const sentRolls = play.sent.filter((x) => x.action.roll).length;
    assert.ok(sentRolls <= humanRolls.length);
    checkDice('archive', arch, arch.actions);
  });
});

test('resign ends the match and the opponent wins', { timeout: 30000 }, async () => {
  await withServer(async (srv) => {
    const { a, b, id } = await playFirstPlies(srv, 'ur', 3, { names: ['Quitter', 'Stayer'] }); // a few plies first
    await a.send({ type: 'resign', room: id, id: 'r1' });
    const sa = await a.nextState(id, (s) => s.status === 'finished');
    const sb = await b.nextState(id, (s) => s.status === 'finished');
    for (const s of [sa, sb]) {
      assert.deepEqual(s.result, { winner: 1, reason: 'resign' });
      assert.deepEqual(s.to_act, []);
      assert.deepEqual(s.legal, []);
      assert.ok(s.server_seed && s.client_seeds);
    }
    const arch = await srv.archive(id);
    assert.deepEqual(arch.result, { winner: 1, reason: 'resign' });
    assert.equal(arch.actions.length, sa.ply);
    assert.deepEqual(arch.client_seeds, ['', '']);
  });
});

test('the server shuts down cleanly on SIGTERM with clients connected', { timeout: 60000 }, async () => {
  await withTempDir('quinteto-restart-', async (dir) => {
    let token, player, finishedId;
    {
      const srv = await Server.start({ dir });
      let ok = false;
      try {
        const a = await srv.player('Sigma');
        ({ token, player } = a.welcome);
        const lobby = await srv.player('Lobby');
        await lobby.request({ type: 'rooms' });
        // one finished bot match (archived), one being played by bots, one waiting with A seated
        const done = await createRoom(a, 'ur');
        await watchRoom(a, done.id);
        await a.request({ type: 'add_bot', room: done.id });
        await a.request({ type: 'add_bot', room: done.id });
        await a.nextState(done.id, (s) => s.status === 'finished', 20000);
        finishedId = done.id;
        await srv.archive(finishedId);
        const busy = await createRoom(a, 'ur');
        const w = await srv.player('Watcher');
        await watchRoom(w, busy.id);
        await a.request({ type: 'add_bot', room: busy.id });
        await a.request({ type: 'add_bot', room: busy.id });
        const waiting = await createRoom(a, 'ur');
        await joinRoom(a, waiting.id, { seat: 0 });
        const idle = await srv.connect(); // never said hello
        await w.nextState(busy.id, (s) => s.ply >= 1);
        const clients = [a, lobby, w, idle];
        const t0 = Date.now();
        await srv.stop({ keepClients: true }); // asserts exit 0
        assert.ok(Date.now() - t0 < 10000, 'stopped promptly');
        const infos = await Promise.all(clients.map((c) => c.waitClosed(5000)));
        for (const info of infos) assert.ok(info.code >= 1000, `closed (${info.code})`);
        srv.assertValid();
        ok = true;
      } finally {
        if (!ok) await srv.stop().catch(() => {});
      }
    }
    // A restart on the same database: the token and the archive survive.
    await withServer({ dir }, async (srv) => {
      const a = await srv.connect();
      const welcome = await a.request({ type: 'hello', name: 'Sigma', token });
      assert.equal(welcome.player, player, 'the token resumes the identity after a restart');
      const arch = await srv.archive(finishedId);
      assert.equal(arch.id, finishedId);
      assert.equal((await srv.getJson('/healthz')).status, 'ok');
    });
  });
});
