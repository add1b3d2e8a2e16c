// keepalive.test.mjs: the WebSocket keep-alive (issue 24: one sweep on the loop instead of
// libwebsockets' per-connection ping timers; server/net/session_keepalive.c). With ping_interval_s 1:
// a client that answers pings stays however long it is idle; one that never answers (ws with
// autoPong off) is pinged, then dropped after about two intervals of silence, never sooner; a busy
// client that sends messages but never answers a ping stays (any frame counts as life); the server
// serves the others throughout. Generous upper bounds (a shared machine only makes the sweep late).

import test from 'node:test';
import { assert, withServer, sleep } from './lib.mjs';

// A player whose WebSocket does not answer pings (ws answers them by itself unless told not to).
async function mute(srv, name) {
  const saved = srv.wsOptions;
  srv.wsOptions = { ...saved, autoPong: false };
  try {
    return await srv.player(name);
  } finally {
    srv.wsOptions = saved;
  }
}

function countPings(c) {
  c.pings = 0;
  c.ws.on('ping', () => { c.pings++; });
  return c;
}

test('keep-alive: pongs or messages keep a connection; silence is pinged, then dropped after two intervals', { timeout: 30000 }, async () => {
  await withServer({ args: ['--ping-interval-s', '1'] }, async (srv) => {
    const answers = countPings(await srv.player('Answers'));
    const busy = countPings(await mute(srv, 'Busy'));
    const silent = countPings(await mute(srv, 'Silent'));
    const since = Date.now(); // the silent one's last frame was its hello
    let stop = false;
    let answered = 0;
    const chatter = (async () => { // a message every 300 ms, never a pong
      while (!stop) {
        assert.equal((await busy.request({ type: 'rooms' })).type, 'rooms');
        answered++;
        await sleep(300);
      }
    })();

    const info = await silent.waitClosed(10000);
    const silentFor = Date.now() - since;
    assert.ok(silent.pings >= 1, `the silent client was pinged before it was dropped (${silent.pings})`);
    assert.equal(info.code, 1006, `dropped without a close handshake, as a dead peer would be: ${JSON.stringify(info)}`);
    assert.ok(silentFor >= 1500, `not before about two intervals of silence (dropped after ${silentFor} ms)`);

    // the others live on for several more intervals
    await sleep(Math.max(0, 5000 - (Date.now() - since)));
    stop = true;
    await chatter;
    assert.ok(answers.ws.readyState === 1, `a client that answers pings stays (${JSON.stringify(answers.closeInfo)})`);
    assert.ok(answers.pings >= 2, `and is pinged while idle (${answers.pings} pings in 5 s)`);
    assert.ok(busy.ws.readyState === 1, `a client that sends messages but never a pong stays (${JSON.stringify(busy.closeInfo)})`);
    assert.ok(answered >= 10, `and is answered all along (${answered})`);
    assert.equal((await answers.request({ type: 'rooms' })).type, 'rooms', 'the idle one is served too');
    assert.equal((await srv.http('/healthz')).status, 200);
    const m = await srv.metrics();
    assert.equal(m.quinteto_connections, 2, 'the server counts the two left');
  });
});
