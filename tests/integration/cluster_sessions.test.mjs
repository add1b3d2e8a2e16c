// cluster_sessions.test.mjs: a session ended on one node signs out its connections on another
// (docs/ACCOUNTS.md, "Sessions ended elsewhere"; docs/SCALING.md, the channel's `s` messages). Two nodes,
// one account signed in on both (direct connections, no HAProxy between): `end_session` of the n2 session,
// sent on n1, reaches n2's connection at once through Redis, with n1's reason (`ended`), while the nodes'
// periodic check waits an hour; then n2 runs again with a check every second, Redis is stopped, and the
// same on a new session reaches n2 by the check alone (reason `revoked`: found gone, nobody told it).
import test from 'node:test';
import { writeFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { assert, until } from './lib.mjs';
import { withCluster, uniqueName } from '../lib/cluster.mjs';

// The nodes read their check's period from a file of their own (flags and QUINTETO_* variables are the
// same for every node, and the script keeps the test's variables out): rewritten before n2 starts again.
async function checkEvery(file, s) {
  await writeFile(file, JSON.stringify({ session_check_s: s }));
}

async function signIn(view, handle, label) {
  const c = await view.player(label);
  const w = await c.request({ type: 'sign_in', handle, password: 'correct horse', device: label }, 30000);
  assert.equal(w.type, 'welcome', `sign_in on ${label}: ${JSON.stringify(w)}`);
  const account = await c.nextType('account', 30000);
  return { c, session: account.sessions.find((s) => s.current).id };
}

test('a session ended on n1 signs out its connection on n2: through Redis at once, by the check with Redis away',
  { timeout: 240000 }, async () => {
    const conf = await mkdtemp(path.join(tmpdir(), 'quinteto-sessions-'));
    const file = path.join(conf, 'sessions.json');
    await checkEvery(file, 3600);
    try {
      await withCluster(2, { args: ['--config', file, '--pwhash-mem-kib', '19456'] }, async (cl) => {
        const n1 = await cl.direct('n1');
        const handle = uniqueName('Rev').replace('-', '_');
        const a = await n1.player('Ana');
        const claimed = await a.request({ type: 'claim', handle, password: 'correct horse' }, 30000);
        assert.equal(claimed.type, 'account', JSON.stringify(claimed));

        // Redis: n2's connection hears of it with n1's reason; no check runs for an hour
        const b = await signIn(await cl.direct('n2'), handle, 'n2-phone');
        const ended = await a.request({ type: 'end_session', session: b.session }, 30000);
        assert.equal(ended.type, 'account', JSON.stringify(ended));
        assert.ok(!ended.sessions.some((s) => s.id === b.session));
        assert.deepEqual(await b.c.nextType('signed_out', 15000), { type: 'signed_out', reason: 'ended' });
        assert.equal((await b.c.request({ type: 'account' })).code, 'hello_required', 'back to before hello');
        const m2 = await (await cl.direct('n2')).metrics();
        assert.equal(m2['quinteto_sessions_revoked_total{by="cluster"}'], 1);
        assert.equal(m2['quinteto_sessions_revoked_total{by="check"}'], 0);

        // the check: n2 again with a period of 1 s, Redis away (n1's message is lost)
        await checkEvery(file, 1);
        await cl.kill('n2', 'TERM');
        await until(async () => (await cl.exitStatus('n2')) !== null, { timeoutMs: 30000, what: 'n2 stopped' });
        await cl.start('n2');
        const c = await signIn(await cl.direct('n2'), handle, 'n2-tablet');
        await cl.stopRedis();
        const again = await a.request({ type: 'end_session', session: c.session }, 30000);
        assert.equal(again.type, 'account', JSON.stringify(again));
        assert.deepEqual(await c.c.nextType('signed_out', 15000), { type: 'signed_out', reason: 'revoked' });
        assert.equal((await c.c.request({ type: 'account' })).code, 'hello_required', 'back to before hello');
        const m3 = await (await cl.direct('n2')).metrics();
        assert.equal(m3['quinteto_sessions_revoked_total{by="check"}'], 1);
        await cl.startRedis();
      });
    } finally {
      await rm(conf, { recursive: true, force: true });
    }
  });
