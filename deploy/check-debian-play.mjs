// check-debian-play.mjs: the client half of deploy/check-debian.sh, run on the host against the server
// installed in a fresh Debian 12 under systemd. Speaks only https:// and wss://, trusting exactly the
// instance's self-signed certificate (CA_FILE). Every frame is checked against protocol/schema/ by
// tests/lib (so QUINTETO_SOURCE must name the source tree). Steps, one per run:
//
//   node deploy/check-debian-play.mjs health HOST:PORT CA_FILE
//       /healthz and /readyz answer 200; the web client's index.html is served.
//   node deploy/check-debian-play.mjs play HOST:PORT CA_FILE STATE_FILE
//       Ana and Bo play the first game the server lists (two seats) for a few plies over wss://, then Ana stops on her turn; the room, the
//       tokens and the last state go to STATE_FILE.
//   node deploy/check-debian-play.mjs resume HOST:PORT CA_FILE STATE_FILE
//       (after a restart) the room is back at the same ply, Ana's token resumes her seat, and both
//       play the match to its end; prints the room id (its archive must then verify).
//   node deploy/check-debian-play.mjs reload HOST:PORT OLD_CA NEW_CA -- COMMAND...
//       keeps a connection open, runs COMMAND (which renews the certificate, writes NEW_CA and
//       reloads), then: a new connection is served the new
//       certificate (the old one no longer verifies) and the open connection still answers.
//
// HOST:PORT may be written http://HOST:PORT, with - for CA_FILE: plain HTTP and ws:// (the container of
// deploy/Containerfile, which serves no TLS).
//
// Exits 0 when every check passed, 1 with a message otherwise.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { connect as tlsConnect } from 'node:tls';
import assert from 'node:assert/strict';
import { Server } from '../tests/lib/server.mjs';
import { createRoom, joinRoom, watchRoom, autoplay } from '../tests/lib/client.mjs';
import { until } from '../tests/lib/util.mjs';

