// hello_lookup.test.mjs: a `hello` whose token is not in memory is read on the store's lookup thread,
// identity and ratings together (docs/ARCHITECTURE.md, "No disk on the loop"), against the real server and a real
// SQLite file, restarted so that no identity is in memory. A guest's token and an account's session
// token bring back their identity, and the account its rated figure (shown in a rated room's seats as
// before), as an account signed in brings its own with the sign-in's answer; messages sent right behind
// such a hello, without waiting, are answered in order after the welcome (the connection is not read
// meanwhile); two hellos with one token at once make one player;
// connections that close right after their hello cost nothing and crash nothing (the sanitized server
// exits 0). The loop serving while a read waits is pg_server.test.mjs's (a PostgreSQL paused). A session
// ended (end_session, delete_account) between a hello's read and its answer: the hello starts a new guest.
import test from 'node:test';
import { access, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { assert, Server, joinRoom, until, withServer } from './lib.mjs';

const PASSWORD = 'correct horse battery';
// a finished room closes at once: after the restart nothing holds the identities in memory
const ARGS = ['--finished-room-ttl-s', '0'];

test('hello with a token not in memory: identity and rating read off the loop, later messages in order',
  { timeout: 90000 }, async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'quinteto-hello-'));
    let srv = await Server.start({ dir, args: ARGS });
    try {
      const ana = await srv.player('Ana');
      assert.equal((await ana.request({ type: 'claim', handle: 'Ana_L', password: PASSWORD })).type, 'account');
      const bob = await srv.player('Bob');
      assert.equal((await bob.request({ type: 'claim', handle: 'Bob_L', password: PASSWORD })).type, 'account');
      const gus = await srv.player('Gus');
      // a rated match Bob resigns: Ana's figure moves off 1500
      const room = (await ana.request({ type: 'create', game: 'ur', rated: true })).room.id;
      await joinRoom(ana, room, { seat: 0 });
      await joinRoom(bob, room, { seat: 1 });
      await ana.nextState(room, (s) => s.status === 'playing', 10000);
      const mark = ana.mark(), markB = bob.mark();
      assert.equal((await bob.request({ type: 'resign', room })).type, 'resigned');
      const push = await until(() => ana.since(mark, (m) => m.type === 'account' && m.ratings?.ur).at(-1),
        { what: 'the account push of the rated match' });
      const rating = push.ratings.ur.rating;
      assert.ok(rating > 1500, `the winner gained (${rating})`);
      const bobRating = (await until(() => bob.since(markB, (m) => m.type === 'account' && m.ratings?.ur).at(-1),
        { what: 'Bob\'s push' })).ratings.ur.rating;
      assert.ok(bobRating < 1500, `the loser lost (${bobRating})`);
      const ids = { ana: ana.welcome.player, bob: bob.welcome.player, gus: gus.welcome.player };
      const tokens = { ana: ana.token, bob: bob.token, gus: gus.token };
      const port = srv.port;
      await srv.stop();

      srv = await Server.start({ dir, port, args: ARGS });
      const before = await srv.metrics();
      assert.equal(before.quinteto_players_known, 0, 'no identity in memory after the restart');

      // two hellos with one token at once (on two connections): one player (both reads surely out at
      // once: pg_server.test.mjs, PostgreSQL paused)
      const [g1, g2] = [await srv.connect({ label: 'Gus 1' }), await srv.connect({ label: 'Gus 2' })];
      const [w1, w2] = await Promise.all([g1, g2].map((c) => c.request({ type: 'hello', name: 'Gus', token: tokens.gus })));
      assert.equal(w1.type, 'welcome');
      assert.equal(w2.type, 'welcome');
      assert.equal(w1.player, ids.gus, 'the guest\'s identity back');
      assert.equal(w2.player, ids.gus);
      assert.equal(w1.token, tokens.gus);
      assert.ok(!('elsewhere' in w1) && !('elsewhere' in w2), 'a single server never names seats elsewhere');
      assert.equal((await srv.metrics()).quinteto_players_known, 1, 'one object for the two');

      // the account's session token, with messages right behind its hello (not awaited): answered in
      // order after the welcome, none refused (hello_required)
      const a = await srv.connect({ label: 'Ana again' });
      const sent = [
        { type: 'hello', name: 'Ana', token: tokens.ana, id: 'h' },
        { type: 'rooms', id: 'r1' },
        { type: 'create', game: 'ur', rated: true, id: 'c' },
        { type: 'rooms', id: 'r2' },
      ];
      a.ws._socket.cork(); // one TCP segment: the server reads them all at once, behind the hello
      const out = Promise.all(sent.map((m) => a.send(m)));
      a.ws._socket.uncork();
      await out;
      await until(() => ['h', 'r1', 'c', 'r2'].every((id) => a.messages.some((m) => m.id === id)),
        { what: 'every answer' });
      const order = a.messages.filter((m) => m.id !== undefined).map((m) => `${m.id}:${m.type}`);
      assert.deepEqual(order, ['h:welcome', 'r1:rooms', 'c:created', 'r2:rooms'], 'answered in order');
      const aw = a.messages.find((m) => m.id === 'h');
      assert.equal(aw.player, ids.ana);
      assert.equal(aw.account?.handle, 'Ana_L', 'the welcome says the account');
      a.drain();
      // its rated figure came with it: the seat it takes shows it, as before the restart
      const created = a.messages.find((m) => m.id === 'c').room.id;
      await joinRoom(a, created, { seat: 0 });
      const st = await until(() => a.messages.findLast((m) => m.type === 'state' && m.room === created),
        { what: 'the room\'s state' });
      assert.equal(st.seats[0].handle, 'Ana_L');
      assert.equal(st.seats[0].rating, rating, 'the rating read with the identity');
      const listed = (await srv.getJson('/api/rooms')).rooms.find((x) => x.id === created);
      assert.equal(listed.seats[0].rating, rating, 'and in the lobby');

      // a sign-in of an account not in memory: its figure comes with the sign-in's store answer
      const zed = await srv.player('Zed');
      const signed = await zed.request({ type: 'sign_in', handle: 'Bob_L', password: PASSWORD });
      assert.equal(signed.type, 'welcome');
      assert.equal(signed.player, ids.bob);
      assert.ok(!('elsewhere' in signed), 'nor in a sign-in\'s welcome');
      await joinRoom(zed, created, { seat: 1 });
      const st2 = await until(() => zed.messages.findLast((m) => m.type === 'state' && m.room === created &&
        m.seats[1]?.handle), { what: 'Bob seated' });
      assert.equal(st2.seats[1].rating, bobRating, 'the rating read in the sign-in\'s transaction');

      // connections that close right behind their hello (the read pending or just answered)
      const reads = (await srv.metrics()).quinteto_hello_reads_total;
      assert.ok(reads >= 2, `Gus (once or twice) and Ana were read by the lookup thread (${reads})`);
      for (let i = 0; i < 20; i++) {
        const c = await srv.connect({ label: `gone ${i}` });
        await c.send({ type: 'hello', name: 'Gone', token: `unknown-token-${i}` }); // written, then gone
        c.terminate();
      }
      await until(async () => (await srv.metrics()).quinteto_hello_reads_total === reads + 20,
        { what: 'the twenty hellos read or dropped' });
      await until(async () => (await srv.metrics()).quinteto_hello_reads_waiting === 0, { what: 'no read left waiting' });
      const after = await srv.player('After'); // the server goes on
      assert.equal((await after.request({ type: 'rooms' })).type, 'rooms');
    } finally {
      await srv.stop(); // exits 0: no sanitizer report
      await rm(dir, { recursive: true, force: true });
    }
  });

