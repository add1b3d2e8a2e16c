// accounts.test.mjs: accounts against the real server (PROTOCOL.md "Accounts and ratings",
// docs/ACCOUNTS.md): claim, sign in elsewhere (the same identity and its seats), sessions, sign out,
// password, delete, the limits and the hashing queue. One server for most of the file; every frame is
// validated against its schema (Client does it; withServer asserts at the end).

import test from 'node:test';
import { assert, withServer, createRoom, joinRoom } from './lib.mjs';

// The least Argon2id memory the server takes: the tests hash a few dozen passwords under ASan.
const FAST = ['--pwhash-mem-kib', '19456'];

test('claim, then sign in on a second connection: the same identity and its seats come back',
  { timeout: 60000 }, async () => {
    await withServer({ args: FAST }, async (srv) => {
      const a = await srv.player('Ana');
      const room = (await createRoom(a, 'ur')).id;
      await joinRoom(a, room);
      const claimed = await a.request({ type: 'claim', handle: 'Aná_R', password: 'correct horse', device: 'test A' });
      assert.equal(claimed.type, 'account', JSON.stringify(claimed));
      assert.equal(claimed.handle, 'Aná_R');
      assert.equal(claimed.player, a.welcome.player);
      assert.equal(claimed.sessions.length, 1);
      assert.equal(claimed.sessions[0].current, true);
      assert.deepEqual(claimed.ratings, {});

      const b = await srv.player('Phone');
      const mark = b.mark();
      const signed = await b.request({ type: 'sign_in', handle: 'ANA_r', password: 'correct horse', device: 'test B' });
      assert.equal(signed.type, 'welcome', JSON.stringify(signed));
      assert.equal(signed.player, a.welcome.player);
      assert.deepEqual(signed.account, { handle: 'Aná_R' });
      assert.notEqual(signed.token, a.welcome.token);
      assert.deepEqual(signed.rooms, [room]);
      const acc = await b.nextType('account');
      assert.equal(acc.sessions.length, 2);
      assert.ok(b.since(mark, (m) => m.type === 'state' && m.room === room).length >= 1, 'the room state came');

      // the new token resumes the account on a third connection
      const c = await srv.player('Tablet', { token: signed.token });
      assert.equal(c.welcome.player, a.welcome.player);
      assert.deepEqual(c.welcome.account, { handle: 'Aná_R' });
      // and so does the claimed guest token (now the account's first session)
      const d = await srv.player('Old', { token: a.welcome.token });
      assert.equal(d.welcome.player, a.welcome.player);
    });
  });
