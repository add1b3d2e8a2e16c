// lib.mjs: the browser tests' helpers, all from the shared harness in tests/lib/ (the integration
// tests use the same one): the real server (free port, temporary database, sanitizer options,
// exit status 0 required, every frame schema-checked) and Debian's Chromium driven through the
// web client's browser-test contract (action builders, clients/web/games/registry.js).

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

