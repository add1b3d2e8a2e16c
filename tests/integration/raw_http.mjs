// raw_http.mjs: bytes on a socket for the tests that must control every one of them (an HTTP
// request no client library would send, a WebSocket upgrade or frame by hand): one exchange on a
// fresh plain or TLS connection, the HTTP/1.x answer parsed, and the API's JSON error checked.

import net from 'node:net';
import tls from 'node:tls';
import { randomBytes } from 'node:crypto';
import { assert, schemaCheck } from './lib.mjs';

// An HTTP/1.x answer in bytes: {status, headers (lower-case names), body}, or null while incomplete
// (headers not all there, or fewer body bytes than Content-Length says).
export function tryParseAnswer(data) {
  const text = data.toString('latin1');
  const end = text.indexOf('\r\n\r\n');
  if (end < 0) return null;
  const [statusLine, ...lines] = text.slice(0, end).split('\r\n');
  const m = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine);
  const headers = {};
  for (const l of lines) {
    const i = l.indexOf(':');
    headers[l.slice(0, i).trim().toLowerCase()] = l.slice(i + 1).trim();
  }
  const body = data.subarray(end + 4);
  const want = headers['content-length'] === undefined ? null : Number(headers['content-length']);
  if (want !== null && body.length < want) return null;
  return { status: m ? Number(m[1]) : 0, statusLine, headers, body: body.toString('utf8') };
}

export function parseAnswer(data) {
  const ans = tryParseAnswer(data);
  assert.ok(ans && ans.status, `an HTTP answer, got ${JSON.stringify(data.toString('latin1').slice(0, 300))}`);
  return ans;
}

// Sends `bytes` on a fresh connection to 127.0.0.1:port (TLS with `tls: true`, any certificate) and
// collects what comes back until the peer closes, or (`whole: true`) a whole answer is in, or `ms`
// pass. Resolves {data, closed}.
export function exchange(port, bytes, { ms = 5000, tls: useTls = false, whole = false } = {}) {
  return new Promise((resolve) => {
    const s = useTls
      ? tls.connect({ port, host: '127.0.0.1', rejectUnauthorized: false, ALPNProtocols: ['http/1.1'] })
      : net.connect(port, '127.0.0.1');
    const chunks = [];
    let done = false;
    const finish = (closed) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      s.destroy();
      resolve({ data: Buffer.concat(chunks), closed });
    };
    const timer = setTimeout(() => finish(false), ms);
    s.on('data', (b) => {
      chunks.push(b);
      if (whole && tryParseAnswer(Buffer.concat(chunks))) finish(false);
    });
    s.on('error', () => finish(true));
    s.on('close', () => finish(true));
    s.once(useTls ? 'secureConnect' : 'connect', () => s.write(bytes));
  });
}

// Asserts a JSON error answer: status, Content-Type, a body of http-error.json with `code`.
export function assertJsonError(ans, status, code, what) {
  assert.equal(ans.status, status, `${what}: status ${ans.statusLine} ${ans.body}`);
  assert.match(ans.headers['content-type'] || '', /^application\/json/, `${what}: Content-Type`);
  let json;
  try { json = JSON.parse(ans.body); } catch (e) { assert.fail(`${what}: not JSON: ${ans.body}`); }
  assert.equal(schemaCheck('http-error.json', json), null, `${what}: ${ans.body}`);
  assert.equal(json.error, code, what);
  if (ans.headers['content-length'] !== undefined)
    assert.equal(Number(ans.headers['content-length']), Buffer.byteLength(ans.body), `${what}: Content-Length`);
}

// A WebSocket upgrade request for /ws; `version` undefined leaves Sec-WebSocket-Version out.
export function upgradeRequest(host, version) {
  return `GET /ws HTTP/1.1\r\nHost: ${host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
    `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\n` +
    (version === undefined ? '' : `Sec-WebSocket-Version: ${version}\r\n`) +
    'Sec-WebSocket-Protocol: quinteto.v1\r\n\r\n';
}

// A masked client frame of less than 126 bytes.
export function frame(payload, { fin = true, opcode = 1 } = {}) {
  const p = Buffer.from(payload);
  assert.ok(p.length < 126);
  const mask = randomBytes(4);
  return Buffer.concat([Buffer.from([(fin ? 0x80 : 0) | opcode, 0x80 | p.length]), mask,
    Buffer.from(p.map((b, i) => b ^ mask[i % 4]))]);
}

// The server's (unmasked) frames in `buf`, from its start: [{fin, opcode, payload}]; an incomplete
// last frame is left out.
export function serverFrames(buf) {
  const out = [];
  let i = 0;
  while (i + 2 <= buf.length) {
    let len = buf[i + 1] & 0x7f, at = i + 2;
    if (len === 126) { if (at + 2 > buf.length) break; len = buf.readUInt16BE(at); at += 2; }
    else if (len === 127) { if (at + 8 > buf.length) break; len = Number(buf.readBigUInt64BE(at)); at += 8; }
    if (at + len > buf.length) break;
    out.push({ fin: !!(buf[i] & 0x80), opcode: buf[i] & 0x0f, payload: buf.subarray(at, at + len) });
    i = at + len;
  }
  return out;
}

// A WebSocket on a raw socket, upgraded: {sock, frames() (the server's so far), closed (a promise)}.
export async function rawWebSocket(port) {
  const sock = net.connect(port, '127.0.0.1');
  let got = Buffer.alloc(0);
  sock.on('data', (b) => { got = Buffer.concat([got, b]); });
  sock.on('error', () => {});
  const closed = new Promise((resolve) => sock.on('close', resolve));
  await new Promise((resolve) => sock.once('connect', resolve));
  sock.write(upgradeRequest(`127.0.0.1:${port}`, '13'));
  for (let i = 0; i < 500 && !got.includes('\r\n\r\n'); i++) await new Promise((r) => setTimeout(r, 10));
  assert.match(got.toString('latin1'), /^HTTP\/1\.1 101 /);
  const start = got.indexOf('\r\n\r\n') + 4;
  return { sock, closed, frames: () => serverFrames(got.subarray(start)) };
}
