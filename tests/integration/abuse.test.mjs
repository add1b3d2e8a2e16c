// abuse.test.mjs: the attacks of a hosted instance's review, each run while an honest pair plays an
// Ur match: the pair's move round trip (an `act` to the state that shows it) is measured during the
// attack and its median must stay within a bound generous enough for a loaded 2-core machine.
//  - lobby flood: many connections from one address creating rooms: caps per player, per address
//    and in all answer `too_many_rooms`; the room list stays capped (newest N and a `total`);
//    one large frame into an empty write queue is not a slow reader.
//  - watch/lobby churn: connections alternating `watch` and `rooms` over many rooms.
//  - rooms that never end: an abandoned match ends by forfeit (live, and restored at start-up);
//    a match with one player still connected does not; matches of bots only are capped.
//  - connections: no `hello` in time closes 1008; idle WebSockets are pinged.

import test from 'node:test';
import { connect as netConnect } from 'node:net';
import {
  assert, withServer, Server, createRoom, joinRoom, watchRoom, autoplay, sleep, until, WebSocket, SUBPROTOCOL,
} from './lib.mjs';

const MEDIAN_BOUND_MS = 400; // an honest move's median round trip under attack (quiet machine: ~5 ms)

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };
const latestState = (c, room) => c.messages.findLast((m) => m.type === 'state' && m.room === room);

// An honest pair seated in a fresh Ur match (before any attack: they share the attackers' address).
async function honestPair(srv, tag = '') {
  const a = await srv.player(`Ana${tag}`), b = await srv.player(`Bea${tag}`);
  const { id } = await createRoom(a, 'ur');
  await joinRoom(a, id, { seat: 0 });
  await joinRoom(b, id, { seat: 1 });
  return { a, b, id };
}

// Plays up to `moves` actions (fewer if the match ends), each a random legal one of the seat to
// act; resolves with each action's round trip in ms.
async function play({ a, b, id }, moves) {
  const rtts = [];
  let ply = Math.max(latestState(a, id).ply, latestState(b, id).ply);
  for (let i = 0; i < moves; i++) {
    const [c, st] = await until(() => {
      for (const x of [a, b]) {
        const s = latestState(x, id);
        if (s && s.ply >= ply && (s.legal.length || s.status === 'finished')) return [x, s];
      }
      return null;
    }, { timeoutMs: 20000, interval: 2, what: `a seat to act at ply ${ply}` });
    if (st.status !== 'playing') break;
    ply = st.ply;
    const action = st.legal[Math.floor(Math.random() * st.legal.length)];
    const t0 = performance.now();
    const seen = c.nextState(id, (m) => m.ply > ply || m.status === 'finished', 20000);
    await c.send({ type: 'act', room: id, ply, action });
    const next = await seen;
    rtts.push(performance.now() - t0);
    ply = next.ply;
    if (next.status === 'finished') break;
  }
  return rtts;
}

function assertHonest(rtts, what) {
  assert.ok(rtts.length >= 10, `${what}: the honest pair played only ${rtts.length} moves`);
  const m = median(rtts);
  assert.ok(m < MEDIAN_BOUND_MS, `${what}: honest moves took ${m.toFixed(0)} ms (median of ${rtts.length}); max ${Math.max(...rtts).toFixed(0)} ms`);
}

