// util.mjs: small helpers shared by every Node test: timers, polling, random choices. No I/O.

import assert from 'node:assert/strict';

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// Resolves with what `promise` gives, or with null after ms; the timer never keeps the process alive.
export function within(promise, ms) {
  let timer;
  return Promise.race([promise, new Promise((r) => { timer = setTimeout(() => r(null), ms); timer.unref(); })])
    .finally(() => clearTimeout(timer));
}

// Waits until cond() is truthy (it may be async), polling; fails after timeoutMs (by default 15 s: what the
// tests wait for is the server's work, which a loaded machine can hold back for seconds; a quiet run waits no
// longer than the condition takes).
export async function until(cond, { timeoutMs = 15000, interval = 20, what = 'a condition' } = {}) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await cond();
    if (v) return v;
    if (Date.now() > end) assert.fail(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(interval);
  }
}

// Picks a random element (rnd: a generator like rng() below; Math.random by default).
export function pick(arr, rnd = Math.random) {
  return arr[Math.floor(rnd() * arr.length)];
}

// A small seeded generator (xorshift32), so a failing run can be repeated: the seed is
// $QUINTETO_TEST_SEED when set, and f.seed tells which one was used.
export function rng(seed = Number(process.env.QUINTETO_TEST_SEED) || Date.now()) {
  let x = seed >>> 0 || 1;
  const f = () => {
    x ^= x << 13; x >>>= 0; x ^= x >>> 17; x ^= x << 5; x >>>= 0;
    return x / 4294967296;
  };
  f.seed = seed;
  return f;
}
