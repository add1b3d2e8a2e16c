// lib.mjs: the browser tests' helpers, all from the shared harness in tests/lib/ (the integration
// tests use the same one): the real server (free port, temporary database, sanitizer options,
// exit status 0 required, every frame schema-checked) and Debian's Chromium driven through the
// web client's browser-test contract (action builders, clients/web/games/registry.js).

import path from 'node:path';
import { readFile } from 'node:fs/promises';
import { withServer as withServerShared } from '../lib/server.mjs';

export { sleep, until, freePort, rng, Server } from '../lib/server.mjs';
export {
  CHROMIUM_FLAGS, launchBrowser, newPlayerPage, artifactsDir, noProblems, roomIdOf, createRoom,
  legalActions, checkActionBuilders, playAction, playRandomLegal, MANUAL, QUICK_BOTS, browserFor, closeAll,
  waitTurnOrResult, playToResult,
} from '../lib/browser.mjs';

// Runs body(srv) against a fresh server (bots wait 50 ms so a person can follow them).
export function withServer(body, opts = {}) {
  return withServerShared({ botDelayMs: 50, ...opts }, body);
}

// The rules module (/wasm/rules.wasm, which the replay page's worker loads), served to the pages of
// `context` from the build (QUINTETO_TEST_WASM) when the server `srv` does not serve it as application/wasm.
export async function serveRulesWasm(context, srv) {
  const r = await fetch(`${srv.url}/wasm/rules.wasm`);
  if (r.ok && (r.headers.get('content-type') || '').startsWith('application/wasm')) return;
  const body = await readFile(path.join(process.env.QUINTETO_TEST_WASM, 'rules.wasm'));
  await context.route('**/wasm/rules.wasm', (route) => route.fulfill({ status: 200, contentType: 'application/wasm', body }));
}
