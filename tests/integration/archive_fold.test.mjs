// archive_fold.test.mjs: GET /api/matches?player= ignores case and accents (issue 23), against the real
// server over HTTP. A database as a server before migration 0012 left it (its matches archived with
// no folded keys) is migrated by the server of today and keeps finding its matches by
// any spelling of the name; matches archived after it are found the same way; a key is a whole name,
// never a prefix; GET /api/players/{name} stays exact; `quinteto matches --player` folds as the API does.

import test from 'node:test';
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { assert, Server, createRoom, joinRoom } from './lib.mjs';

// A match of `name` (seat 0) against a bot that she resigns at once: the bot wins. Resolves with its id.
async function resignedMatch(srv, name) {
  const c = await srv.player(name);
  const room = await createRoom(c, 'ur');
  await joinRoom(c, room.id, { seat: 0 });
  await c.request({ type: 'add_bot', room: room.id, seat: 1 });
  await c.nextState(room.id, (s) => s.status === 'playing', 10000);
  assert.equal((await c.request({ type: 'resign', room: room.id })).type, 'resigned');
  await c.nextState(room.id, (s) => s.status === 'finished', 10000);
  c.close?.();
  return room.id;
}

const ids = async (srv, player) => {
  const body = await srv.getJson(`/api/matches?player=${encodeURIComponent(player)}`);
  return body.matches.map((m) => m.id);
};

// Runs SQL on the database in `dir` (as its owner could, the server stopped).
const sql = (dir, statement) => execFileSync('sqlite3', [path.join(dir, 'q.db'), statement], { encoding: 'utf8' });

test('an old database, migrated, finds its players whatever the case and the accents', { timeout: 120000 }, async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'quinteto-fold-'));
  try {
    const old = await Server.start({ dir, botDelayMs: 1 });
    let a, b, c, d;
    try {
      a = await resignedMatch(old, 'Ána');
      b = await resignedMatch(old, 'ANA');
      c = await resignedMatch(old, 'Anabel');
      d = await resignedMatch(old, 'A\u0301na'); // "A" and a combining acute accent
    } finally {
      await old.stop();
    }
    // The database as a server before migration 0012 left it: no folded keys, 0012 not applied.
    sql(dir, "DROP INDEX match_seats_key; ALTER TABLE match_seats DROP COLUMN name_key; DELETE FROM schema_migrations WHERE version = 12;");
    assert.equal(sql(dir, "SELECT count(*) FROM pragma_table_info('match_seats') WHERE name = 'name_key'").trim(), '0');

    const srv = await Server.start({ dir, botDelayMs: 1 });
    try {
      assert.match(srv.stderr + srv.stdout, /applied migration 0012_name_key\.sql/);
      for (const spelling of ['ana', 'ANA', 'Ána', 'ána', 'ÁNA', 'A\u0301NA', 'ANÄ', 'anna']) {
        const want = spelling === 'anna' ? [] : [d, b, a];
        assert.deepEqual(await ids(srv, spelling), want, `?player=${spelling}`);
      }
      assert.deepEqual(await ids(srv, 'an'), [], 'a whole name, not a prefix');
      assert.deepEqual(await ids(srv, 'ANABEL'), [c]);
      // Archived after the migration: found the same way, newest first.
      const e = await resignedMatch(srv, 'aNa');
      assert.deepEqual(await ids(srv, 'Ána'), [e, d, b, a]);
      // With the other filters: won / lost by that player (the bot won every one).
      assert.deepEqual((await srv.getJson('/api/matches?player=ana&result=lost')).matches.map((m) => m.id), [e, d, b, a]);
      assert.deepEqual((await srv.getJson('/api/matches?player=ana&result=won')).matches, []);
      // The list names everyone as they played.
      const listed = (await srv.getJson('/api/matches?player=ana')).matches.map((m) => m.seats[0].name);
      assert.deepEqual(listed, ['aNa', 'A\u0301na', 'ANA', 'Ána']);
      // A player's record stays the exact name.
      assert.equal((await srv.getJson(`/api/players/${encodeURIComponent('Ána')}`)).matches, 1);
      // The command line folds as the API does.
      const out = execFileSync(process.env.QUINTETO_CLI, ['--db', path.join(dir, 'q.db'), 'matches', '--player', 'ÁNA'], { encoding: 'utf8' });
      for (const id of [a, b, d, e]) assert.ok(out.includes(id), `quinteto matches --player ÁNA lists ${id}:\n${out}`);
      assert.ok(!out.includes(c), 'and not Anabel\'s');
    } finally {
      await srv.stop();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
