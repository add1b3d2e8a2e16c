// verify_script.test.mjs: a third party verifies an archived match with Node and the served rules module only
// (clients/tools/verify-match.mjs, docs/VERIFYING.md): a real match played against a bot on the real server is
// verified from its URL (the archive from GET /api/matches/{id}, the module from GET /wasm/rules.wasm), and a
// copy with one outcome, one action or a client seed changed is refused at the ply `quinteto verify` names.

import test from 'node:test';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { writeFile } from 'node:fs/promises';
import { assert, withServer } from './lib.mjs';
import { playAgainstBots, withTempDir, verifyFile } from '../lib/match.mjs';

const SCRIPT = path.join(process.env.QUINTETO_SOURCE, 'clients', 'tools', 'verify-match.mjs');

const run = (args, input) => new Promise((resolve) => {
  const p = spawn(process.execPath, [SCRIPT, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  p.stdout.on('data', (d) => { stdout += d; });
  p.stderr.on('data', (d) => { stderr += d; });
  p.on('close', (code) => resolve({ code, stdout, stderr }));
  p.stdin.end(input ?? '');
});

const plyOf = (text) => Number(/ply (\d+):/.exec(text)?.[1]);

test('verify-match.mjs: a served match verifies from its URL; a changed outcome, action or seed is named at the same ply as quinteto verify', { timeout: 120000 }, async () => {
  await withServer({ botDelayMs: 1 }, async (srv) => {
    const { id } = await playAgainstBots(srv, 'ur', { clientSeed: 'third party' });
    const url = `${srv.url}/api/matches/${id}`;
    const ok = await run([url]);
    assert.equal(ok.code, 0, ok.stdout + ok.stderr);
    assert.match(ok.stdout, new RegExp(`^verified: ur match ${id}, \\d+ actions`));
    const arch = await srv.archive(id);
    const fromStdin = await run(['-', '--wasm', `${srv.url}/wasm/rules.wasm`], JSON.stringify(arch));
    assert.equal(fromStdin.code, 0, fromStdin.stdout + fromStdin.stderr);

    await withTempDir('verify-script-', async (dir) => {
      const rollAt = arch.actions.findIndex((x, i) => i > 10 && x.action.roll);
      const moveAt = arch.actions.findIndex((x, i) => i > 10 && !x.action.roll && x.seat === 0);
      const cases = {
        outcome: (a) => { a.actions[rollAt].outcome.value = (a.actions[rollAt].outcome.value + 1) % 5; },
        action: (a) => { a.actions[moveAt].action = { skip: true }; },
        seed: (a) => { a.client_seeds[0] = 'another seed'; },
        server_seed: (a) => { a.server_seed = a.server_seed.replace(/^./, (c) => (c === '0' ? '1' : '0')); },
      };
      for (const [what, change] of Object.entries(cases)) {
        const bad = structuredClone(arch);
        change(bad);
        const file = path.join(dir, `${what}.json`);
        await writeFile(file, JSON.stringify(bad));
        const got = await run([file, '--wasm', `${srv.url}/wasm/rules.wasm`]);
        const cli = await verifyFile(dir, `${what}-cli.json`, bad);
        assert.equal(got.code, 1, `${what}: ${got.stdout}${got.stderr}`);
        assert.equal(cli.code, 1, `${what}: quinteto verify refuses it too`);
        assert.equal(plyOf(got.stdout), plyOf(cli.stdout + cli.stderr), `${what}: ${got.stdout} / ${cli.stdout}${cli.stderr}`);
        if (what === 'server_seed') assert.equal(plyOf(got.stdout), 0);
        if (what === 'outcome') assert.equal(plyOf(got.stdout), arch.actions[rollAt].ply);
      }
      const notJson = path.join(dir, 'not.json');
      await writeFile(notJson, '{"id":');
      assert.equal((await run([notJson, '--wasm', `${srv.url}/wasm/rules.wasm`])).code, 2);
      assert.equal((await run([path.join(dir, 'outcome.json'), '--wasm', `${srv.url}/wasm/nothing.wasm`])).code, 2);
    });
  });
});
