// archive_api.test.mjs: the archive as something to browse (issue "The archive"): GET /api/matches
// with its filters (game, player by name, result, before, limit), GET /api/matches/{id}/replay (every
// step recomputed by the rules core must equal the state the room broadcast live at that moment,
// resignation included), GET /api/players/{name}, and their 400 and 404 answers. Every answer is
// validated against its schema by lib.mjs (match-list.json, match-replay.json, player.json).

import test from 'node:test';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import {
  assert, withServer, createRoom, joinRoom, watchRoom, autoplay,
} from './lib.mjs';
import { playAgainstBots, watchBotMatch } from '../lib/match.mjs';

const FAST_BOTS = { botDelayMs: 1 };

// What a replay step and a live state have in common.
const picture = (x) => ({ ply: x.ply, view: x.view, to_act: x.to_act, last: x.last });

// Ana (seat 0) against a bot; she plays until ply `resignAt` (or the end), then resigns. A watcher
// records every state the room broadcast. Resolves with {room, live: [states]}.
async function recordedMatch(srv, name, resignAt = Infinity) {
  const a = await srv.player(name);
  const w = await srv.player(`${name}-watcher`);
  const { id } = await createRoom(a, 'ur');
  const since = w.mark();
  await watchRoom(w, id);
  const play = autoplay(a, id, { choose: (st) => (st.ply >= resignAt ? null : st.legal[Math.floor(Math.random() * st.legal.length)]) });
  await joinRoom(a, id, { seat: 0, client_seed: 'seen live' });
  await a.request({ type: 'add_bot', room: id });
  if (resignAt !== Infinity) {
    await a.nextState(id, (s) => s.ply >= resignAt && s.to_act.includes(0), 30000);
    assert.equal((await a.request({ type: 'resign', room: id })).type, 'resigned');
  }
  await w.nextState(id, (s) => s.status === 'finished', 30000);
  play.stop();
  const live = w.messages.slice(since).filter((m) => m.type === 'state' && m.room === id && m.status !== 'waiting');
  return { room: id, live };
}

// Every live state is a step of the replay, in order; every ply of the replay was shown live.
function assertReplayIsLive(replay, live) {
  let j = 0;
  for (const st of live) {
    while (j < replay.steps.length && !isDeepEqual(picture(replay.steps[j]), picture(st))) j++;
    assert.ok(j < replay.steps.length, `the live state at ply ${st.ply} is no step of the replay (or out of order)`);
  }
  assert.deepEqual(picture(replay.steps.at(-1)), picture(live.at(-1)), 'the last step is the final state');
  assert.deepEqual(new Set(replay.steps.map((s) => s.ply)), new Set(live.map((s) => s.ply)), 'every ply was shown live');
}

function isDeepEqual(a, b) {
  try { assert.deepStrictEqual(a, b); return true; } catch { return false; }
}

test('GET /api/matches/{id}/replay equals the states broadcast live, a resignation included', { timeout: 90000 }, async () => {
  await withServer(FAST_BOTS, async (srv) => {
    const { room, live } = await recordedMatch(srv, 'Replayer', 30);
    const arch = await srv.archive(room);
    assert.equal(arch.events.length, 1);
    const replay = await srv.replay(room);
    assert.equal(replay.id, room);
    assert.equal(replay.game, 'ur');
    assert.deepEqual(replay.seats, arch.seats);
    assert.deepEqual(replay.result, arch.result);
    assert.equal(replay.steps.length, 1 + arch.actions.length + arch.events.length, 'the start, each action, each event');
    assert.deepEqual(replay.steps[0].last, null);
    assert.deepEqual(replay.steps.at(-1).event, { seat: 0, kind: 'resign' });
    assert.deepEqual(replay.steps.at(-1).to_act, []);
    arch.actions.forEach((a, i) => {
      assert.equal(replay.steps[i + 1].ply, a.ply + 1);
      assert.deepEqual(replay.steps[i + 1].last, { seat: a.seat, action: a.action, outcome: a.outcome });
    });
    assertReplayIsLive(replay, live);

    // a match played to its end, no event
    const whole = await recordedMatch(srv, 'Finisher');
    await srv.archive(whole.room); // written asynchronously
    const replay2 = await srv.replay(whole.room);
    assert.ok(replay2.steps.every((s) => s.event === null));
    assertReplayIsLive(replay2, whole.live);

    // the addresses people share redirect to the web client's routes, known parameters re-encoded
    const go = async (p) => fetch(srv.url + p, { redirect: 'manual' });
    let x = await go(`/replay/${room}?ply=37`);
    assert.equal(x.status, 302);
    assert.equal(x.headers.get('location'), `/#/replay/${room}?ply=37`);
    assert.equal((await go(`/replay/${room}?ply=x`)).headers.get('location'), `/#/replay/${room}`);
    x = await go(`/matches?player=${encodeURIComponent('Ana María')}&result=won&evil=%3Cb%3E`);
    assert.equal(x.headers.get('location'), '/#/matches?player=Ana%20Mar%C3%ADa&result=won');
    assert.equal((await go('/matches')).headers.get('location'), '/#/matches');
    assert.equal((await go('/replay/a%20b')).status, 404);

    // unknown ids and paths
    for (const p of ['/api/matches/nosuch/replay', `/api/matches/${room}/replay/x`, `/api/matches/${room}/replays`,
      `/api/matches/${'z'.repeat(40)}/replay`, '/api/matches/a%20b/replay']) {
      const x = await srv.http(p);
      assert.equal(x.status, 404, `${p}: ${x.status} ${x.text}`);
      assert.equal(x.json.error, 'not_found');
    }
  });
});

