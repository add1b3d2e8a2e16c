// net_follow.test.mjs: the web client's connection (clients/web/net.js) following rooms across the nodes of
// a cluster (PROTOCOL.md's `moved`), in Node against a scripted stand-in of the nodes: one loopback WebSocket
// listener that plays node NAME for a socket opened on /ws?node=NAME (the proxy's routing and the nodes in one,
// so that the client's side can be checked alone; the real cluster is tests/browser/cluster_follow.test.mjs).
// Checked: a `moved` answer takes the socket to /ws?node=NODE, where it says `hello` with its token first and
// sends the message again with its id, and the request resolves with that node's answer; later reconnects ask
// for that node; the token is never in a URL; two nodes sending the client to each other end in the error
// `room_unreachable` after at most 3 moves; a move back to the node asked for waits the back-off; a name that
// is not a node's is not followed; the reconnect delays are cut by a random part of up to half (jitter); a
// server that never says `moved` sees /ws alone; tests/lib/client.mjs's `follow` and reopen().

import test from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { createServer } from 'node:http';
import WebSocket, { WebSocketServer } from 'ws';

globalThis.WebSocket = WebSocket; // net.js uses the browser's; `ws` has the same face
const web = path.join(process.env.QUINTETO_SOURCE, 'clients', 'web');
const { Net } = await import(path.join(web, 'net.js'));

// A stand-in for the cluster: script(node, msg, send) answers each message a socket of node `node` gets
// (after hello, which is answered welcome). Records every upgrade URL and every message per node.
async function nodes(script) {
  const http = createServer();
  const wss = new WebSocketServer({ server: http });
  const seen = { urls: [], msgs: [], sockets: new Set() };
  wss.on('connection', (ws, req) => {
    seen.urls.push(req.url);
    seen.sockets.add(ws);
    const node = new URL(req.url, 'http://x').searchParams.get('node') || 'a';
    ws.on('message', (data) => {
      const msg = JSON.parse(data.toString());
      seen.msgs.push({ node, msg });
      const send = (m) => ws.send(JSON.stringify(m));
      if (msg.type === 'hello') send({ type: 'welcome', id: msg.id, token: 'tok-secret', player: 'p1', rooms: [], seats: [] });
      else script(node, msg, send, ws);
    });
  });
  await new Promise((r) => http.listen(0, '127.0.0.1', r));
  const url = `ws://127.0.0.1:${http.address().port}/ws`;
  return {
    url, seen,
    close: () => new Promise((r) => { for (const s of seen.sockets) s.terminate(); wss.close(); http.close(r); }),
  };
}

function net(url) {
  let token = null;
  const n = new Net({ url, hello: () => (token ? { name: 'Ana', token } : { name: 'Ana' }) });
  n.addEventListener('message', (ev) => { if (ev.detail.type === 'welcome') token = ev.detail.token; });
  return n;
}

const welcomed = (n) => new Promise((resolve) => {
  const on = (ev) => { if (ev.detail.type === 'welcome') { n.removeEventListener('message', on); resolve(ev.detail); } };
  n.addEventListener('message', on);
});

test('a moved answer: the socket goes to /ws?node=, hellos with the token, and sends the message again', async () => {
  // Node a hosts nothing; node b hosts room r1.
  const c = await nodes((node, msg, send) => {
    if (msg.type === 'watch' && node !== 'b') send({ type: 'moved', room: msg.room, node: 'b', id: msg.id });
    else if (msg.type === 'watch') send({ type: 'watching', room: msg.room, id: msg.id });
    else if (msg.type === 'rooms') send({ type: 'rooms', rooms: [], id: msg.id });
  });
  const n = net(c.url);
  try {
    const first = welcomed(n);
    n.connect();
    await first;
    const movedSeen = [];
    n.addEventListener('message', (ev) => { if (ev.detail.type === 'moved') movedSeen.push(ev.detail); });
    const reply = await n.request({ type: 'watch', room: 'r1', since: 4 });
    assert.equal(reply.type, 'watching');
    assert.equal(movedSeen.length, 1, 'the app hears the moved (it remembers the node)');
    assert.equal(n.node, 'b');
    assert.deepEqual(c.seen.urls, ['/ws', '/ws?node=b']);
    const onB = c.seen.msgs.filter((x) => x.node === 'b').map((x) => x.msg);
    assert.equal(onB[0].type, 'hello', 'hello first on the new node');
    assert.equal(onB[0].token, 'tok-secret', 'with the token of the first welcome');
    const watchA = c.seen.msgs.find((x) => x.node === 'a' && x.msg.type === 'watch').msg;
    assert.deepEqual(onB[1], watchA, 'the same message, id and since included, sent again');
    // A drop now comes back to node b.
    const again = welcomed(n);
    for (const s of c.seen.sockets) if (s.readyState === WebSocket.OPEN) s.close();
    await again;
    assert.equal(c.seen.urls.at(-1), '/ws?node=b');
    assert.ok(c.seen.urls.every((u) => !u.includes('tok')), 'the token is never in a URL');
  } finally {
    n.close();
    await c.close();
  }
});

