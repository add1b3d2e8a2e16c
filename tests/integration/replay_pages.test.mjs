// replay_pages.test.mjs: GET /api/matches/{id}/replay a page at a time (issue 19: one request for a
// long match must not cost the whole match). A page holds at most 200 steps however many are asked
// for, with `total` and the `next` page; paging through a match, whatever the page size, gives
// exactly the steps the rules core's replay gives (`quinteto steps`, wire_archive_steps_new, on the
// server's own database) for matches of bots of every game; malformed `from` and `limit` are 400
// bad_request; a record that does not verify is a 500 on every page, the pages before the bad ply
// included. Every answer is validated against match-replay.json (or http-error.json) by lib.mjs.

import test from 'node:test';
import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { assert, withServer, watchRoom } from './lib.mjs';

const FAST_BOTS = { botDelayMs: 1 };
const PAGE_MAX = 200;

// A match of bots of `game` (with `options` where the game takes them), watched to its end; its id.
async function botMatch(srv, w, game, options) {
  let r = await w.request({ type: 'create', game, options });
  if (r.type === 'error' && r.code === 'bad_options') r = await w.request({ type: 'create', game });
  if (r.type === 'error' && r.code === 'unknown_game') return null;
  assert.equal(r.type, 'created', JSON.stringify(r));
  const id = r.room.id;
  await watchRoom(w, id);
  for (const s of r.room.seats) assert.equal((await w.request({ type: 'add_bot', room: id, seat: s.seat })).type, 'bot_added');
  await w.nextState(id, (st) => st.status === 'finished', 180000);
  await srv.archive(id); // written asynchronously
  return id;
}

// The rules core's whole replay of match `id`, read by the quinteto command from the server's database.
function cliSteps(srv, id) {
  const out = execFileSync(process.env.QUINTETO_CLI, ['--db', path.join(srv.dir, 'q.db'), 'steps', id],
    { encoding: 'utf8', maxBuffer: 1 << 28 });
  return JSON.parse(out);
}

test('a page is at most 200 steps with total and next; bad from and limit are 400', { timeout: 120000 }, async () => {
  await withServer(FAST_BOTS, async (srv) => {
    const w = await srv.player('Pager');
    const id = await botMatch(srv, w, 'ur', {});
    const arch = await srv.archive(id);
    const total = 1 + arch.actions.length + arch.events.length;
    assert.ok(total > PAGE_MAX, `an Ur match of bots is longer than a page (${total} steps)`);
    const base = `/api/matches/${id}/replay`;

    // a client that never heard of pages: the first page, and what it needs to notice the rest
    const first = await srv.getJson(base);
    assert.equal(first.steps.length, PAGE_MAX);
    assert.deepEqual([first.from, first.next, first.total, first.plies], [0, PAGE_MAX, total, arch.actions.length]);
    // a huge range is still one page
    for (const q of ['limit=1000000', 'limit=999999999', `from=0&limit=${total}`]) {
      const p = await srv.getJson(`${base}?${q}`);
      assert.equal(p.steps.length, PAGE_MAX, q);
      assert.equal(p.next, PAGE_MAX, q);
    }
    // a page in the middle, and the last one
    const mid = await srv.getJson(`${base}?from=3&limit=7`);
    assert.deepEqual([mid.from, mid.next, mid.steps.length], [3, 10, 7]);
    assert.deepEqual(mid.steps, first.steps.slice(3, 10));
    const last = await srv.getJson(`${base}?from=${total - 1}&limit=50`);
    assert.deepEqual([last.from, last.next, last.steps.length], [total - 1, null, 1]);
    assert.equal(last.steps[0].ply, arch.actions.length);

    const bad = ['from=-1', 'from=01', 'from=1x', 'from=', 'from=0&from=1', `from=${total}`,
      'from=99999999999999999999', 'limit=0', 'limit=01', 'limit=-5', 'limit=', 'limit=1e3', 'limit=1&limit=2',
      'limit=9999999999'];
    for (const q of bad) {
      const r = await srv.http(`${base}?${q}`);
      assert.equal(r.status, 400, `${q}: ${r.status} ${r.text.slice(0, 200)}`);
      assert.equal(r.json.error, 'bad_request', q);
    }
    // an unknown match is still 404, a page or not
    assert.equal((await srv.http('/api/matches/nosuch/replay?from=5')).status, 404);
  });
});