test('lobby flood: room caps per player and per address, a capped list, the pair plays on', { timeout: 60000 }, async () => {
  await withServer({ args: ['--max-rooms-per-player', '3', '--max-rooms-per-addr', '30', '--lobby-list-max', '12'] }, async (srv) => {
    const pair = await honestPair(srv);
    const watcher = await srv.player('Lobby');
    const first = await watcher.request({ type: 'rooms' });
    assert.equal(first.total, 1);

    const attackers = await Promise.all([...Array(24).keys()].map((i) => srv.player(`Flood${i}`)));
    let stop = false;
    const told = attackers.map(() => []);
    const flood = attackers.map(async (c, i) => {
      const codes = told[i];
      while (!stop) {
        const r = await c.request({ type: 'create', game: 'ur' }, 10000);
        codes.push(r.type === 'created' ? 'created' : r.code);
        if (r.type !== 'created' && r.code !== 'too_many_rooms') assert.fail(`create answered ${JSON.stringify(r)}`);
        await c.request({ type: 'rooms' }, 10000); // the list, as a browser asks for it
        await sleep(110); // two messages a round: within the rate limit (20 a second), as the attack was
      }
      return codes;
    });
    const rtts = await play(pair, 30);
    // the flood goes on until every flooder has met a cap
    await until(() => told.every((cs) => cs.includes('too_many_rooms')), { timeoutMs: 30000, what: 'every flooder capped' });
    stop = true;
    const codes = await Promise.all(flood);
    assertHonest(rtts, 'lobby flood');

    const created = codes.flat().filter((c) => c === 'created').length;
    assert.equal(created, 30, 'the address holds 30 waiting rooms, no more');
    for (const cs of codes) assert.ok(cs.filter((c) => c === 'created').length <= 3, `one player created ${cs.length}`);
    assert.ok(codes.every((cs) => cs.includes('too_many_rooms')), 'every flooder was told too_many_rooms');
    const list = await watcher.request({ type: 'rooms' });
    assert.equal(list.rooms.length, 12, 'the list holds the newest 12');
    assert.equal(list.total, 31);
    assert.ok(list.rooms.every((r, i) => i === 0 || r.created_at <= list.rooms[i - 1].created_at), 'newest first');
    const api = await srv.getJson('/api/rooms');
    assert.equal(api.rooms.length, 12);
    assert.equal(api.total, 31);
    assert.ok(watcher.isOpen && pair.a.isOpen && pair.b.isOpen, 'nobody honest was closed');

    // A started room no longer counts against its creator: it may create again.
    const f0 = attackers[0];
    const mine = (await f0.request({ type: 'rooms' })).rooms.find((r) => r.seats.every((s) => !s.name));
    assert.equal((await f0.request({ type: 'create', game: 'ur' })).code, 'too_many_rooms');
    if (mine) {
      await joinRoom(f0, mine.id, { seat: 0 });
      const joined = await srv.player('Joiner');
      await joinRoom(joined, mine.id, { seat: 1 }); // started: f0 and the address are under their caps again
      assert.equal((await f0.request({ type: 'create', game: 'ur' })).type, 'created');
    }
    const m = await srv.metrics();
    assert.ok(Object.entries(m).some(([k, v]) => k.includes('too_many_rooms') && v > 0), 'too_many_rooms is counted');
  });
});

test('the total room cap; one large frame into an empty queue is not a slow reader', { timeout: 60000 }, async () => {
  // One address may hold 39 of the 40 rooms (never all: the cap must be under max_rooms); the pair
  // plays from another.
  await withServer({ args: ['--max-rooms', '40', '--max-rooms-per-player', '100', '--max-live-rooms-per-addr', '39', '--lobby-list-max', '1000', '--max-queue-bytes', '4096', '--rate', '1000', '--burst', '1000'] }, async (srv) => {
    srv.wsOptions = { localAddress: '127.0.0.2' };
    const pair = await honestPair(srv);
    srv.wsOptions = undefined;
    const c = await srv.player('Many');
    const watcher = await srv.player('Watcher');
    await watcher.request({ type: 'rooms' }); // subscribed: it gets the pushes too
    const flood = (async () => {
      let n = 0;
      for (;;) {
        const r = await c.request({ type: 'create', game: 'ur' });
        if (r.type !== 'created') { assert.equal(r.code, 'too_many_rooms', JSON.stringify(r)); return n; }
        n++;
      }
    })();
    const rtts = await play(pair, 20);
    assert.equal(await flood, 39, '40 live rooms in all, the pair\'s included');
    assertHonest(rtts, 'total cap');
    const r = await watcher.request({ type: 'rooms' });
    assert.ok(JSON.stringify(r).length > 4096, 'the list is larger than the queue cap');
    assert.equal(r.rooms.length, 40);
    await sleep(1500); // a push of the same size follows any change
    assert.ok(watcher.isOpen, `the watcher was closed: ${JSON.stringify(watcher.closeInfo)}`);
  });
});