const [step, arg, ...rest] = process.argv.slice(2);
// http://HOST:PORT (with CA_FILE -) speaks plain HTTP and ws://, for a server without TLS (the container).
const plain = /^http:\/\//.test(arg || '');
const where = (arg || '').replace(/^https?:\/\//, '');
const [host, port] = where.split(/:(?=\d+$)/);
const readCa = (file) => (plain ? undefined : readFileSync(file));

function get(pathname, ca) {
  return new Promise((resolve, reject) => {
    const req = (plain ? httpRequest : httpsRequest)({ host, port, path: pathname, timeout: 10000,
      ...(plain ? {} : { ca, servername: 'localhost' }) }, (res) => {
      let body = '';
      res.on('data', (b) => { body += b; });
      res.on('end', () => resolve({ status: res.statusCode, body }));
    });
    req.on('timeout', () => req.destroy(new Error(`GET ${pathname}: no answer in 10 s`)));
    req.on('error', reject);
    req.end();
  });
}

// The certificate a new TLS connection is served, verified against `ca` only: its fingerprint.
function peer(ca) {
  return new Promise((resolve, reject) => {
    const s = tlsConnect({ host, port, ca, servername: 'localhost' }, () => {
      const fp = s.getPeerCertificate().fingerprint256;
      s.end();
      resolve(fp);
    });
    s.on('error', reject);
  });
}

function instance(ca) {
  const srv = new Server();
  srv.url = `${plain ? 'http' : 'https'}://${where}`;
  srv.wsUrl = `${plain ? 'ws' : 'wss'}://${where}/ws`;
  srv.wsOptions = plain ? {} : { ca, servername: 'localhost' };
  return srv;
}

function closeAll(srv) {
  for (const c of srv.clients) c.terminate();
  srv.assertValid();
}

const lastState = (c, room) => c.messages.filter((m) => m.type === 'state' && m.room === room).at(-1);

async function health(ca) {
  for (const p of ['/healthz', '/readyz']) {
    const r = await get(p, ca);
    assert.equal(r.status, 200, `GET ${p}: ${r.status} ${r.body}`);
    console.log(`GET ${p}: ${r.status} ${r.body.trim()}`);
  }
  const index = await get('/', ca);
  assert.equal(index.status, 200, `GET /: ${index.status}`);
  assert.match(index.body, /<html/i, 'GET / serves the web client');
  console.log(`GET /: ${index.status}, ${index.body.length} bytes of the web client`);
}

async function play(ca, stateFile) {
  const srv = instance(ca);
  const a = await srv.player('Ana');
  const b = await srv.player('Bo');
  // The first game the server lists (GET /api/games, its registry's order): a two-seat game.
  const listed = await get('/api/games', ca);
  assert.equal(listed.status, 200, `GET /api/games: ${listed.status}`);
  const game = JSON.parse(listed.body).games[0];
  const room = (await createRoom(a, game)).id;
  // Ana's chooser stops after a few acts: the match then waits on her and nothing moves.
  let acts = 0;
  const playA = autoplay(a, room, { choose: (st) => (acts++ < 6 ? st.legal[0] : null) });
  const playB = autoplay(b, room);
  await joinRoom(a, room, { seat: 0 });
  await joinRoom(b, room, { seat: 1 });
  await until(() => acts > 6, { timeoutMs: 30000, what: 'six acts by Ana, then Ana to act' });
  const st = lastState(a, room);
  assert.ok(st.to_act.includes(0) && st.legal.length > 0, 'Ana is to act');
  playA.stop();
  playB.stop();
  assert.deepEqual([...playA.errors, ...playB.errors], [], 'no act was refused');
  writeFileSync(stateFile, JSON.stringify({ room, ply: st.ply, view: st.view, commit: st.commit,
    a: a.welcome.token, b: b.welcome.token }));
  console.log(`played ${game} over ${plain ? 'ws' : 'wss'}://: room ${room} at ply ${st.ply}, Ana to act`);
  closeAll(srv);
}

async function resume(ca, stateFile) {
  const before = JSON.parse(readFileSync(stateFile, 'utf8'));
  const srv = instance(ca);
  const watcher = await srv.player('Watcher');
  const w0 = await watchRoom(watcher, before.room);
  assert.equal(w0.ply, before.ply, 'the room is back at the same ply');
  assert.deepEqual(w0.view, before.view, 'in the same position');
  assert.equal(w0.commit, before.commit, 'with the same committed seed');
  const a = await srv.connect({ label: 'Ana' });
  const wa = await a.request({ type: 'hello', name: 'Ana', token: before.a });
  assert.deepEqual(wa.rooms, [before.room], "Ana's token resumes her seat");
  const b = await srv.connect({ label: 'Bo' });
  const wb = await b.request({ type: 'hello', name: 'Bo', token: before.b });
  assert.deepEqual(wb.rooms, [before.room], "Bo's token resumes his seat");
  console.log(`after the restart: room ${before.room} at ply ${w0.ply}, both seats resumed`);
  const fa = autoplay(a, before.room, { since: 0 });
  const fb = autoplay(b, before.room, { since: 0 });
  const fin = await Promise.race([fa.done, new Promise((_, rej) => setTimeout(() => rej(new Error('the match did not end in 120 s')), 120000))]);
  await fb.done.catch(() => {});
  assert.equal(fin.status, 'finished');
  console.log(`played to the end: ply ${fin.ply}, result ${JSON.stringify(fin.result)}`);
  // The archive is written asynchronously.
  let archived = null;
  await until(async () => {
    const r = await get(`/api/matches/${before.room}`, ca);
    if (r.status === 200) archived = JSON.parse(r.body);
    return archived !== null;
  }, { timeoutMs: 10000, what: 'the archive' });
  assert.equal(archived.id, before.room);
  process.stdout.write(`archived ${before.room}\n`);
  closeAll(srv);
}

async function reload(oldCa, newCaFile, command) {
  assert.ok(command.length > 0, 'reload needs a command after --');
  const srv = instance(oldCa);
  const a = await srv.player('Kept');
  const fpOld = await peer(oldCa);
  execFileSync(command[0], command.slice(1), { stdio: 'inherit' });
  const newCa = readFileSync(newCaFile); // written by the command
  let fpNew = null;
  await until(async () => { fpNew = await peer(newCa).catch(() => null); return fpNew !== null; },
    { timeoutMs: 10000, what: 'a new connection served the new certificate' });
  assert.notEqual(fpNew, fpOld);
  await assert.rejects(peer(oldCa), /self[- ]signed|unable to verify|certificate/i, 'the old certificate is gone');
  assert.ok(a.isOpen, 'the open connection was kept');
  const r = await a.request({ type: 'rooms' });
  assert.equal(r.type, 'rooms', 'and it still answers');
  console.log('reload: new connections get the new certificate, the open one goes on');
  closeAll(srv);
}

try {
  if (step === 'health') await health(readCa(rest[0]));
  else if (step === 'play') await play(readCa(rest[0]), rest[1]);
  else if (step === 'resume') await resume(readCa(rest[0]), rest[1]);
  else if (step === 'reload') await reload(readFileSync(rest[0]), rest[1], rest.slice(3));
  else throw new Error(`unknown step ${step}`);
  process.exit(0);
} catch (e) {
  console.error(`check-debian-play ${step}: ${e.stack || e.message}`);
  process.exit(1);
}
