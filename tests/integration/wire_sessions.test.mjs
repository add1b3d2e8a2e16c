// wire_sessions.test.mjs: the wire of every game, byte for byte, against a recording. For each game a
// fixed script drives the real server (hello, create with options, seats for humans and bots, actions
// chosen deterministically from `legal`, chat, a resignation or a finished match, the archive, replay
// pages, the lobby over HTTP and WebSocket, and error answers: bad JSON, bad messages, illegal actions,
// stale plies, turns out of order...), and everything the clients send and receive (every WebSocket
// frame, every HTTP status, content type, redirect and body) is compared with
// tests/golden/sessions/<game>.jsonl. Issue 20 restructured the code behind the wire: this is what
// shows the wire did not change.
//
// What is random by design, and how the recording copes:
// - the match's server seed (so its commit and every die) and the bots' random stream: fixed by the
//   server's test-only $QUINTETO_TEST_SEED (server/base/util.c, util_seed_random), and the clients give
//   fixed `client_seed`s; so dice, views, bot moves and seeds are compared exactly, not normalised;
// - room (match) ids, player ids and tokens: each distinct value is renamed <room1>, <player1>,
//   <token1>... in the order it first appears, so "the same id" and "another id" still compare;
// - times: the numbers of created_at, started_at, ended_at, at, first_at, last_at, expires_at,
//   uptime_ms become <time>. Nothing else is touched (the port appears in no recorded byte).
// Every other byte is compared as the server sent it (the frames' text, not a re-encoding). Left out of
// the recording: the barrier each step ends with (Session.sync), which orders the clients' frames.
// Recorded at 83964c8 (main before the restructuring), with the hook above added.
//
// To re-record after a deliberate wire change (say so in the commit):
//   QUINTETO_TEST_RECORD=1 meson test -C build-test wire_sessions
// and review the diff of tests/golden/sessions/.