test('watch/lobby churn over many rooms: the pair plays on', { timeout: 90000 }, async (t) => {
  await withServer({ args: ['--max-rooms-per-player', '10000', '--max-rooms-per-addr', '100000', '--max-live-rooms-per-player', '10000', '--max-live-rooms-per-addr', '1999', '--max-matches-per-addr-hour', '100000', '--rate', '100000', '--burst', '100000'] }, async (srv) => {
    const pair = await honestPair(srv);
    const maker = await srv.player('Maker');
    const ids = [];
    for (let i = 0; i < 1950; i += 50) {
      const rs = await Promise.all([...Array(50).keys()].map(() => maker.request({ type: 'create', game: 'ur' })));
      for (const r of rs) assert.equal(r.type, 'created', JSON.stringify(r));
      ids.push(...rs.map((r) => r.room.id));
    }
    // the churners use bare sockets: the harness would parse and schema-check every long list, and
    // that client-side work on this same machine would be measured as the server's
    let stop = false, requests = 0;
    const churn = [...Array(48).keys()].map(async (k) => {
      const ws = new WebSocket(srv.wsUrl, SUBPROTOCOL);
      await new Promise((r, j) => { ws.once('open', r); ws.once('error', j); });
      let waiting = null;
      ws.on('message', (d) => { const m = /"id":"(c\d+)"/.exec(d.toString().slice(0, 200)); if (m && waiting && waiting.id === m[1]) waiting.resolve(d.toString()); });
      const ask = (msg) => new Promise((resolve) => { waiting = { id: msg.id, resolve }; ws.send(JSON.stringify(msg)); });
      await ask({ type: 'hello', name: `Churn${k}`, id: 'c0' });
      let n = 1;
      for (let i = k; !stop; i += 7) {
        await ask({ type: 'watch', room: ids[i % ids.length], id: `c${n++}` });
        const text = await ask({ type: 'rooms', id: `c${n++}` });
        requests += 2;
        if (requests % 200 < 2) {
          const r = JSON.parse(text);
          assert.ok(r.rooms.length <= 100 && r.total === ids.length + 1, `rooms: ${r.rooms.length} of ${r.total}`);
        }
      }
      ws.close();
    });
    await sleep(300);
    const rtts = await play(pair, 30);
    stop = true;
    await Promise.all(churn);
    // Before the list was capped and each room's summary cached, every rooms request rebuilt the
    // whole list: the churn got ~200 requests served in the time of the pair's moves (checked).
    assert.ok(requests > 500, `the churn had only ${requests} requests served`);
    assertHonest(rtts, 'watch/lobby churn');
    t.diagnostic(`honest move median ${median(rtts).toFixed(1)} ms over ${rtts.length}, ${requests} churn requests`);
  });
});

test('abandoned matches end by forfeit; a match with a player still there does not', { timeout: 60000 }, async () => {
  await withServer({ args: ['--abandon-timeout-s', '2'] }, async (srv) => {
    const pair = await honestPair(srv, '1');
    const gone = await honestPair(srv, '2');
    const half = await honestPair(srv, '3');
    await play(gone, 4);
    await Promise.all([gone.a.close(), gone.b.close(), half.a.close()]);
    const t0 = Date.now();
    const rtts = [];
    while (Date.now() - t0 < 9000) rtts.push(...await play(pair, 5));
    assertHonest(rtts, 'abandon');
    const rec = await srv.archive(gone.id, { timeoutMs: 15000 });
    const forfeits = rec.events.filter((e) => e.kind === 'forfeit');
    assert.ok(forfeits.length >= 1 && forfeits.every((e) => e.kind === 'forfeit'), JSON.stringify(rec.events));
    assert.equal(forfeits[0].ply, rec.actions.length, 'the forfeit comes after the actions played');
    assert.equal((await srv.http(`/api/matches/${half.id}`, { validate: false })).status, 404, 'a match with one player connected goes on');
    const st = await watchRoom(half.b, half.id);
    assert.equal(st.status, 'playing');
  });
});

