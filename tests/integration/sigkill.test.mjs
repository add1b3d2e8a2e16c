// Nothing a client saw can be lost (issue 5, section 3): fast play in many rooms (clients playing both
// seats at once, autoroll on, a few resignations), SIGKILL at a random moment, restart on the same
// database, 50 times in a row. After every kill the database must hold every ply that any client
// received, with the same action, and every resignation a player was told of. In the end every
// match finishes and `quinteto verify` re-derives each archived one. The database is read with the
// sqlite3 tool while the server is down, the archive through the HTTP API.
import test from 'node:test';
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { Server, assert, autoplay, sleep, until, within } from './lib.mjs';

const KILLS = Number(process.env.QUINTETO_KILLS || 50);
const PAIRS = 6;
const FAST = { args: ['--rate', '1000000', '--burst', '1000000'], botDelayMs: 1 };

const sqlJson = (dir, q) => {
  const out = execFileSync('sqlite3', ['-json', path.join(dir, 'q.db'), q], { encoding: 'utf8', maxBuffer: 1 << 28 }).trim();
  return out ? JSON.parse(out) : [];
};

// What the database holds: actions by room and ply, events by room, archived room ids.
function readDb(dir) {
  const actions = new Map();
  for (const row of sqlJson(dir, `SELECT room_id AS room, ply, action FROM live_actions UNION ALL
      SELECT m.id, a.ply, a.action FROM match_actions a JOIN matches m ON m.seq = a.match_seq`))
    actions.set(`${row.room}/${row.ply}`, JSON.parse(row.action));
  const events = new Set(sqlJson(dir, `SELECT room_id AS room, seat, kind FROM live_events UNION ALL
      SELECT m.id, e.seat, e.kind FROM match_events e JOIN matches m ON m.seq = e.match_seq`)
    .map((e) => `${e.room}/${e.seat}/${e.kind}`));
  const archived = new Set(sqlJson(dir, 'SELECT id FROM matches').map((r) => r.id));
  return { actions, events, archived };
}

test(`SIGKILL ${KILLS} times during fast play: every ply a client saw survives, every match verifies`, { timeout: 600000 }, async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'quinteto-kill-'));
  const seen = new Map();        // "room/ply" -> action a client received for that ply
  const resigned = new Set();    // "room/seat/resign" a player was told of
  const rooms = new Set();       // every room played
  const pairs = [];              // [{tokens:[a, b], room, finished}]
  let srv = null;
  let clients = [];
  const record = (c) => {
    for (const m of c.messages) {
      if (m.type === 'state' && m.last && m.ply > 0) {
        const key = `${m.room}/${m.ply - 1}`;
        if (seen.has(key)) assert.deepEqual(m.last.action, seen.get(key), `${key}: two clients saw different actions`);
        seen.set(key, m.last.action);
      }
      if (m.type === 'resigned') resigned.add(`${m.room}/${m.seat}/resign`);
    }
  };
  const check = (when) => {
    const db = readDb(dir);
    for (const [key, action] of seen) {
      assert.ok(db.actions.has(key), `${when}: ply ${key} was seen by a client but is not in the database`);
      assert.ok(isDeepStrictEqual(db.actions.get(key), action),
        `${when}: ply ${key} was seen as ${JSON.stringify(action)}, the database has ${JSON.stringify(db.actions.get(key))}`);
    }
    for (const key of resigned) assert.ok(db.events.has(key), `${when}: resignation ${key} was told but is not kept`);
    return db;
  };
  // Connects both players of every pair, gives each pair a room to play and starts playing.
  const resume = async (final) => {
    clients = [];
    const plays = [];
    for (const pair of pairs) {
      const cs = [];
      let held = true; // both players still hold a seat in the pair's room
      for (const [i, token] of pair.tokens.entries()) {
        const c = await srv.connect({ label: `p${pairs.indexOf(pair)}${'ab'[i]}` });
        const w = await c.request({ type: 'hello', name: `P${i}`, ...(token ? { token } : {}) });
        pair.tokens[i] = w.token;
        held &&= w.rooms.includes(pair.room);
        cs.push(c);
      }
      // A match can end, be archived and have its last frames released just before the kill, yet
      // reach no client: after the restart its room is gone (archived rooms are not resumed). Its
      // archive is checked at the end like every other room's.
      if (pair.room && !pair.finished && !held) pair.finished = true;
      clients.push(...cs);
      const current = pair.room && !pair.finished;
      if (!current && !final) {
        const created = await cs[0].request({ type: 'create', game: 'ur', options: { autoroll: true } });
        pair.room = created.room.id;
        pair.finished = false;
        rooms.add(pair.room);
        for (const [seat, c] of cs.entries()) assert.equal((await c.request({ type: 'join', room: pair.room, seat })).type, 'joined');
      }
      if (!pair.room || pair.finished) continue;
      for (const c of cs) {
        const p = autoplay(c, pair.room, { since: 0 });
        p.done.then(() => { pair.finished = true; }, () => {});
        plays.push(p);
      }
    }
    return plays;
  };
  try {
    for (let i = 0; i < PAIRS; i++) pairs.push({ tokens: [null, null], room: null, finished: false });
    for (let kill = 1; kill <= KILLS; kill++) {
      srv = await Server.start({ dir, ...FAST });
      const plays = await resume(false);
      await sleep(50 + Math.random() * 400);
      if (Math.random() < 0.2) { // now and then a resignation, as close to the kill as it gets
        const pair = pairs[Math.floor(Math.random() * pairs.length)];
        const c = clients[pairs.indexOf(pair) * 2];
        if (!pair.finished) c.send({ type: 'resign', room: pair.room }).catch(() => {});
        await sleep(Math.random() * 20);
      }
      srv.proc.kill('SIGKILL');
      await srv.exited;
      srv.stopped = true;
      for (const p of plays) p.stop();
      for (const c of clients) record(c);
      srv.assertValid();
      check(`after kill ${kill}`);
    }
    // The end: no more kills; every match is played out and archived.
    srv = await Server.start({ dir, ...FAST });
    const plays = await resume(true);
    const ended = await within(Promise.all(plays.map((p) => p.done.catch(() => 'closed'))), 120000);
    assert.ok(ended, `every match was played to its end within 2 minutes (${plays.length} players)`);
    for (const c of clients) record(c);
    // each room by its id: a fast run plays more matches than one page of the list holds
    const archived = new Set();
    await until(async () => {
      for (const room of rooms) {
        if (archived.has(room)) continue;
        if ((await srv.http(`/api/matches/${room}`).catch(() => ({ status: 0 }))).status !== 200) return false;
        archived.add(room);
      }
      return true;
    }, { timeoutMs: 30000, what: `every match archived (${rooms.size} rooms)` });
    await srv.stop();
    const db = check('at the end');
    for (const room of rooms) {
      assert.ok(db.archived.has(room), `room ${room} was archived`);
    }
    srv = await Server.start({ dir });
    for (const room of rooms) {
      const file = path.join(dir, `${room}.json`);
      await writeFile(file, JSON.stringify(await srv.archive(room)));
      assert.match(execFileSync(process.env.QUINTETO_CLI, ['verify', file], { encoding: 'utf8' }), /^verified/,
        `room ${room} verifies`);
    }
    assert.ok(seen.size > KILLS, `plays were seen (${seen.size} plies in ${rooms.size} rooms)`);
    console.log(`# ${KILLS} kills, ${rooms.size} matches, ${seen.size} plies seen, ${resigned.size} resignations`);
  } finally {
    if (srv && srv.alive) await srv.stop().catch(() => {});
    await rm(dir, { recursive: true, force: true });
  }
});