import test from 'node:test';
import { readFile, writeFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { assert, withServer } from './lib.mjs';
import { SOURCE } from '../lib/server.mjs';

const GOLDEN = path.join(SOURCE, 'tests', 'golden', 'sessions');
const RECORD = process.env.QUINTETO_TEST_RECORD === '1';
const SERVER = {
  args: ['--rate', '100000', '--burst', '100000'],
  env: { QUINTETO_TEST_SEED: 'wire sessions, issue 20' },
};

// ---------------------------------------------------------------------------------------------
// The transcript: what every client sent and received, step by step, in a fixed client order.

class Session {
  constructor(srv) {
    this.srv = srv;
    this.clients = []; // {label, c, logged}
    this.lines = [];
    this.syncs = 0;
  }

  async connect(label) {
    const c = await this.srv.connect({ label });
    this.clients.push({ label, c, logged: 0 });
    return c;
  }

  labelOf(c) { return this.clients.find((x) => x.c === c).label; }

  // A barrier: every open client sends a message of no type the protocol has and waits for its error
  // reply, which the server queues after everything it sent that client before; so the frames the
  // previous steps caused are all in before the next step is logged, whatever the timing. Neither the
  // barrier nor its reply is logged.
  async sync() {
    for (const x of this.clients) {
      if (!x.c.isOpen) continue;
      const id = `sync-${++this.syncs}`;
      await x.c.send(JSON.stringify({ type: 'sync', id }));
      await x.c.next((m) => m.id === id, 5000, `the reply to barrier ${id}`);
    }
    this.flush();
  }

  // Sends a frame (an object, sent as JSON text, or a string as is) and logs it.
  async send(c, msg) {
    const text = typeof msg === 'string' ? msg : JSON.stringify(msg);
    await this.sync();
    this.lines.push(['>', this.labelOf(c), text]);
    await c.send(text);
  }

  // Sends and waits for the direct reply with that id (or for `pred` on the sender).
  async request(c, msg, pred) {
    await this.send(c, msg);
    return c.next(pred || ((m) => m.id !== undefined && m.id === msg.id), 5000, `the reply to ${JSON.stringify(msg)}`);
  }

  // Logs what every client received since the last flush, client by client.
  flush() {
    for (const x of this.clients) {
      for (; x.logged < x.c.raw.length; x.logged++) {
        const text = x.c.raw[x.logged];
        if (!text.startsWith('{"type":"error","id":"sync-')) this.lines.push(['<', x.label, text]);
      }
    }
  }

  // An HTTP GET, logged with its status, content type, location and body.
  async get(pathname) {
    await this.sync();
    const r = await this.srv.http(pathname);
    this.lines.push(['http', `GET ${pathname}`, r.status, r.ctype, r.headers.get('location'), r.text]);
    return r;
  }

  async close(c) {
    await this.sync();
    this.lines.push(['close', this.labelOf(c)]);
    return c.close();
  }
}

// Renames random ids and blanks times, on the text of each line (see the header).
function normalise(lines) {
  const names = new Map();
  const counts = {};
  const rename = (value, kind) => {
    if (!names.has(value)) {
      counts[kind] = (counts[kind] || 0) + 1;
      names.set(value, `<${kind}${counts[kind]}>`);
    }
  };
  for (const line of lines) {
    if (line[0] !== '<') continue;
    let m;
    try { m = JSON.parse(line[2]); } catch { continue; }
    if (m.type === 'welcome') { rename(m.player, 'player'); rename(m.token, 'token'); }
    if (m.type === 'created') rename(m.room.id, 'room');
  }
  const TIME = /"(created_at|started_at|ended_at|at|first_at|last_at|expires_at|uptime_ms)":\d+/g;
  const sub = (s) => {
    let out = s;
    for (const [value, name] of names) out = out.split(value).join(name);
    return out.replace(TIME, '"$1":"<time>"');
  };
  return lines.map((line) => line.map((x) => (typeof x === 'string' ? sub(x) : x)));
}

async function compare(game, lines) {
  const file = path.join(GOLDEN, `${game}.jsonl`);
  const text = normalise(lines).map((l) => JSON.stringify(l)).join('\n') + '\n';
  if (RECORD) {
    await mkdir(GOLDEN, { recursive: true });
    await writeFile(file, text);
    return;
  }
  const want = (await readFile(file, 'utf8')).split('\n');
  const got = text.split('\n');
  for (let i = 0; i < Math.max(want.length, got.length); i++) {
    if (want[i] !== got[i]) {
      assert.fail(`${game}: the session differs from tests/golden/sessions/${game}.jsonl at line ${i + 1}\n`
        + `recorded: ${want[i] === undefined ? '(nothing)' : want[i].slice(0, 1500)}\n`
        + `now:      ${got[i] === undefined ? '(nothing)' : got[i].slice(0, 1500)}`);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Steps every game's script shares

let ids = 0;
const nid = () => `r${++ids}`;

// A connection that said hello.
async function player(s, name) {
  const c = await s.connect(name);
  const w = await s.request(c, { type: 'hello', id: nid(), name });
  assert.equal(w.type, 'welcome', JSON.stringify(w));
  return c;
}

// The latest state of `room` a client received, or null.
function latest(c, room) {
  for (let i = c.messages.length - 1; i >= 0; i--) {
    const m = c.messages[i];
    if (m.type === 'state' && m.room === room) return m;
  }
  return null;
}

// Waits until every client in `cs` holds a state of `room` satisfying pred as its latest.
async function settle(cs, room, pred, what) {
  const end = Date.now() + 15000;
  for (;;) {
    if (cs.every((c) => { const st = latest(c, room); return st && pred(st); })) return;
    if (Date.now() > end) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

// The match waits for a human: finished, or a seat held by one of `humans` (seat -> client) is to act
// and its latest state offers it something the server will not play by itself.
function waitingForHuman(humans, autoroll) {
  return (st) => {
    if (st.status === 'finished') return true;
    if (st.status !== 'playing') return false;
    return st.to_act.some((seat) => {
      const c = humans[seat];
      if (!c) return false;
      const mine = latest(c, st.room);
      if (!mine || mine.ply !== st.ply || !mine.legal.length) return false;
      return !(autoroll && mine.legal.length === 1 && mine.legal[0].roll === true);
    });
  };
}

// Plays until the match ends or `plies` is reached: the human seat to act plays
// legal[(7 * ply + 3) % legal.length]. `all` are the clients following the room.
async function play(s, room, { humans, all, plies, autoroll = false, chooser }) {
  const idle = waitingForHuman(humans, autoroll);
  for (;;) {
    await settle(all, room, idle, `room ${room} to wait for a human`);
    const st = latest(all[0], room);
    if (st.status === 'finished' || st.ply >= plies) return st;
    const seat = st.to_act.find((k) => humans[k]);
    const c = humans[seat];
    const mine = latest(c, room);
    const action = chooser ? chooser(mine) : mine.legal[(7 * mine.ply + 3) % mine.legal.length];
    await s.send(c, { type: 'act', id: nid(), room, ply: mine.ply, action });
    await settle(all, room, (x) => x.ply > mine.ply || x.status === 'finished', `ply ${mine.ply + 1}`);
  }
}

// A watcher comes or goes: the other members get the new count of spectators from a timer of the
// lobby (or with the next state, whichever is first), so the script waits for it before going on.
async function spectate(s, c, msg, others, count) {
  const r = await s.request(c, msg);
  assert.equal(r.type, msg.type === 'watch' ? 'watching' : 'left', JSON.stringify(r));
  await settle(others, msg.room, (st) => st.spectators === count, `${count} spectators`);
}

// Requests that must be answered with an error of `code`; the answer is logged like any frame.
async function refused(s, c, msg, code) {
  const r = await s.request(c, msg, msg.id === undefined ? (m) => m.type === 'error' : undefined);
  assert.equal(r.type, 'error', `${JSON.stringify(msg)} answered ${JSON.stringify(r)}`);
  assert.equal(r.code, code, `${JSON.stringify(msg)} answered ${JSON.stringify(r)}`);
}

// The errors an `act` can get while the match is on: `seats` seat -> client, `watcher` seatless.
async function actErrors(s, room, seats, watcher) {
  const st = latest(watcher, room);
  const seat = st.to_act[0];
  const actor = seats[seat];
  const other = Object.entries(seats).find(([k, c]) => Number(k) !== seat && c)?.[1];
  const mine = latest(actor, room);
  const good = mine.legal[0];
  if (other) await refused(s, other, { type: 'act', id: nid(), room, ply: st.ply, action: good }, 'not_your_turn');
  await refused(s, actor, { type: 'act', id: nid(), room, ply: st.ply + 5, action: good }, 'stale_ply');
  await refused(s, actor, { type: 'act', id: nid(), room, ply: st.ply, action: { bogus: 1 } }, 'illegal_action');
  await refused(s, actor, { type: 'act', id: nid(), room, ply: 'x', action: good }, 'bad_message');
  await refused(s, watcher, { type: 'act', id: nid(), room, ply: st.ply, action: good }, 'not_in_room');
  await refused(s, actor, { type: 'act', id: nid(), room: 'nosuchroom', ply: 0, action: good }, 'unknown_room');
}

// Chat from a seat and from a watcher; every client in `all` receives both.
async function chat(s, room, from, all) {
  for (const [i, c] of from.entries()) {
    await s.send(c, { type: 'chat', id: nid(), room, text: `line ${i + 1} from ${s.labelOf(c)}: ¡hola! 🎲` });
    for (const x of all) await x.next((m) => m.type === 'chat' && m.text.startsWith(`line ${i + 1} `), 5000, 'a chat line');
  }
}

// The lobby, on a connection that asks once and closes. The server pushes `rooms` to those who asked, a
// second at most after a change: the script is quiet here (nothing changes while the lobby connection
// lives), and it first waits out a push that the last change may still have pending.
async function lobby(s) {
  await new Promise((r) => setTimeout(r, 1100));
  const l = await player(s, 'Lobby');
  const r = await s.request(l, { type: 'rooms', id: nid() });
  assert.equal(r.type, 'rooms');
  await s.close(l);
  await s.get('/api/rooms');
}

// The HTTP reads of a finished match.
async function archiveReads(s, room, game, name) {
  const end = Date.now() + 10000;
  for (;;) { // written asynchronously: wait for it without logging the 404s
    const r = await s.srv.http(`/api/matches/${room}`);
    if (r.status === 200) break;
    if (Date.now() > end) assert.fail(`no archive of ${room}`);
    await new Promise((res) => setTimeout(res, 20));
  }
  await s.get(`/api/matches/${room}`);
  const first = await s.get(`/api/matches/${room}/replay?from=0&limit=7`);
  await s.get(`/api/matches/${room}/replay?from=${first.json.next}&limit=5`);
  await s.get(`/api/matches/${room}/replay?from=${first.json.total - 1}`);
  await s.get(`/api/matches/${room}/replay?from=${first.json.total}`);
  await s.get(`/api/matches/${room}/replay?limit=01`);
  await s.get(`/replay/${room}?ply=3`);
  await s.get(`/api/matches?game=${game}`);
  await s.get(`/api/matches?game=${game}&player=${encodeURIComponent(name)}&result=won`);
  await s.get(`/api/players/${encodeURIComponent(name)}`);
  await s.get('/api/players/Nobody%20Here');
  await s.get('/api/matches/zzzzzzzzzz');
  await s.get('/api/matches?game=chess');
  await s.get('/api/rooms');
}

// Envelope errors on a fresh connection: before hello, bad JSON, not an object, bad id, bad type.
async function envelope(s) {
  const e = await s.connect('Eve');
  await refused(s, e, { type: 'rooms', id: nid() }, 'hello_required');
  await refused(s, e, '{"type":"hello",', 'bad_json');
  await refused(s, e, '{"type":"hello","name":"a","name":"b"}', 'bad_json');
  await refused(s, e, '[1,2]', 'bad_message');
  await refused(s, e, '{"type":"hello","id":1.5,"name":"Eve"}', 'bad_message');
  await refused(s, e, { type: 'Hello', id: nid(), name: 'Eve' }, 'bad_message');
  await refused(s, e, { type: 'hello', id: nid(), name: '' }, 'bad_message');
  await refused(s, e, { type: 'hello', id: nid(), name: 'x'.repeat(25) }, 'bad_message');
  const w = await s.request(e, { type: 'hello', id: nid(), name: 'Eve' });
  assert.equal(w.type, 'welcome');
  await refused(s, e, { type: 'create', id: nid(), game: 'chess' }, 'unknown_game');
  await refused(s, e, { type: 'join', id: nid(), room: 'nosuchroom' }, 'unknown_room');
  await refused(s, e, { type: 'watch', id: nid(), room: 'nosuchroom' }, 'unknown_room');
  await s.close(e);
}

// ---------------------------------------------------------------------------------------------
// The four scripts

// Ur: two humans and a watcher, autoroll, to the end of the match.
async function ur(s) {
  await envelope(s);
  const a = await player(s, 'Ana');
  const b = await player(s, 'Bruno');
  const w = await player(s, 'Wanda');
  await refused(s, a, { type: 'create', id: nid(), game: 'ur', options: { max_turns: 10 } }, 'bad_options');
  await refused(s, a, { type: 'create', id: nid(), game: 'ur', options: { autoroll: 1 } }, 'bad_options');
  const created = await s.request(a, { type: 'create', id: nid(), game: 'ur', options: { autoroll: true, stand_in_after_ms: 60000 } });
  const room = created.room.id;
  await s.request(w, { type: 'watch', id: nid(), room });
  await w.nextState(room);
  await s.request(a, { type: 'join', id: nid(), room, seat: 0, client_seed: 'Ana’s lucky seed ñ 🎲' });
  await refused(s, b, { type: 'join', id: nid(), room, seat: 0 }, 'seat_taken');
  await refused(s, b, { type: 'join', id: nid(), room, seat: 2 }, 'bad_message');
  await refused(s, a, { type: 'join', id: nid(), room, seat: 1 }, 'already_seated');
  await lobby(s);
  await s.request(b, { type: 'join', id: nid(), room, seat: 1, client_seed: 'bruno-42' });
  const all = [a, b, w];
  const humans = { 0: a, 1: b };
  await play(s, room, { humans, all, plies: 6, autoroll: true });
  await actErrors(s, room, humans, w);
  await chat(s, room, [a, w], all);
  // The watcher leaves for the long race (it would triple this recording) and comes back at the end.
  await spectate(s, w, { type: 'leave', id: nid(), room }, [a, b], 0);
  // Towards the end: the piece farthest on moves (a match of random choices is three times longer).
  const score = (x) => (x.bear_off ? 100 : x.move !== undefined ? x.move : x.enter !== undefined ? 0 : -1);
  const chooser = (st) => st.legal.reduce((best, x) => (score(x) > score(best) ? x : best));
  const final = await play(s, room, { humans, all: [a, b], plies: 100000, autoroll: true, chooser });
  assert.equal(final.status, 'finished');
  await spectate(s, w, { type: 'watch', id: nid(), room, since: final.ply - 3 }, [a, b], 1);
  await settle([w], room, (st) => st.status === 'finished', 'the watcher to see the end');
  await refused(s, a, { type: 'act', id: nid(), room, ply: final.ply, action: { roll: true } }, 'game_over');
  await refused(s, b, { type: 'resign', id: nid(), room }, 'game_over');
  await archiveReads(s, room, 'ur', 'Ana');
}

// Quinteto: the arranger is human, the five hunters greedy and random bots; a short max_turns ends it.
async function quinteto(s) {
  const a = await player(s, 'Ana');
  const b = await player(s, 'Bruno');
  const w = await player(s, 'Wanda');
  await refused(s, a, { type: 'create', id: nid(), game: 'quinteto', options: { max_turns: 9 } }, 'bad_options');
  const created = await s.request(a, { type: 'create', id: nid(), game: 'quinteto', options: { max_turns: 10, autoroll: true } });
  const room = created.room.id;
  await s.request(w, { type: 'watch', id: nid(), room });
  await w.nextState(room);
  await s.request(a, { type: 'join', id: nid(), room, seat: 5, client_seed: 'arranger' });
  await refused(s, b, { type: 'add_bot', id: nid(), room, seat: 0 }, 'not_in_room');
  await refused(s, a, { type: 'add_bot', id: nid(), room, seat: 0, level: 'genius' }, 'bad_message');
  await chat(s, room, [a, w], [a, w]);
  await lobby(s);
  const all = [a, w];
  for (const [seat, level] of [[0, 'greedy'], [1, 'random'], [2, 'greedy'], [3, 'greedy'], [4, undefined]]) {
    const msg = { type: 'add_bot', id: nid(), room, seat };
    if (level) msg.level = level;
    const r = await s.request(a, msg);
    assert.equal(r.type, 'bot_added');
    if (seat < 4) await settle(all, room, (st) => st.seats[seat].bot, `bot ${seat}`);
  }
  const humans = { 5: a };
  await play(s, room, { humans, all, plies: 0, autoroll: true });
  const st = latest(w, room);
  await refused(s, a, { type: 'act', id: nid(), room, ply: st.ply + 1, action: latest(a, room).legal[0] }, 'stale_ply');
  await refused(s, a, { type: 'act', id: nid(), room, ply: st.ply, action: { arrange: [0] } }, 'illegal_action');
  await refused(s, w, { type: 'act', id: nid(), room, ply: st.ply, action: latest(a, room).legal[0] }, 'not_in_room');
  const final = await play(s, room, { humans, all, plies: 100000, autoroll: true });
  assert.equal(final.status, 'finished');
  await refused(s, a, { type: 'resign', id: nid(), room }, 'game_over');
  await archiveReads(s, room, 'quinteto', 'Ana');
}

// Laquet: a human against a greedy bot, watched; the human resigns.
async function laquet(s) {
  const a = await player(s, 'Ana');
  const b = await player(s, 'Bruno');
  const w = await player(s, 'Wanda');
  await refused(s, a, { type: 'create', id: nid(), game: 'laquet', options: { clock: { per_action_ms: 5 } } }, 'bad_options');
  const created = await s.request(a, { type: 'create', id: nid(), game: 'laquet', options: { autoroll: false, stand_in_level: 'greedy', idle_after_ms: 60000 } });
  const room = created.room.id;
  await s.request(w, { type: 'watch', id: nid(), room });
  await w.nextState(room);
  await s.request(a, { type: 'join', id: nid(), room, seat: 0, client_seed: 'white' });
  await lobby(s);
  await refused(s, b, { type: 'resign', id: nid(), room }, 'not_in_room');
  await refused(s, a, { type: 'resign', id: nid(), room }, 'not_your_turn'); // PROTOCOL.md says bad_message
  const r = await s.request(a, { type: 'add_bot', id: nid(), room, level: 'greedy' });
  assert.equal(r.type, 'bot_added');
  const all = [a, w];
  const humans = { 0: a };
  await play(s, room, { humans, all, plies: 4 });
  await actErrors(s, room, humans, w);
  await chat(s, room, [w, a], all);
  await play(s, room, { humans, all, plies: 30 });
  const res = await s.request(a, { type: 'resign', id: nid(), room });
  assert.equal(res.type, 'resigned');
  await settle(all, room, (st) => st.status === 'finished', 'the end');
  await refused(s, a, { type: 'resign', id: nid(), room }, 'game_over');
  await archiveReads(s, room, 'laquet', 'Ana');
}

// Super 1 al 5: two humans and a watcher; the second resigns.
async function super15(s) {
  const a = await player(s, 'Ana');
  const b = await player(s, 'Bruno');
  const w = await player(s, 'Wanda');
  await refused(s, a, { type: 'create', id: nid(), game: 'super15', options: { autoroll: true } }, 'bad_options');
  const created = await s.request(a, { type: 'create', id: nid(), game: 'super15', options: { stand_in_after_ms: 0 } });
  const room = created.room.id;
  await s.request(w, { type: 'watch', id: nid(), room });
  await w.nextState(room);
  await s.request(a, { type: 'join', id: nid(), room, seat: 0, client_seed: 'uno' });
  await s.request(b, { type: 'join', id: nid(), room, client_seed: 'cinco' });
  const all = [a, b, w];
  const humans = { 0: a, 1: b };
  await settle(all, room, (st) => st.status === 'playing', 'the start');
  await lobby(s);
  await play(s, room, { humans, all, plies: 5 });
  await actErrors(s, room, humans, w);
  await refused(s, a, { type: 'mute', id: nid(), room, seat: 0, muted: true }, 'bad_message');
  const m = await s.request(b, { type: 'mute', id: nid(), room, spectators: true, muted: true });
  assert.equal(m.type, 'muted');
  await chat(s, room, [a], all);
  await s.send(w, { type: 'chat', id: nid(), room, text: 'muted by Bruno' });
  for (const x of [a, w]) await x.next((msg) => msg.type === 'chat' && msg.text === 'muted by Bruno', 5000, 'the muted line');
  await play(s, room, { humans, all, plies: 16 });
  const res = await s.request(b, { type: 'resign', id: nid(), room });
  assert.equal(res.type, 'resigned');
  await settle(all, room, (st) => st.status === 'finished', 'the end');
  await archiveReads(s, room, 'super15', 'Ana');
}

for (const [game, script] of Object.entries({ ur, quinteto, laquet, super15 })) {
  test(`the ${game} session is byte for byte the recorded one`, { timeout: 120000 }, async () => {
    let lines;
    await withServer(SERVER, async (srv) => {
      ids = 0;
      const s = new Session(srv);
      await script(s);
      await s.sync();
      lines = s.lines;
    });
    await compare(game, lines);
  });
}