test('an abandoned match restored at start-up is forfeited, counted from its last activity', { timeout: 60000 }, async () => {
  const srv1 = await Server.start({});
  const dir = srv1.dir;
  let id;
  try {
    const gone = await honestPair(srv1);
    id = gone.id;
    await play(gone, 3);
  } finally {
    srv1.keepDir = true;
    await srv1.stop();
  }
  await sleep(1500);
  const srv2 = await Server.start({ dir, args: ['--abandon-timeout-s', '1'] });
  try {
    const pair = await honestPair(srv2);
    const rtts = await play(pair, 15);
    const rec = await srv2.archive(id, { timeoutMs: 15000 });
    assert.ok(rec.events.some((e) => e.kind === 'forfeit'), JSON.stringify(rec.events));
    assertHonest(rtts, 'restored abandon');
  } finally {
    srv2.keepDir = false;
    await srv2.stop();
  }
});

test('matches of bots only are capped with too_many_rooms', { timeout: 60000 }, async () => {
  await withServer({ args: ['--max-bot-rooms', '3', '--bot-delay-ms', '1000'] }, async (srv) => {
    const pair = await honestPair(srv);
    const c = await srv.player('Botter');
    for (let i = 0; i < 3; i++) {
      const { id } = await createRoom(c, 'ur');
      assert.equal((await c.request({ type: 'add_bot', room: id })).type, 'bot_added');
      assert.equal((await c.request({ type: 'add_bot', room: id })).type, 'bot_added');
    }
    const { id } = await createRoom(c, 'ur');
    assert.equal((await c.request({ type: 'add_bot', room: id })).type, 'bot_added');
    const r = await c.request({ type: 'add_bot', room: id });
    assert.equal(r.code, 'too_many_rooms', JSON.stringify(r));
    const st = await watchRoom(c, id);
    assert.equal(st.status, 'waiting', 'the refused room is untouched');
    assert.equal(st.seats.filter((s) => s.bot).length, 1);
    // a human may still take the seat
    await joinRoom(c, id, {});
    assertHonest(await play(pair, 12), 'bot cap');
  });
});

test('no hello in time closes 1008; idle WebSockets are pinged', { timeout: 60000 }, async () => {
  await withServer({ args: ['--hello-timeout-s', '1', '--ping-interval-s', '1'] }, async (srv) => {
    const pair = await honestPair(srv);
    const silent = await srv.connect({ label: 'silent' });
    const pinged = await srv.player('Pinged');
    let pings = 0;
    pinged.ws.on('ping', () => { pings++; });
    const rtts = await play(pair, 10);
    const info = await silent.waitClosed(8000);
    assert.equal(info.code, 1008, JSON.stringify(info));
    await until(() => pings >= 1, { timeoutMs: 8000, what: 'a ping' });
    await sleep(2500);
    assert.ok(pinged.isOpen && pair.a.isOpen, 'a client that said hello and answers pings stays');
    assertHonest(rtts.concat(await play(pair, 10)), 'hello timeout');
    const m = await srv.metrics();
    assert.ok(Object.entries(m).some(([k, v]) => k.startsWith('quinteto_closed_no_hello_total') && v >= 1));
  });
});

