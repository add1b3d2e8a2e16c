// match.mjs: the match driver of the Node tests, one for every game, and what the per-game match
// tests share around it: playing a whole match (people choosing among `legal`, a watcher from the
// create-time commit on), a person against bots, the states a client received for a room, the
// canonical JSON of an action, the dice byte stream recomputed from the revealed seeds
// (protocol.md, Randomness) and `quinteto verify` run on an archive. It checks only that the match
// was played (every join answered, the match finished); what a match must look like is each test's.

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { execFile } from 'node:child_process';
import { mkdtemp, writeFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { within, sleep } from './util.mjs';
import { createRoom, joinRoom, watchRoom, autoplay } from './client.mjs';

export const sha256 = (...parts) => createHash('sha256').update(Buffer.concat(parts.map((p) => Buffer.from(p)))).digest();

// JSON with object keys sorted: two equal actions give the same text whatever their key order.
export const canon = (v) => JSON.stringify(v, (k, x) => (x && typeof x === 'object' && !Array.isArray(x)
  ? Object.fromEntries(Object.keys(x).sort().map((key) => [key, x[key]])) : x));

// The states client c received for room id, in order.
export const statesOf = (c, id) => c.messages.filter((m) => m.type === 'state' && m.room === id);

// The match's byte stream (protocol.md, Randomness): sha256(match seed || block counter) blocks,
// the match seed being sha256(server seed || each client seed and a NUL). Returns byte().
export function diceBytes({ server_seed, client_seeds }) {
  const parts = [Buffer.from(server_seed, 'hex')];
  for (const cs of client_seeds) parts.push(Buffer.from(cs, 'utf8'), Buffer.from([0]));
  const matchSeed = sha256(...parts);
  let block = 0, buf = Buffer.alloc(0), pos = 0;
  return () => {
    if (pos === buf.length) {
      const k = Buffer.alloc(8);
      k.writeBigUInt64BE(BigInt(block++));
      buf = sha256(matchSeed, k);
      pos = 0;
    }
    return buf[pos++];
  };
}

// A six-sided die from the byte stream: bytes >= 252 are skipped.
export const d6 = (byte) => { for (;;) { const b = byte(); if (b < 252) return (b % 6) + 1; } };

// Runs the command line (QUINTETO_CLI) with args (and stdin input); resolves {code, stdout, stderr}.
export const runCli = (args, input) => new Promise((resolve) => {
  const p = execFile(process.env.QUINTETO_CLI, args, { timeout: 20000 }, (err, stdout, stderr) =>
    resolve({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stdout, stderr }));
  if (input !== undefined) p.stdin.end(input);
});

// Runs body(dir) with a fresh temporary directory, removed afterwards.
export async function withTempDir(prefix, body) {
  const dir = await mkdtemp(path.join(tmpdir(), prefix));
  try {
    return await body(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

// `quinteto verify` on the archive `arch` written to file `name` in dir; resolves as runCli does.
export async function verifyFile(dir, name, arch) {
  const file = path.join(dir, name);
  await writeFile(file, typeof arch === 'string' ? arch : JSON.stringify(arch));
  return runCli(['verify', file]);
}

// Plays a whole match of `game` on server srv between people who choose among `legal`:
// one client per name (seat i is names[i]), created in that order, then a watcher; `creator`
// (a seat) creates the room with `options`, the watcher watches it before any seat is taken (so
// w0.commit is the create-time commit), every person starts to autoplay (choose[i], or at random)
// and then joins its seat in order (client_seed seeds[i] where given). Resolves once every person
// saw the match finished (within timeoutMs) and so did the watcher, with
// {id, room, w0, commit, players, w, plays, joins, finals, finalW}: room is the created summary,
// joins[i] joinRoom's {joined, state}, plays[i] the autoplay (sent, errors), finals[i] the final
// state seat i saw.
export async function playMatch(srv, game, {
  names = ['Ana', 'Bruno'], watcher = 'Watcher', creator = 0, options, seeds = [], choose = [],
  timeoutMs = 100000,
} = {}) {
  const players = [];
  for (const name of names) players.push(await srv.player(name));
  const w = await srv.player(watcher);
  const room = await createRoom(players[creator], game, options);
  const id = room.id;
  const w0 = await watchRoom(w, id);
  const plays = players.map((c, s) => autoplay(c, id, choose[s] ? { choose: choose[s] } : {}));
  const joins = [];
  for (const [s, c] of players.entries())
    joins.push(await joinRoom(c, id, { seat: s, ...(seeds[s] !== undefined ? { client_seed: seeds[s] } : {}) }));
  const finals = await within(Promise.all(plays.map((p) => p.done)), timeoutMs);
  assert.ok(finals, 'the match finished');
  const finalW = await w.nextState(id, (s) => s.status === 'finished', 10000);
  return { id, room, w0, commit: w0.commit, players, w, plays, joins, finals, finalW };
}

// A person (a new client `name`, or `client`) in seat `seat` of a new room of `game` (with
// `options`), autoplaying (choose, or at random; client_seed where given), against bots (of `level`
// where given) that it adds in every other seat, in order. Resolves once the match finished (within
// timeoutMs) with {a, id, room, play, final}.
export async function playAgainstBots(srv, game, {
  name = 'Vera', client, seat = 0, options, choose, clientSeed, level, timeoutMs = 100000,
} = {}) {
  const a = client ?? await srv.player(name);
  const room = await createRoom(a, game, options);
  const id = room.id;
  const play = autoplay(a, id, choose ? { choose } : {});
  await joinRoom(a, id, { seat, ...(clientSeed !== undefined ? { client_seed: clientSeed } : {}) });
  for (let s = 0; s < room.seats.length; s++) {
    if (s === seat) continue;
    const r = await a.request({ type: 'add_bot', room: id, seat: s, ...(level ? { level } : {}) });
    assert.equal(r.type, 'bot_added', JSON.stringify(r));
  }
  const final = await within(play.done, timeoutMs);
  assert.ok(final, 'the match finished');
  return { a, id, room, play, final };
}

// Two people (names) seated in a new room of `game` (seats 0 and 1) play at random until the second
// sees ply `plies` (within 20 s: a few round trips, slow only on a loaded machine); then they stop, the
// messages settle (50 ms) and both clients are drained. Resolves {a, b, id}: the match is on, at ply
// `plies` or a little past it (a state that comes later is still to be read: tests wait with a predicate).
export async function playFirstPlies(srv, game, plies, { names = ['Ana', 'Bruno'] } = {}) {
  const a = await srv.player(names[0]);
  const b = await srv.player(names[1]);
  const { id } = await createRoom(a, game);
  await joinRoom(a, id, { seat: 0 });
  await joinRoom(b, id, { seat: 1 });
  const pa = autoplay(a, id, { since: 0 }), pb = autoplay(b, id, { since: 0 });
  await b.nextState(id, (s) => s.ply >= plies, 20000);
  pa.stop(); pb.stop();
  await sleep(50);
  a.drain(); b.drain();
  return { a, b, id };
}

// A match of bots of `game` (a bot in every seat, each added by w) that client w watches to its end;
// resolves with the final state (within timeoutMs).
export async function watchBotMatch(w, game = 'ur', { timeoutMs = 30000 } = {}) {
  const room = await createRoom(w, game);
  await watchRoom(w, room.id);
  for (const s of room.seats)
    assert.equal((await w.request({ type: 'add_bot', room: room.id, seat: s.seat })).type, 'bot_added');
  return w.nextState(room.id, (st) => st.status === 'finished', timeoutMs);
}