// A hello's read that found a session, answered after that session ended (docs/ACCOUNTS.md, "Sessions ended
// elsewhere"): QUINTETO_TEST_HELLO_HOLD holds the read's answer (docs/HOSTING.md; its deadline long,
// QUINTETO_TEST_HELLO_READ_MS, so that a loaded machine never expires it first) while the other device ends
// the session, then the account deletes itself. Each hello is answered as one said after the end: a new guest
// with a new token. Before, the first was welcomed as the account on a session that no longer existed (until
// the periodic check, 10 s later), and the second as the deleted account, its handle put back on it.
test('a session ended while a hello with its token waits for its read: the hello starts a new guest',
  { timeout: 60000 }, async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'quinteto-hold-'));
    const hold = path.join(dir, 'hold');
    const exists = (f) => access(f).then(() => true, () => false);
    try {
      const env = { QUINTETO_TEST_HELLO_HOLD: hold, QUINTETO_TEST_HELLO_READ_MS: '60000' };
      await withServer({ args: ['--pwhash-mem-kib', '19456'], env }, async (srv) => {
          // with its read held, what `end` does to the token's session; then the hello's answer
          const held = async (token, end) => {
            await writeFile(hold, '');
            const c = await srv.connect({ label: 'held' });
            c.send({ type: 'hello', name: 'Held', token, id: 'hh' });
            await until(() => exists(`${hold}.read`), { what: 'the read done, its answer held' });
            try {
              await end();
            } finally {
              await rm(hold, { force: true });
              await rm(`${hold}.read`, { force: true });
            }
            return { c, w: await c.next((m) => m.id === 'hh', 15000) };
          };
          const ana = await srv.player('Ana');
          const claimed = await ana.request({ type: 'claim', handle: 'Ana_H', password: PASSWORD, device: 'laptop' });
          assert.equal(claimed.type, 'account', JSON.stringify(claimed));
          const other = await srv.player('Other');
          assert.equal((await other.request({ type: 'sign_in', handle: 'ana_h', password: PASSWORD })).type,
            'welcome');
          const created = (await srv.metrics()).quinteto_players_created_total;
          const a = await held(ana.welcome.token, async () => {
            const ended = await other.request({ type: 'end_session', session: claimed.sessions[0].id });
            assert.equal(ended.type, 'account', JSON.stringify(ended));
            assert.deepEqual(await ana.nextType('signed_out'), { type: 'signed_out', reason: 'ended' });
          });
          assert.equal(a.w.type, 'welcome', JSON.stringify(a.w));
          assert.notEqual(a.w.player, ana.welcome.player, 'not the account whose session ended');
          assert.notEqual(a.w.token, ana.welcome.token, 'a new token');
          assert.equal((await srv.metrics()).quinteto_players_created_total, created + 1, 'a new guest');
          assert.equal((await a.c.request({ type: 'account' })).code, 'not_signed_in');

          const cy = await srv.player('Cy');
          assert.equal((await cy.request({ type: 'claim', handle: 'Cy_H', password: PASSWORD })).type, 'account');
          const d = await held(cy.welcome.token, async () => {
            const gone = await cy.request({ type: 'delete_account', password: PASSWORD, id: 'del' });
            assert.deepEqual(gone, { type: 'signed_out', id: 'del', reason: 'deleted' });
          });
          assert.equal(d.w.type, 'welcome', JSON.stringify(d.w));
          assert.notEqual(d.w.player, cy.welcome.player, 'not the deleted account');
          assert.notEqual(d.w.token, cy.welcome.token, 'a new token');
          assert.equal((await d.c.request({ type: 'account' })).code, 'not_signed_in');
        });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