test('identities: tokenless hellos expire unless they hold a seat or played a match; none loaded at start', { timeout: 60000 }, async () => {
  const srv1 = await Server.start({ args: ['--player-ttl-s', '2', '--new-players-burst', '1000'] });
  const dir = srv1.dir;
  srv1.keepDir = true;
  let seated, played, seatedId, playedId;
  try {
    const pair = await honestPair(srv1);
    // a flood of tokenless hellos, each a new identity, while the pair plays
    const flood = (async () => {
      const tokens = [];
      for (let i = 0; i < 10; i++) {
        const cs = await Promise.all([...Array(20).keys()].map((k) => srv1.player(`Id${i}-${k}`)));
        tokens.push(...cs.map((c) => c.welcome.token));
        await Promise.all(cs.map((c) => c.close()));
      }
      return tokens;
    })();
    const rtts = await play(pair, 20);
    const tokens = await flood;
    assertHonest(rtts, 'identity flood');
    // one keeps a seat in a waiting room, one plays a match to its end (a resignation)
    const s = await srv1.player('Seated');
    const { id: waitingRoom } = await createRoom(s, 'ur');
    await joinRoom(s, waitingRoom, { seat: 0 });
    seated = s.welcome.token; seatedId = s.welcome.player;
    const p = await srv1.player('Played');
    const { id: botRoom } = await createRoom(p, 'ur');
    await joinRoom(p, botRoom, { seat: 0 });
    assert.equal((await p.request({ type: 'add_bot', room: botRoom })).type, 'bot_added');
    await p.nextState(botRoom, (m) => m.status === 'playing');
    assert.equal((await p.request({ type: 'resign', room: botRoom })).type, 'resigned');
    await srv1.archive(botRoom);
    played = p.welcome.token; playedId = p.welcome.player;
    await Promise.all([s.close(), p.close()]);
    // past the TTL and a housekeeping pass: the flood's identities are gone, the others stay
    let k = 0; // each try uses another token: a hello refreshes the identity it resumes
    await until(async () => {
      const t = tokens[k++];
      const c = await srv1.player('Again', { token: t });
      const fresh = c.welcome.token !== t;
      await c.close();
      return fresh;
    }, { timeoutMs: 20000, interval: 1000, what: 'a flood identity to expire' });
    for (const [token, pid] of [[seated, seatedId], [played, playedId]]) {
      const c = await srv1.player('Back', { token });
      assert.equal(c.welcome.player, pid, 'an identity with a seat or an archived match is kept');
      await c.close();
    }
    const m = await srv1.metrics();
    assert.ok(m.quinteto_players_known < 50, `identities held in memory: ${m.quinteto_players_known}`);
  } finally {
    await srv1.stop();
  }
  const srv2 = await Server.start({ dir });
  try {
    const m = await srv2.metrics();
    assert.equal(m.quinteto_players_known, 3, 'only the seated identities (the pair, Seated) are loaded at start');
    const c = await srv2.player('Played', { token: played });
    assert.equal(c.welcome.player, playedId, 'an identity not loaded at start is found by its token');
    const c2 = await srv2.player('Seated', { token: seated });
    assert.equal(c2.welcome.player, seatedId);
    assert.equal(c2.welcome.rooms.length, 1, 'and its seat');
  } finally {
    srv2.keepDir = false;
    await srv2.stop();
  }
});

// A raw HTTP/1.1 GET on its own connection that reads nothing until told: resolves with the status
// line's code and the body once read (paused sockets let the server's answers pile up unread).
function rawGet(port, path) {
  return new Promise((resolve, reject) => {
    const sock = netConnect(port, '127.0.0.1');
    const chunks = [];
    sock.pause();
    sock.on('error', reject);
    sock.on('data', (b) => chunks.push(b));
    sock.on('end', () => {
      const text = Buffer.concat(chunks).toString();
      const status = Number(text.split(' ')[1]);
      resolve({ status, body: text.slice(text.indexOf('\r\n\r\n') + 4) });
    });
    sock.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
    sock.resumeLater = () => sock.resume();
    resolve.sock = sock;
    rawGet.open.push(sock);
  });
}
rawGet.open = [];

