// harness.test.mjs: the shared test harness (tests/lib) catches what it exists to catch. Each case
// plants one fault against the real server and expects the harness to fail: a frame that breaks
// its schema, a server that dies instead of exiting 0, a sanitizer report in stderr. Without these
// a harness that silently passed everything would make every integration and browser test pass.

import test from 'node:test';
import assert from 'node:assert/strict';
import {
  withServer, serverEnv, sanitizerReport, checkServerFrame, Server,
} from './server.mjs';

test('the server runs with fatal sanitizer options, keeping the caller\'s others', () => {
  const env = serverEnv({ ASAN_OPTIONS: 'detect_leaks=0:symbolize=1', PATH: '/bin' });
  assert.match(env.ASAN_OPTIONS, /(^|:)detect_leaks=1(:|$)/);
  assert.match(env.ASAN_OPTIONS, /(^|:)halt_on_error=1(:|$)/);
  assert.match(env.ASAN_OPTIONS, /(^|:)symbolize=1(:|$)/);
  assert.match(env.UBSAN_OPTIONS, /(^|:)halt_on_error=1(:|$)/);
  assert.equal(env.PATH, '/bin');
});

test('sanitizer reports in stderr are recognised', () => {
  assert.equal(sanitizerReport('quinteto-server info: stopped\n'), null);
  assert.match(sanitizerReport('x.c:12:3: runtime error: signed integer overflow\n'), /runtime error/);
  assert.match(sanitizerReport('==1==ERROR: AddressSanitizer: heap-use-after-free\n'), /AddressSanitizer/);
  assert.match(sanitizerReport('==1==ERROR: LeakSanitizer: detected memory leaks\n'), /LeakSanitizer/);
});

test('frames are checked against their schema', () => {
  assert.equal(checkServerFrame('{"type":"left","room":"abc"}').error, null);
  assert.match(checkServerFrame('{"type":"left"}').error, /left\.json/);
  assert.equal(checkServerFrame('{"type":"moved","id":3,"room":"abc","node":"node-2"}').error, null);
  assert.match(checkServerFrame('{"type":"moved","room":"abc","node":"Node 2"}').error, /moved\.json/);
  assert.match(checkServerFrame('{"type":"no_such_message"}').error, /no schema/);
  assert.match(checkServerFrame('not json').error, /not JSON/);
});

test('withServer fails a test whose server sent a frame that breaks its schema', async () => {
  await assert.rejects(withServer(async (srv) => {
    const c = await srv.player('Ana');
    assert.equal(c.invalid.length, 0, 'the real welcome validated');
    srv.check('planted', '{"type":"joined","room":"abc"}'); // no seat, no role
  }), /failed their JSON Schema[\s\S]*planted/);
});

test('withServer fails a test whose server did not exit 0', async () => {
  await assert.rejects(withServer(async (srv) => {
    srv.proc.kill('SIGKILL');
    await srv.exited;
  }), /server exit: code null, signal SIGKILL/);
});

test('stop() fails on a sanitizer report even when the exit status is 0', async () => {
  const srv = await Server.start();
  srv.stderr += 'planted: runtime error: load of misaligned address\n';
  await assert.rejects(srv.stop(), /sanitizer report/);
});