// Every game this server has (the schema's list, less those it answers unknown_game): a match of bots,
// short where the game has a turn limit, watched; its replay must be what the watcher saw.
test('every game: the replay of a match of bots equals what a watcher saw', { timeout: 240000 }, async () => {
  await withServer(FAST_BOTS, async (srv) => {
    const common = JSON.parse(await (await import('node:fs/promises')).readFile(
      path.join(process.env.QUINTETO_TEST_SCHEMA, 'common.json'), 'utf8'));
    const w = await srv.player('Watcher');
    let played = 0;
    for (const game of common.$defs.game.enum) {
      let r = await w.request({ type: 'create', game, options: { max_turns: 10 } });
      if (r.type === 'error' && r.code === 'bad_options') r = await w.request({ type: 'create', game });
      if (r.type === 'error' && r.code === 'unknown_game') continue;
      assert.equal(r.type, 'created', JSON.stringify(r));
      const id = r.room.id;
      const since = w.mark();
      await watchRoom(w, id);
      for (const s of r.room.seats) assert.equal((await w.request({ type: 'add_bot', room: id, seat: s.seat })).type, 'bot_added');
      await w.nextState(id, (st) => st.status === 'finished', 120000);
      const live = w.messages.slice(since).filter((m) => m.type === 'state' && m.room === id && m.status !== 'waiting');
      await srv.archive(id);
      const replay = await srv.replay(id);
      assert.equal(replay.game, game);
      assertReplayIsLive(replay, live);
      played++;
    }
    assert.ok(played >= 1);
  });
});

// A human (name) against a bot, to the end; resolves with the final state.
const humanMatch = async (srv, name) => (await playAgainstBots(srv, 'ur', { name })).final;

// Two bots; resolves with the final state.
const botMatch = async (srv) => watchBotMatch(await srv.player('Botwatcher'));