test('HTTP: unread answers are budgeted (503 busy), strict parameters, 405 in JSON', { timeout: 60000 }, async () => {
  await withServer({ args: ['--http-body-mem', '65536', '--lobby-list-max', '1000', '--max-rooms-per-player', '1000', '--max-rooms-per-addr', '1000', '--max-live-rooms-per-player', '1000', '--max-live-rooms-per-addr', '1000', '--rate', '1000', '--burst', '1000'] }, async (srv) => {
    const pair = await honestPair(srv);
    // a room list far larger than a client's share of the budget (8 KiB)
    const maker = await srv.player('Maker');
    await Promise.all([...Array(300).keys()].map(() => createRoom(maker, 'ur')));
    const size = (await srv.http('/api/rooms')).text.length;
    assert.ok(size > 65536, `the list is ${size} bytes`);

    rawGet.open = [];
    const answers = Promise.all([...Array(40).keys()].map(() => rawGet(srv.port, '/api/rooms')));
    const rtts = await play(pair, 10);
    for (const s of rawGet.open) s.resume();
    const got = await answers;
    const busy = got.filter((g) => g.status === 503), ok = got.filter((g) => g.status === 200);
    assert.equal(busy.length + ok.length, got.length, JSON.stringify(got.map((g) => g.status)));
    assert.ok(ok.length >= 1, 'some were answered');
    assert.ok(busy.length >= 1, 'past the budget: 503');
    for (const b of busy) assert.equal(JSON.parse(b.body).error, 'busy');
    assertHonest(rtts.concat(await play(pair, 10)), 'unread HTTP answers');
    // once read, the budget is free again
    assert.equal((await srv.http('/api/rooms')).status, 200);
    const m = await srv.metrics();
    assert.ok(m.quinteto_http_busy_total >= busy.length);

    // strict parameters: cut short or trailing garbage are 400, never ignored
    for (const q of ['limit=000000000000001xyz', 'limit=01', `player=${'a'.repeat(300)}`, 'limit=5&limit=6', 'before=1x']) {
      const r = await srv.http(`/api/matches?${q}`);
      assert.equal(r.status, 400, `${q}: ${r.status} ${r.text}`);
      assert.equal(r.json.error, 'bad_request');
    }
    // other methods than GET and HEAD: 405 in JSON, on the API and on static files alike
    for (const [method, path] of [['POST', '/index.html'], ['PUT', '/'], ['DELETE', '/api/rooms'], ['POST', '/api/matches']]) {
      const r = await srv.http(path, { method, body: method === 'POST' ? 'x=1' : undefined });
      assert.equal(r.status, 405, `${method} ${path}: ${r.status}`);
      assert.equal(r.json.error, 'method_not_allowed');
    }
  });
});

test('per-address cap counts HTTP connections too; refusals are logged at most once a second', { timeout: 60000 }, async () => {
  await withServer({ args: ['--max-conns-per-addr', '8'] }, async (srv) => {
    const pair = await honestPair(srv); // 2 of the address's 8
    const held = [];
    for (let i = 0; i < 6; i++) { // idle HTTP keep-alive connections, never finishing a request
      const s = netConnect(srv.port, '127.0.0.1');
      s.on('error', () => {});
      await new Promise((r) => s.once('connect', r));
      s.write('GET /healthz HTTP/1.1\r\nHost: x\r\n'); // headers never end
      held.push(s);
    }
    await sleep(200);
    const refused = async () => {
      const r = await fetch(`${srv.url}/healthz`).then((x) => x.status).catch(() => 'reset');
      return r;
    };
    let n = 0;
    const flood = (async () => { for (let i = 0; i < 150; i++) { if ((await refused()) !== 200) n++; } })();
    const rtts = await play(pair, 15);
    await flood;
    assert.ok(n >= 140, `only ${n} of 150 HTTP requests over the cap were refused`);
    assertHonest(rtts, 'per-address cap');
    for (const s of held) s.destroy();
    await until(async () => (await refused()) === 200, { timeoutMs: 5000, what: 'HTTP served again' });
    const lines = srv.stderr.split('\n').filter((l) => l.includes('net: refusing a connection from')).length;
    assert.ok(lines >= 1 && lines <= 8, `${lines} refusal lines for 150 refusals`);
    const m = await srv.metrics();
    assert.ok(m['quinteto_connections_refused_total{reason="addr"}'] >= 140);
  });
});