test('every game: paging through a match gives exactly the rules core\'s replay, whatever the page size', { timeout: 280000 }, async () => {
  await withServer(FAST_BOTS, async (srv) => {
    const common = JSON.parse(await readFile(path.join(process.env.QUINTETO_TEST_SCHEMA, 'common.json'), 'utf8'));
    const w = await srv.player('Watcher');
    let long = 0;
    for (const game of common.$defs.game.enum) {
      for (const options of [{ max_turns: 10 }, { max_turns: 200 }]) {
        const id = await botMatch(srv, w, game, options);
        if (!id) continue;
        const want = cliSteps(srv, id);
        if (want.length > 256) long++; // past the first snapshot
        const limits = [undefined, 1 + Math.floor(Math.random() * 60), 1 + Math.floor(Math.random() * 199)];
        for (const limit of limits) {
          const got = await srv.replay(id, { limit });
          assert.equal(got.total, want.length, `${game} ${id} limit ${limit}`);
          assert.deepEqual(got.steps, want, `${game} ${id}: the pages (limit ${limit}) are the rules core's steps`);
          assert.equal(got.pages, Math.ceil(want.length / Math.min(limit ?? PAGE_MAX, PAGE_MAX)));
        }
        // a page that starts anywhere is the same slice
        const from = Math.floor(Math.random() * want.length);
        const page = await srv.getJson(`/api/matches/${id}/replay?from=${from}&limit=37`);
        assert.deepEqual(page.steps, want.slice(from, from + 37), `${game} ${id} from ${from}`);
      }
    }
    assert.ok(long >= 1, 'at least one match is longer than a snapshot interval');
  });
});

test('a record that does not verify is a 500 on every page, those before the bad ply included', { timeout: 120000 }, async () => {
  await withServer(FAST_BOTS, async (srv) => {
    const w = await srv.player('Tamper');
    const id = await botMatch(srv, w, 'ur', {});
    const good = await srv.getJson(`/api/matches/${id}/replay?from=0&limit=5`);
    assert.equal(good.steps.length, 5);
    const plies = good.plies;
    const other = await botMatch(srv, w, 'ur', {});
    // the last action's outcome changed behind the server's back, in a match not asked for yet
    execFileSync('sqlite3', [path.join(srv.dir, 'q.db'),
      `UPDATE match_actions SET outcome = json_set(outcome, '$.tampered', 1) WHERE match_seq = (SELECT seq FROM matches WHERE id = '${other}') AND ply = (SELECT plies - 1 FROM matches WHERE id = '${other}')`]);
    for (const q of ['', '?from=0&limit=5', '?from=200']) {
      const r = await srv.http(`/api/matches/${other}/replay${q}`);
      assert.equal(r.status, 500, `${q}: ${r.status} ${r.text.slice(0, 200)}`);
      assert.equal(r.json.error, 'internal');
    }
    // the match it did not touch still replays
    assert.equal((await srv.getJson(`/api/matches/${id}/replay?from=${plies}`)).steps.length, good.total - plies);
  });
});

// More long matches than the server keeps snapshots of (8): asked for in turn, twice, each page is still
// exactly the rules core's (the least recently asked match gives its place up, and comes back by a new
// verification pass).
test('more long matches than the snapshot cache holds: every page is still the rules core\'s', { timeout: 280000 }, async () => {
  await withServer(FAST_BOTS, async (srv) => {
    const w = await srv.player('Many');
    const ids = [];
    while (ids.length < 10) {
      const id = await botMatch(srv, w, 'ur', {});
      if ((await srv.getJson(`/api/matches/${id}/replay?limit=1`)).total > 300) ids.push(id);
    }
    const want = new Map(ids.map((id) => [id, cliSteps(srv, id)]));
    for (let round = 0; round < 2; round++) {
      for (const id of ids) {
        const from = 257 + 13 * round;
        const page = await srv.getJson(`/api/matches/${id}/replay?from=${from}&limit=20`);
        assert.deepEqual(page.steps, want.get(id).slice(from, from + 20), `${id} round ${round}`);
      }
    }
  });
});
