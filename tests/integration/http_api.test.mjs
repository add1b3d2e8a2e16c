// http_api.test.mjs: the read-only HTTP side of the server: /healthz, /metrics, /api/rooms, /api/games,
// /api/matches (pagination, filters), /api/matches/{id}, methods other than GET, the web client's
// static files and /ws without an upgrade. Every JSON answer of the API is validated against its
// schema by lib.mjs.

import test from 'node:test';
import net from 'node:net';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import {
  assert, withServer, createRoom, joinRoom, watchRoom, until, parseMetrics, WebSocket,
} from './lib.mjs';
import { playAgainstBots, watchBotMatch } from '../lib/match.mjs';

// Metric families the server exposes (server/metrics.c; not documented elsewhere yet).
const METRICS = {
  gauge: ['quinteto_connections', 'quinteto_rooms', 'quinteto_players_known', 'quinteto_frames_alive',
    'quinteto_store_queue', 'quinteto_uptime_seconds'],
  counter: ['quinteto_ws_opened_total', 'quinteto_ws_closed_total', 'quinteto_http_requests_total',
    'quinteto_messages_in_total', 'quinteto_messages_out_total', 'quinteto_bytes_out_total',
    'quinteto_actions_total', 'quinteto_bot_actions_total', 'quinteto_matches_started_total',
    'quinteto_matches_finished_total', 'quinteto_archive_writes_total', 'quinteto_archive_failures_total',
    'quinteto_players_created_total', 'quinteto_slow_consumers_dropped_total', 'quinteto_rate_limited_total',
    'quinteto_closed_too_large_total', 'quinteto_closed_binary_total', 'quinteto_errors_total',
    'quinteto_checkpoints_total'],
  histogram: ['quinteto_move_broadcast_seconds'],
};

// Bots that hardly wait: a bot-vs-bot match in about a second. (Not 0: then a whole match can be
// played within one turn of the server's loop, and a watcher's write queue overflows.)
const FAST_BOTS = { botDelayMs: 1 };

// A bot-vs-bot match watched by c; resolves with the final state.
const botMatch = (c) => watchBotMatch(c);

// A human (c, seat 0) against a bot, to the end; resolves with the final state.
const humanMatch = async (c) => (await playAgainstBots(c.srv, 'ur', { client: c })).final;

test('GET /healthz', { timeout: 20000 }, async () => {
  await withServer(async (srv) => {
    const r = await srv.http('/healthz');
    assert.equal(r.status, 200);
    assert.match(r.ctype, /^application\/json/);
    assert.equal(r.json.status, 'ok');
    assert.equal(r.json.connections, 0);
    assert.equal(r.json.rooms, 0);
    const a = await srv.player('H');
    await srv.connect();
    await createRoom(a, 'ur');
    await createRoom(a, 'ur');
    const h = await srv.getJson('/healthz');
    assert.equal(h.connections, 2);
    assert.equal(h.rooms, 2);
    assert.ok(h.uptime_ms >= r.json.uptime_ms);
    assert.ok(h.version.length > 0);
    // query strings do not matter
    assert.equal((await srv.http('/healthz?x=1')).status, 200);
  });
});

