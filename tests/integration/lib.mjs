// lib.mjs: the integration tests' helpers, all from the shared harness in tests/lib/ (the browser
// tests use the same one). Starts the real server on a free loopback port with a temporary database
// and sanitizer options, talks to it over real WebSockets and HTTP, and validates every frame and
// API answer against protocol/schema.
//
// Usage, in a test:
//   await withServer({ args: ['--rate', '5'] }, async (srv) => {
//     const a = await srv.player('Ana');            // connected + hello'd client
//     const created = await a.request({ type: 'create', game: 'ur' });
//     ...
//   });
// withServer() stops the server with SIGTERM at the end (it must exit 0 with no sanitizer report)
// and then asserts that nothing the server sent failed its schema.

export {
  sleep, within, until, pick, schemas, schemaCheck, serverSchemaFor, freePort, Server, parseMetrics,
  withServer, assert, holdWriteLock,
} from '../lib/server.mjs';
export {
  SUBPROTOCOL, Client, createRoom, joinRoom, seatedPair, watchRoom, autoplay, WebSocket,
} from '../lib/client.mjs';