test('two nodes that send the client to each other: at most 3 moves, then room_unreachable', async () => {
  const c = await nodes((node, msg, send) => {
    if (msg.type === 'join') send({ type: 'moved', room: msg.room, node: node === 'b' ? 'a' : 'b', id: msg.id });
  });
  const n = net(c.url);
  const errors = [];
  n.addEventListener('message', (ev) => { if (ev.detail.type === 'error') errors.push(ev.detail); });
  try {
    n.connect();
    await assert.rejects(n.request({ type: 'join', room: 'r9' }), (e) => e.code === 'room_unreachable');
    assert.equal(c.seen.urls.length, 4, `the first socket and 3 moves: ${c.seen.urls}`);
    assert.deepEqual(errors.map((e) => e.code), ['room_unreachable'], 'the app hears it as an error');
    // A later request starts counting afresh (it is the person's new try).
    await assert.rejects(n.request({ type: 'join', room: 'r9' }), (e) => e.code === 'room_unreachable');
    assert.equal(c.seen.urls.length, 7);
  } finally {
    n.close();
    await c.close();
  }
});

test('moved back to the node asked for (the proxy found it down): again after the back-off, not at once', async () => {
  // Node b's room is on b, which the proxy cannot reach: every node, b's stand-in too, says moved b.
  const c = await nodes((node, msg, send) => {
    if (msg.type === 'watch') send({ type: 'moved', room: msg.room, node: 'b', id: msg.id });
  });
  const n = net(c.url);
  let delayed = 0;
  const schedule = n.scheduleReconnect.bind(n);
  n.scheduleReconnect = () => { delayed++; schedule(); };
  try {
    n.connect();
    await assert.rejects(n.request({ type: 'watch', room: 'r5' }), (e) => e.code === 'room_unreachable');
    assert.deepEqual(c.seen.urls, ['/ws', '/ws?node=b', '/ws?node=b', '/ws?node=b']);
    assert.equal(delayed, 2, 'the first move at once, the two back to b after the back-off');
  } finally {
    n.close();
    await c.close();
  }
});

test('a moved naming no node is not followed; a server that never says moved keeps /ws', async () => {
  const c = await nodes((node, msg, send) => {
    if (msg.type === 'watch' && msg.room === 'bad') send({ type: 'moved', room: msg.room, node: '../x?token=1', id: msg.id });
    else if (msg.type === 'watch') send({ type: 'watching', room: msg.room, id: msg.id });
  });
  const n = net(c.url);
  try {
    n.connect();
    assert.equal((await n.request({ type: 'watch', room: 'ok' })).type, 'watching');
    await assert.rejects(n.request({ type: 'watch', room: 'bad' }), (e) => e.code === 'room_unreachable');
    assert.equal(n.node, null);
    assert.deepEqual(c.seen.urls, ['/ws']);
  } finally {
    n.close();
    await c.close();
  }
});

test('reconnect delays: the back-off cut by a random part of up to half', () => {
  const n = new Net({ url: 'ws://127.0.0.1:9/ws', hello: () => ({ name: 'Ana' }) });
  const delays = [];
  const realTimeout = globalThis.setTimeout;
  const realRandom = Math.random;
  try {
    globalThis.setTimeout = (fn, ms) => { delays.push(ms); return 0; };
    for (const r of [0, 0.999999]) {
      Math.random = () => r;
      n.attempt = 0;
      for (let i = 0; i < 6; i++) n.scheduleReconnect();
    }
  } finally {
    globalThis.setTimeout = realTimeout;
    Math.random = realRandom;
  }
  const base = [500, 1000, 2000, 4000, 5000, 5000];
  assert.deepEqual(delays.slice(0, 6), base, 'no cut: the back-off itself');
  delays.slice(6).forEach((d, i) => assert.ok(d > base[i] / 2 && d <= base[i] / 2 + 1, `${d} vs ${base[i]}`));
});

test('the Node test client (tests/lib/client.mjs) follows moved the same way, and reopen() resumes by token', async () => {
  const { Client } = await import('../lib/client.mjs');
  const c = await nodes((node, msg, send) => {
    if (msg.type === 'join' && node !== 'c') send({ type: 'moved', room: msg.room, node: 'c', id: msg.id });
    else if (msg.type === 'join') send({ type: 'joined', room: msg.room, seat: 0, role: 'white', id: msg.id });
  });
  // What client.mjs needs of a server: its URL, its set of clients and a frame check (no schema here).
  const srv = { wsUrl: c.url, clients: new Set(), follow: true, check: (where, text) => ({ msg: JSON.parse(text), error: null }) };
  const p = new Client(srv, 'Ana');
  try {
    await p.open();
    assert.equal((await p.request({ type: 'hello', name: 'Ana' })).type, 'welcome');
    const j = await p.request({ type: 'join', room: 'r2', seat: 0 });
    assert.equal(j.type, 'joined');
    assert.deepEqual(p.moves.map((m) => m.node), ['c']);
    assert.deepEqual(c.seen.urls, ['/ws', '/ws?node=c']);
    const onC = c.seen.msgs.filter((x) => x.node === 'c').map((x) => x.msg);
    assert.equal(onC[0].type, 'hello');
    assert.equal(onC[0].token, 'tok-secret');
    assert.equal(onC[1].id, j.id, 'the join sent again with its id');
    let closedEarly = false;
    p.closed.then(() => { closedEarly = true; });
    const w = await p.reopen('d', { extra: { since: { r2: 3 } } });
    assert.equal(w.type, 'welcome');
    assert.equal(c.seen.msgs.at(-1).msg.since.r2, 3);
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(closedEarly, false, 'a replaced socket does not close the client');
    // Without `follow`, moved is an answer like any other.
    const q = new Client({ ...srv, follow: false }, 'Bruno');
    await q.open();
    await q.request({ type: 'hello', name: 'Bruno' });
    assert.equal((await q.request({ type: 'join', room: 'r2' })).type, 'moved');
    await q.close();
  } finally {
    await p.close();
    await c.close();
  }
});