test('GET /metrics: Prometheus text, the metric families, counters increase after a match', { timeout: 40000 }, async () => {
  await withServer(FAST_BOTS, async (srv) => {
    const r = await srv.http('/metrics');
    assert.equal(r.status, 200);
    assert.match(r.ctype, /^text\/plain/);
    assert.match(r.ctype, /version=0\.0\.4/);
    // the exposition format: HELP and TYPE once per family, before its samples; samples parse
    const types = new Map();
    for (const line of r.text.split('\n')) {
      if (!line) continue;
      let m;
      if ((m = /^# TYPE (\S+) (counter|gauge|histogram|summary|untyped)$/.exec(line))) {
        assert.ok(!types.has(m[1]), `TYPE twice for ${m[1]}`);
        types.set(m[1], m[2]);
      } else if (line.startsWith('# HELP ')) {
        continue;
      } else {
        m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[a-zA-Z_][a-zA-Z0-9_]*="[^"]*"(,[a-zA-Z_][a-zA-Z0-9_]*="[^"]*")*\})? (\S+)$/.exec(line);
        assert.ok(m, `not a sample line: ${line}`);
        assert.ok(!Number.isNaN(Number(m[4])), `value of ${line}`);
        const fam = m[1].replace(/_(bucket|sum|count)$/, '');
        assert.ok(types.has(m[1]) || types.get(fam) === 'histogram', `sample before its TYPE: ${line}`);
      }
    }
    assert.ok(r.text.endsWith('\n'));
    for (const [type, names] of Object.entries(METRICS))
      for (const n of names) assert.equal(types.get(n), type, `${n} is a ${type}`);
    const before = parseMetrics(r.text);
    for (const code of ['bad_json', 'bad_message', 'rate_limited', 'internal'])
      assert.ok(`quinteto_errors_total{code="${code}"}` in before, `errors_total has code ${code}`);
    assert.equal(before['quinteto_move_broadcast_seconds_bucket{le="+Inf"}'], before.quinteto_move_broadcast_seconds_count);

    const c = await srv.player('Metric');
    await c.send('{bad');
    await c.next((m) => m.type === 'error');
    await botMatch(c);
    await humanMatch(c);
    const after = await until(async () => {
      const m = await srv.metrics();
      return m.quinteto_archive_writes_total >= 2 ? m : null;
    }, { what: 'two archive writes' });
    const grew = (n, by = 1) => assert.ok(after[n] >= (before[n] || 0) + by, `${n}: ${before[n]} -> ${after[n]}`);
    grew('quinteto_matches_started_total', 2);
    grew('quinteto_matches_finished_total', 2);
    grew('quinteto_archive_writes_total', 2);
    grew('quinteto_actions_total', 50);
    grew('quinteto_bot_actions_total', 25);
    grew('quinteto_ws_opened_total');
    grew('quinteto_messages_in_total', 5);
    grew('quinteto_messages_out_total', 50);
    grew('quinteto_bytes_out_total', 5000);
    grew('quinteto_players_created_total');
    grew('quinteto_http_requests_total');
    grew('quinteto_errors_total{code="bad_json"}');
    grew('quinteto_move_broadcast_seconds_count', 10);
    assert.equal(after.quinteto_archive_failures_total, 0);
    assert.equal(after.quinteto_connections, 1);
    assert.ok(after.quinteto_players_known >= 1);
    assert.ok(after.quinteto_actions_total >= after.quinteto_bot_actions_total);
    // histogram buckets are cumulative
    const buckets = Object.entries(after).filter(([k]) => k.startsWith('quinteto_move_broadcast_seconds_bucket'));
    for (let i = 1; i < buckets.length; i++) assert.ok(buckets[i][1] >= buckets[i - 1][1], `bucket ${buckets[i][0]}`);
  });
});

test('GET /api/rooms matches the rooms message', { timeout: 30000 }, async () => {
  await withServer(async (srv) => {
    const a = await srv.player('Lobbyist');
    const b = await srv.player('Other');
    assert.deepEqual((await srv.getJson('/api/rooms')).rooms, []);
    const r1 = await createRoom(a, 'ur');
    const r2 = await createRoom(a, 'ur', { autoroll: true });
    await joinRoom(a, r1.id, { seat: 1, client_seed: 'x' });
    await joinRoom(a, r2.id, { seat: 0 });
    await joinRoom(b, r2.id, { seat: 1 }); // starts r2
    await watchRoom(b, r1.id);
    const msg = await b.request({ type: 'rooms' });
    const api = await srv.getJson('/api/rooms');
    assert.deepEqual(api.rooms, msg.rooms);
    assert.equal(api.rooms.length, 2);
    const byId = Object.fromEntries(api.rooms.map((r) => [r.id, r]));
    assert.deepEqual(byId[r1.id].seats, [{ seat: 0, role: 'light', name: null, bot: false }, { seat: 1, role: 'dark', name: 'Lobbyist', bot: false }]);
    assert.equal(byId[r1.id].status, 'waiting');
    assert.equal(byId[r1.id].watchers, 1);
    assert.deepEqual(byId[r1.id].options, {});
    assert.equal(byId[r2.id].status, 'playing');
    assert.deepEqual(byId[r2.id].options, { autoroll: true });
    assert.equal(byId[r2.id].watchers, 0);
    assert.equal(byId[r1.id].created_at, r1.created_at);
    // newest first
    assert.ok(api.rooms[0].created_at >= api.rooms[1].created_at);
  });
});

