// protocol_edges.test.mjs: the WebSocket and HTTP edge cases of issue 19 that the server itself can
// answer, over raw sockets (node:net) so that the test controls every byte. An upgrade that asks for
// another WebSocket version than 13 is 426 with `Sec-WebSocket-Version: 13`; CONNECT and methods
// libwebsockets does not know (TRACE, PROPFIND) are a JSON 405, bytes that are no HTTP request a
// JSON 400; a name that cannot be a player's is 400 on /api/players/{name} as on the list. After
// each, the server keeps serving others. What libwebsockets 4.1 decides before any callback of ours
// is documented in docs/HOSTING.md and checked through nginx (nginx_front.test.mjs).

import test from 'node:test';
import net from 'node:net';
import { assert, withServer, sleep } from './lib.mjs';
import {
  exchange, parseAnswer, assertJsonError, upgradeRequest, frame, rawWebSocket,
} from './raw_http.mjs';

test('an upgrade with a WebSocket version other than 13 is 426 with Sec-WebSocket-Version: 13', { timeout: 30000 }, async () => {
  await withServer(async (srv) => {
    const bystander = await srv.player('Bystander');
    for (const version of ['8', '12', '130', '']) {
      const { data } = await exchange(srv.port, upgradeRequest(`127.0.0.1:${srv.port}`, version), { ms: 5000, whole: true });
      const ans = parseAnswer(data);
      assertJsonError(ans, 426, 'upgrade_required', `version ${JSON.stringify(version)}`);
      assert.equal(ans.headers['sec-websocket-version'], '13', `version ${version}: the version we speak`);
      assert.equal(ans.headers.upgrade, undefined, `version ${version}: no upgrade`);
    }
    // none at all is refused the same way
    assertJsonError(parseAnswer((await exchange(srv.port, upgradeRequest(`127.0.0.1:${srv.port}`), { ms: 5000, whole: true })).data), 426,
      'upgrade_required', 'no version');
    // 13 upgrades as before, and the others are still served
    const ok = (await exchange(srv.port, upgradeRequest(`127.0.0.1:${srv.port}`, '13'), { ms: 500 })).data.toString('latin1');
    assert.match(ok, /^HTTP\/1\.1 101 /);
    assert.equal((await bystander.request({ type: 'rooms' })).type, 'rooms');
    assert.equal((await srv.http('/healthz')).status, 200);
  });
});

test('a ping between the fragments of a message is answered with its pong', { timeout: 30000 }, async () => {
  await withServer(async (srv) => {
    const s = net.connect(srv.port, '127.0.0.1');
    let got = Buffer.alloc(0);
    s.on('data', (b) => { got = Buffer.concat([got, b]); });
    const until = async (what, cond) => {
      for (let i = 0; i < 250 && !cond(); i++) await new Promise((r) => setTimeout(r, 20));
      assert.ok(cond(), `${what}; got ${got.toString('hex')}`);
    };
    s.write(upgradeRequest(`127.0.0.1:${srv.port}`, '13'));
    await until('101', () => got.includes('\r\n\r\n'));
    got = got.subarray(got.indexOf('\r\n\r\n') + 4);
    s.write(frame('{"type":"rooms",', { fin: false }));
    s.write(frame('mid-message', { opcode: 9 }));
    const pong = Buffer.concat([Buffer.from([0x8a, 11]), Buffer.from('mid-message')]);
    await until('a pong with the ping\'s payload', () => got.includes(pong));
    s.write(frame('"id":"after-ping"}', { fin: true, opcode: 0 }));
    await until('the message, reassembled around the ping', () => got.includes('"id":"after-ping"'));
    s.destroy();
  });
});

test('CONNECT, TRACE, PROPFIND are a JSON 405, bytes that are no HTTP a JSON 400; others still served', { timeout: 30000 }, async () => {
  await withServer(async (srv) => {
    const bystander = await srv.player('Bystander');
    const requests = {
      CONNECT: 'CONNECT example.org:443 HTTP/1.1\r\nHost: example.org:443\r\n\r\n',
      TRACE: 'TRACE /api/rooms HTTP/1.1\r\nHost: x\r\n\r\n',
      PROPFIND: 'PROPFIND / HTTP/1.1\r\nHost: x\r\nDepth: 1\r\n\r\n',
    };
    for (const [what, req] of Object.entries(requests)) {
      const { data, closed } = await exchange(srv.port, req);
      assert.ok(closed, `${what}: the server closes the connection`);
      const ans = parseAnswer(data);
      assertJsonError(ans, 405, 'method_not_allowed', what);
      assert.equal(ans.headers.allow, 'GET, HEAD', `${what}: Allow`);
    }
    // the second request of a keep-alive connection is parsed the same way
    const { data } = await exchange(srv.port, 'GET /healthz HTTP/1.1\r\nHost: x\r\n\r\nTRACE / HTTP/1.1\r\nHost: x\r\n\r\n');
    const text = data.toString('latin1');
    assert.match(text, /^HTTP\/1\.1 200 /, 'the GET is answered');
    const second = text.indexOf('HTTP/1.1 405 ');
    assert.ok(second > 0, `then the TRACE is 405: ${text}`);
    assertJsonError(parseAnswer(data.subarray(second)), 405, 'method_not_allowed', 'TRACE after GET');
    // a TLS hello on the plain port, and plain garbage
    for (const [what, bytes] of [['a TLS ClientHello', Buffer.from('1603010200010001fc0303', 'hex')],
      ['lower-case garbage', 'hello there\r\n\r\n']]) {
      const r = await exchange(srv.port, bytes);
      assert.ok(r.closed, `${what}: closed`);
      assertJsonError(parseAnswer(r.data), 400, 'bad_request', what);
    }
    assert.equal((await bystander.request({ type: 'rooms' })).type, 'rooms');
    assert.equal((await srv.http('/healthz')).status, 200);
  });
});