test('GET /api/matches: player by name, result, before and limit; GET /api/players/{name}', { timeout: 120000 }, async () => {
  await withServer(FAST_BOTS, async (srv) => {
    const finals = [];
    for (const name of ['Ana', 'Bea', 'Ana', 'Ana María'])
      finals.push(await humanMatch(srv, name));
    finals.push(await botMatch(srv));
    for (const f of finals) await srv.archive(f.room);
    const all = (await srv.getJson('/api/matches?limit=100')).matches;
    assert.equal(all.length, 5);
    for (const m of all) {
      const arch = await srv.archive(m.id);
      assert.equal(m.plies, arch.actions.length, 'plies is the number of actions');
    }

    // player: by the name played under, case and accents ignored, but the whole name (not a prefix)
    const ana = await srv.getJson('/api/matches?player=Ana');
    assert.deepEqual(ana.matches.map((m) => m.id), all.filter((m) => m.seats.some((s) => s.name === 'Ana')).map((m) => m.id));
    assert.equal(ana.matches.length, 2);
    assert.equal((await srv.getJson(`/api/matches?player=${encodeURIComponent('Ana María')}`)).matches.length, 1);
    assert.equal((await srv.getJson(`/api/matches?player=${encodeURIComponent('ANA MARIA')}`)).matches.length, 1);
    assert.deepEqual(await srv.getJson('/api/matches?player=ana'), ana, 'another case');
    assert.deepEqual(await srv.getJson(`/api/matches?player=${encodeURIComponent('Ána')}`), ana, 'an accent more');
    assert.deepEqual(await srv.getJson('/api/matches?player=An'), { matches: [], next: null }, 'not a prefix');
    // pages of one under a player filter
    const p1 = await srv.getJson('/api/matches?player=Ana&limit=1');
    assert.equal(p1.matches.length, 1);
    const p2 = await srv.getJson(`/api/matches?player=Ana&limit=1&before=${encodeURIComponent(p1.next)}`);
    assert.deepEqual([...p1.matches, ...p2.matches], ana.matches);
    assert.equal(p2.next, null);

    // result: won / lost relative to the player, a reason, draw
    const won = (await srv.getJson('/api/matches?player=Ana&result=won')).matches.map((m) => m.id);
    const lost = (await srv.getJson('/api/matches?player=Ana&result=lost')).matches.map((m) => m.id);
    const anaWon = (m) => m.seats.some((s) => s.name === 'Ana' && s.seat === m.result.winner);
    assert.deepEqual(won, ana.matches.filter(anaWon).map((m) => m.id));
    assert.deepEqual(lost, ana.matches.filter((m) => !anaWon(m)).map((m) => m.id));
    assert.deepEqual((await srv.getJson('/api/matches?result=race')).matches, all.filter((m) => m.result.reason === 'race'));
    assert.deepEqual((await srv.getJson('/api/matches?result=resign')).matches, []);
    assert.deepEqual((await srv.getJson('/api/matches?result=draw')).matches, [], 'Ur has no draws');
    assert.deepEqual((await srv.getJson('/api/matches?game=ur&result=race&limit=100')).matches, all.filter((m) => m.result.reason === 'race'));

    // a player's record, by game
    const rec = await srv.getJson('/api/players/Ana');
    assert.equal(rec.name, 'Ana');
    assert.equal(rec.matches, 2);
    assert.deepEqual(rec.games, { ur: { matches: 2, won: won.length, lost: lost.length, drawn: 0, abandoned: 0 } });
    assert.equal(rec.abandoned, 0);
    assert.ok(rec.first_at <= rec.last_at);
    assert.equal((await srv.getJson(`/api/players/${encodeURIComponent('Ana María')}`)).matches, 1);
    const bots = all.at(0).seats.map((s) => s.name); // the newest: the bot match
    const botRec = await srv.getJson(`/api/players/${encodeURIComponent(bots[0])}`);
    assert.ok(botRec.matches >= 1);

    // 400: malformed filters; 404: names nobody played under
    for (const q of ['result=won', 'result=lost', 'result=Race', 'result=a-b', `result=${'x'.repeat(25)}`,
      `player=${'x'.repeat(25)}`, 'limit=0', 'before=-1', 'game=chess']) {
      const r = await srv.http(`/api/matches?${q}`);
      assert.equal(r.status, 400, `?${q}: ${r.status} ${r.text}`);
      assert.equal(r.json.error, 'bad_request', `?${q}`);
    }
    for (const p of ['/api/players/Nobody', '/api/players/', '/api/players/ana', '/api/players/Ana/x']) {
      const r = await srv.http(p);
      assert.equal(r.status, 404, `${p}: ${r.status} ${r.text}`);
      assert.equal(r.json.error, 'not_found', p);
    }
    // a name that cannot be one is 400, as ?player= is on the list (issue 19)
    const tooLong = await srv.http(`/api/players/${'x'.repeat(25)}`);
    assert.equal(tooLong.status, 400, tooLong.text);
    assert.equal(tooLong.json.error, 'bad_request');

    // the quinteto command on the running server's database: the same list, every match verifies,
    // and an online backup that holds the same archive
    const db = path.join(srv.dir, 'q.db');
    const cli = (...args) => execFileSync(process.env.QUINTETO_CLI, ['--db', db, ...args], { encoding: 'utf8' });
    const lines = cli('matches', '--player', 'Ana').trim().split('\n');
    assert.deepEqual(lines.map((l) => l.split(' ')[0]), ana.matches.map((m) => m.id));
    assert.match(cli('verify', '--all'), /^verified 5 of 5 matches/);
    assert.deepEqual(JSON.parse(cli('export', all[0].id)), await srv.archive(all[0].id));
    assert.match(cli('show', all[0].id, '--ply', '3'), new RegExp(`^ur match ${all[0].id}, ply 3 of ${all[0].plies}\n`));
    const copy = path.join(srv.dir, 'copy.db');
    assert.match(cli('backup', copy), /^backed up/);
    assert.equal(execFileSync(process.env.QUINTETO_CLI, ['--db', copy, 'matches', '--limit', '100'], { encoding: 'utf8' }),
      cli('matches', '--limit', '100'));
  });
});