// The web client builds its game list from this answer (clients/web/games/registry.js), so it must
// be the registry itself: the same ids in the same order as /metrics counts rooms by game (one walk of
// the registry each), every id one the server plays, and every game the web client has a module for
// (clients/web/games/<id>/<id>.js) among them.
test('GET /api/games: the games of the registry, in its order', { timeout: 30000 }, async () => {
  await withServer(async (srv) => {
    const { games, levels } = await srv.getJson('/api/games');
    assert.ok(games.length >= 1, 'at least one game');
    // (issue 22) each game's bot levels: every one is a level add_bot accepts for it, random among them
    assert.deepEqual(Object.keys(levels), games, 'the levels of every game');
    const metrics = (await srv.http('/metrics')).text;
    const counted = [...metrics.matchAll(/^quinteto_rooms_by_status\{game="([^"]+)",status="waiting"\}/gm)].map((m) => m[1]);
    assert.deepEqual(games, counted, 'the order of the registry');
    const a = await srv.player('Lister');
    for (const g of games) {
      assert.equal((await a.request({ type: 'create', game: g })).type, 'created', `create ${g}`);
      assert.ok(levels[g].includes('random'), `${g}: random`);
      const b = await srv.player(`Levels ${games.indexOf(g)}`); // a player's waiting rooms are capped
      for (const level of levels[g]) { // a room of its own for each, one bot in it
        const { room } = await b.request({ type: 'create', game: g });
        const r = await b.request({ type: 'add_bot', room: room.id, seat: 0, level });
        assert.equal(r.type, 'bot_added', `${g}: add_bot ${level}: ${JSON.stringify(r)}`);
      }
      assert.equal((await srv.http(`/api/matches?game=${encodeURIComponent(g)}`)).status, 200, `the archive knows ${g}`);
    }
    const webGames = path.join(process.env.QUINTETO_SOURCE, 'clients', 'web', 'games');
    const modules = readdirSync(webGames, { withFileTypes: true })
      .filter((e) => e.isDirectory() && existsSync(path.join(webGames, e.name, `${e.name}.js`))).map((e) => e.name);
    assert.ok(modules.length >= 1, 'the web client has game modules');
    for (const id of modules) assert.ok(games.includes(id), `the web module ${id} is a game the server hosts`);
    const head = await fetch(`${srv.url}/api/games`, { method: 'HEAD', signal: AbortSignal.timeout(3000) });
    assert.equal(head.status, 200);
    assert.equal(await head.text(), '', 'HEAD: no body');
  });
});

// Three bot-vs-bot matches and one of a human (a) against a bot; returns the full list, checked
// against the archives.
async function fourMatches(srv) {
  const a = await srv.player('Archivist');
  const bots = await Promise.all([0, 1, 2].map(async (i) => botMatch(await srv.player(`Botwatcher${i}`))));
  const human = await humanMatch(a);
  const ids = [...bots.map((s) => s.room), human.room];
  const archives = {};
  for (const id of ids) archives[id] = await srv.archive(id);
  const all = await srv.getJson('/api/matches');
  assert.equal(all.next, null);
  assert.deepEqual(new Set(all.matches.map((m) => m.id)), new Set(ids));
  for (const m of all.matches) {
    const arch = archives[m.id];
    assert.deepEqual(m, { id: arch.id, game: arch.game, started_at: arch.started_at, ended_at: arch.ended_at, plies: arch.actions.length, seats: arch.seats, result: arch.result });
  }
  for (let i = 1; i < all.matches.length; i++)
    assert.ok(all.matches[i - 1].ended_at >= all.matches[i].ended_at, 'newest first');
  assert.equal(all.matches.length, 4);
  return { all, a, human, archives };
}

test('GET /api/matches: pagination, newest first', { timeout: 60000 }, async () => {
  await withServer(FAST_BOTS, async (srv) => {
    const { all } = await fourMatches(srv);
    // pages of 2
    const p1 = await srv.getJson('/api/matches?limit=2');
    assert.equal(p1.matches.length, 2);
    assert.equal(typeof p1.next, 'string');
    const p2 = await srv.getJson(`/api/matches?limit=2&before=${encodeURIComponent(p1.next)}`);
    assert.equal(p2.matches.length, 2);
    const p3 = p2.next === null ? { matches: [], next: null } : await srv.getJson(`/api/matches?limit=2&before=${encodeURIComponent(p2.next)}`);
    assert.deepEqual(p3.matches, []);
    assert.equal(p3.next, null);
    assert.deepEqual([...p1.matches, ...p2.matches], all.matches, 'the pages are the whole list, in order');
    const p3b = await srv.getJson('/api/matches?limit=3');
    const p4b = await srv.getJson(`/api/matches?before=${encodeURIComponent(p3b.next)}&limit=3`);
    assert.deepEqual([...p3b.matches, ...p4b.matches].map((m) => m.id), all.matches.map((m) => m.id));
    assert.equal(p4b.next, null);
    assert.deepEqual((await srv.getJson('/api/matches?limit=100')).matches, all.matches);

  });
});

test('GET /api/matches: filters game and player; malformed queries are 400', { timeout: 60000 }, async () => {
  await withServer(FAST_BOTS, async (srv) => {
    const { all, a, human } = await fourMatches(srv);
    // filters
    assert.deepEqual((await srv.getJson('/api/matches?game=ur')).matches, all.matches);
    const mine = await srv.getJson(`/api/matches?player=${encodeURIComponent(a.welcome.name)}`); // by name
    assert.deepEqual(mine.matches.map((m) => m.id), [human.room]);
    assert.equal(mine.next, null);
    const mineUr = await srv.getJson(`/api/matches?game=ur&player=${encodeURIComponent(a.welcome.name)}&limit=1`);
    assert.deepEqual(mineUr.matches.map((m) => m.id), [human.room]);
    const nobody = await srv.getJson('/api/matches?player=pnobody');
    assert.deepEqual(nobody, { matches: [], next: null });
    // the filter knows the games the server registers (GET /healthz does not list them: ur is one,
    // a name no registry has is not)
    assert.equal((await srv.http('/api/matches?game=chess')).status, 400, 'a game the registry lacks');

    // malformed queries
    for (const q of ['game=bogus', 'limit=0', 'limit=101', 'limit=x', 'before=garbage']) {
      const r = await srv.http(`/api/matches?${q}`);
      assert.equal(r.status, 400, `?${q}: ${r.status} ${r.text}`);
      assert.equal(typeof r.json?.error, 'string', `?${q}: ${r.text}`);
    }
    assert.equal((await srv.http('/api/matches?game=bogus')).json.error, 'bad_request',
      'the documented code for a malformed query is bad_request');
  });
});

test('GET /api/matches/{id}: an unknown id is 404 not_found', { timeout: 20000 }, async () => {
  await withServer(async (srv) => {
    for (const p of ['/api/matches/nosuchmatch', '/api/matches/' + 'z'.repeat(32), '/api/matches/' + 'z'.repeat(200),
      '/api/matches/a%20b', '/api/matches/..', '/api/nothing', '/api/matches/x/y']) {
      const r = await srv.http(p);
      assert.equal(r.status, 404, `${p}: ${r.status} ${r.text}`);
      assert.equal(r.json?.error, 'not_found', `${p}: ${r.text}`);
    }
    // a live (unfinished) room is not an archived match
    const a = await srv.player('Live');
    const { id } = await createRoom(a, 'ur');
    const r = await srv.http(`/api/matches/${id}`);
    assert.equal(r.status, 404);
    assert.equal(r.json.error, 'not_found');
  });
});

test('methods other than GET and HEAD are refused with 405; HEAD answers headers only', { timeout: 60000 }, async () => {
  await withServer(async (srv) => {
    // without a body
    for (const p of ['/api/rooms', '/api/matches', '/healthz', '/metrics']) {
      for (const method of ['POST', 'DELETE']) {
        const r = await srv.http(p, { method, timeoutMs: 3000 });
        assert.equal(r.status, 405, `${method} ${p}: ${r.status} ${r.text.slice(0, 200)}`);
        assert.equal(r.json?.error, 'method_not_allowed');
      }
    }
    // with a body (what a real client would send)
    for (const p of ['/api/rooms', '/healthz']) {
      for (const method of ['POST', 'PUT']) {
        const r = await srv.http(p, { method, body: method === 'DELETE' ? undefined : '{}', headers: { 'content-type': 'application/json' }, timeoutMs: 3000 });
        assert.equal(r.status, 405, `${method} ${p}: ${r.status} ${r.text.slice(0, 200)}`);
      }
    }
    // HEAD is GET without the body (health checkers use it)
    for (const p of ['/healthz', '/api/rooms', '/metrics']) {
      const get = await srv.http(p);
      const head = await fetch(srv.url + p, { method: 'HEAD', signal: AbortSignal.timeout(3000) });
      assert.equal(head.status, 200, `HEAD ${p}`);
      assert.equal(head.headers.get('content-type'), get.headers.get('content-type'), `HEAD ${p}: content type`);
      assert.equal(await head.text(), '', `HEAD ${p}: no body`);
    }
    assert.equal((await srv.http('/healthz')).status, 200);
  });
});

test('the rules module: /wasm/rules.wasm as application/wasm, cached and revalidated by ETag', { timeout: 20000 }, async () => {
  await withServer(async (srv) => {
    const res = await fetch(`${srv.url}/wasm/rules.wasm`, { signal: AbortSignal.timeout(3000) });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/wasm');
    assert.match(res.headers.get('cache-control') || '', /max-age=300/);
    const etag = res.headers.get('etag');
    assert.ok(etag, 'an ETag');
    const bytes = new Uint8Array(await res.arrayBuffer());
    assert.deepEqual([...bytes.subarray(0, 4)], [0, 0x61, 0x73, 0x6d], 'a WebAssembly module');
    const { instance } = await WebAssembly.instantiate(bytes, {});
    assert.ok(instance.exports.qw_start, 'the rules interface');
    const again = await fetch(`${srv.url}/wasm/rules.wasm`, { headers: { 'If-None-Match': etag },
      signal: AbortSignal.timeout(3000) });
    assert.equal(again.status, 304, 'revalidated without a body');
    assert.equal((await srv.http('/wasm/nothing.wasm')).status, 404);
    assert.ok([400, 403, 404].includes((await srv.http('/wasm/../../etc/passwd')).status));
  });
});

test('static files: the web client; /ws without an upgrade', { timeout: 20000 }, async () => {
  await withServer(async (srv) => {
    const root = await srv.http('/');
    assert.equal(root.status, 200);
    assert.match(root.ctype, /^text\/html/);
    assert.match(root.text, /<html/i);
    const index = await srv.http('/index.html');
    assert.equal(index.status, 200);
    assert.equal(index.text, root.text);
    const app = await srv.http('/app.js');
    assert.equal(app.status, 200);
    assert.match(app.ctype, /^(text|application)\/javascript/);
    const css = await srv.http('/style.css');
    assert.equal(css.status, 200);
    assert.match(css.ctype, /^text\/css/);
    assert.equal((await srv.http('/no-such-file.js')).status, 404);
    assert.ok([400, 403, 404].includes((await srv.http('/../../etc/passwd')).status));
    // /ws as plain HTTP: some answer, nothing crashes
    const ws = await srv.http('/ws');
    assert.ok(ws.status >= 200 && ws.status < 500, `GET /ws: ${ws.status}`);
    // a raw, half-baked upgrade that never completes, then hangs up
    await new Promise((resolve) => {
      const s = net.connect(srv.port, '127.0.0.1', () => {
        s.write('GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n');
        setTimeout(() => { s.destroy(); resolve(); }, 100);
      });
      s.on('error', resolve);
    });
    // a WebSocket elsewhere than /ws is refused
    await assert.rejects(new Promise((resolve, reject) => {
      const x = new WebSocket(`ws://127.0.0.1:${srv.port}/elsewhere`, 'quinteto.v1');
      x.on('open', () => { x.terminate(); resolve(); });
      x.on('error', reject);
    }));
    // and without a subprotocol a WebSocket is accepted
    const plain = await srv.connect({ protocols: null });
    assert.equal((await plain.request({ type: 'hello', name: 'Plain' })).type, 'welcome');
    assert.equal((await srv.http('/healthz')).status, 200);
  });
});

test('idle HTTP connections are closed by the server without harm', { timeout: 40000 }, async () => {
  // Regression: lws times out idle keep-alive connections (and ones that never sent a request)
  // with callbacks that carry no per-session data; the server dereferenced it and died.
  await withServer(async (srv) => {
    const requests = ['GET / HTTP/1.1\r\nHost: x\r\n\r\n', 'GET /api/rooms HTTP/1.1\r\nHost: x\r\n\r\n',
      'GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n', ''];
    const closed = requests.map((req) => new Promise((resolve) => {
      const s = net.connect(srv.port, '127.0.0.1', () => { if (req) s.write(req); });
      s.on('data', () => {});
      s.on('error', () => {});
      s.on('close', resolve);
    }));
    await Promise.all(closed); // the server's idle timeouts (5 s after a response, 10 s before one)
    assert.equal((await srv.http('/healthz')).status, 200, 'still serving');
  });
});

test('GET /readyz: 200 {status:"ok", reasons:[]} while the database takes writes', { timeout: 20000 }, () => withServer(async (srv) => {
  const r = await srv.http('/readyz');
  assert.equal(r.status, 200);
  assert.match(r.ctype, /application\/json/);
  assert.deepEqual(r.json, { status: 'ok', reasons: [] });
}));