test('/api/players/{name} refuses a name that cannot be one with 400, as the list does', { timeout: 30000 }, async () => {
  await withServer(async (srv) => {
    for (const name of ['x'.repeat(25), '%01Ana', 'A%7Fna', '%C3', '%E2%80']) {
      const list = await srv.http(`/api/matches?player=${name}`);
      const one = await srv.http(`/api/players/${name}`);
      assert.equal(list.status, 400, `list ?player=${name}: ${list.status} ${list.text}`);
      assert.equal(one.status, 400, `/api/players/${name}: ${one.status} ${one.text}`);
      assert.equal(one.json.error, 'bad_request', name);
      assert.equal(one.json.message, list.json.message, `${name}: the same words`);
    }
    // a name nobody played under, none, and a deeper path are still 404
    for (const p of ['/api/players/Nobody', '/api/players/', '/api/players/Ana/x']) {
      const r = await srv.http(p);
      assert.equal(r.status, 404, `${p}: ${r.status} ${r.text}`);
      assert.equal(r.json.error, 'not_found', p);
    }
    srv.assertValid();
  });
});

test('a message begun and not finished within hello_timeout_s is closed with 1008', { timeout: 60000 }, async () => {
  await withServer({ args: ['--hello-timeout-s', '3'] }, async (srv) => {
    const bystander = await srv.player('Bystander');
    const closeOf = async (ws, what) => {
      for (let i = 0; i < 750 && !ws.frames().some((f) => f.opcode === 8); i++) await sleep(20);
      const close = ws.frames().find((f) => f.opcode === 8);
      assert.ok(close, `${what}: a close frame within 15 s (frames: ${ws.frames().map((f) => f.opcode)})`);
      return { code: close.payload.readUInt16BE(0), reason: close.payload.subarray(2).toString() };
    };
    const hello = async (ws, name) => {
      ws.sock.write(frame(JSON.stringify({ type: 'hello', name })));
      for (let i = 0; i < 250 && !ws.frames().length; i++) await sleep(20);
      assert.match(ws.frames()[0]?.payload.toString() || '', /"type":"welcome"/);
    };
    // part of a frame: a 1000-byte text frame of which 10 bytes come
    const a = await rawWebSocket(srv.port);
    await hello(a, 'Partial');
    a.sock.write(Buffer.concat([Buffer.from([0x81, 0x80 | 126, 1000 >> 8, 1000 & 255, 0, 0, 0, 0]),
      Buffer.from('{"type":"r')]));
    assert.deepEqual(await closeOf(a, 'a partial frame'), { code: 1008, reason: 'message not finished in time' });
    // a first fragment whose continuation never comes
    const b = await rawWebSocket(srv.port);
    await hello(b, 'Fragment');
    b.sock.write(frame('{"type":"rooms",', { fin: false }));
    assert.deepEqual(await closeOf(b, 'a lone first fragment'), { code: 1008, reason: 'message not finished in time' });
    // a message finished soon after it began is served, and the connection stays
    const c = await rawWebSocket(srv.port);
    await hello(c, 'Prompt');
    c.sock.write(frame('{"type":"rooms",', { fin: false }));
    await sleep(200);
    c.sock.write(frame('"id":"ok"}', { opcode: 0 }));
    for (let i = 0; i < 250 && !c.frames().some((f) => f.payload.includes('"id":"ok"')); i++) await sleep(20);
    assert.ok(c.frames().some((f) => f.payload.includes('"id":"ok"')), 'the finished message is answered');
    await sleep(4000); // past the time-out: nothing is pending, so nothing closes
    assert.ok(!c.frames().some((f) => f.opcode === 8), 'no close for a finished message');
    assert.equal((await bystander.request({ type: 'rooms' })).type, 'rooms');
    for (const ws of [a, b, c]) ws.sock.destroy();
  });
});
