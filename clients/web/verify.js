// verify.js: checks an archived match's dice in the browser, with the browser's own SHA-256
// (WebCrypto) and nothing of the server's code: the commit is SHA-256 of the revealed server seed,
// the match seed is SHA-256(server seed ‖ each seat's client seed as UTF-8 ‖ 0x00, in seat order),
// and the dice stream is SHA-256(match seed ‖ k as 8 bytes big-endian) for k = 0, 1, 2, ..., read a
// byte at a time over the whole match (protocol/PROTOCOL.md, "Randomness"). Each game says how its
// actions read the stream (its module's `dice`, games/<id>/dice.js); every roll of the archive must come out
// exactly as recorded. The first one that does not is named by its ply.
//
// Works in any page or in Node (globalThis.crypto.subtle); knows no game itself.

const enc = new TextEncoder();

export function hexToBytes(hex) {
  if (typeof hex !== 'string' || !/^([0-9a-fA-F]{2})*$/.test(hex)) return null;
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

export function bytesToHex(bytes) {
  return [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
}

export async function sha256(bytes) {
  return new Uint8Array(await globalThis.crypto.subtle.digest('SHA-256', bytes));
}

function concat(parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) { out.set(p, at); at += p.length; }
  return out;
}

// The match's dice stream: byte() and the two dice of the protocol.
export class DiceStream {
  constructor(matchSeed) {
    this.seed = matchSeed;
    this.block = 0n;
    this.buf = new Uint8Array(0);
    this.pos = 0;
    this.used = 0;
  }

  async byte() {
    if (this.pos >= this.buf.length) {
      const k = new Uint8Array(8);
      new DataView(k.buffer).setBigUint64(0, this.block);
      this.buf = await sha256(concat([this.seed, k]));
      this.block += 1n;
      this.pos = 0;
    }
    this.used++;
    return this.buf[this.pos++];
  }

  // A six-sided die: bytes until one is below 252, then byte % 6 + 1.
  async d6() {
    for (;;) {
      const b = await this.byte();
      if (b < 252) return (b % 6) + 1;
    }
  }

  // A tetrahedral die: one byte, marked when its lowest bit is set.
  async tetra() {
    return ((await this.byte()) & 1) === 1;
  }
}

export async function matchSeed(serverSeed, clientSeeds) {
  const parts = [serverSeed];
  for (const cs of clientSeeds) parts.push(enc.encode(cs || ''), new Uint8Array([0]));
  return sha256(concat(parts));
}

// Checks `arch` (GET /api/matches/{id}). `dice` is the game's checker (its module's `dice`) or null:
// async (action, outcome, stream) -> null when the roll is as recorded, else {field, archive, derived}.
// Resolves with {ok, step: 'commit'|'seeds'|'roll', ply, rolls, field, archive, derived, gameChecked}.
export async function verifyArchive(arch, dice) {
  const ss = hexToBytes(arch.server_seed);
  if (!ss || ss.length !== 32 || !/^[0-9a-f]{64}$/.test(arch.commit || ''))
    return { ok: false, step: 'seeds', ply: 0, rolls: 0 };
  const commit = bytesToHex(await sha256(ss));
  if (commit !== arch.commit)
    return { ok: false, step: 'commit', ply: 0, rolls: 0, archive: arch.commit, derived: commit };
  const seeds = (arch.seats || []).map((_, i) => (arch.client_seeds || [])[i] || '');
  const stream = new DiceStream(await matchSeed(ss, seeds));
  let rolls = 0;
  if (!dice) return { ok: true, rolls, gameChecked: false };
  for (const a of arch.actions || []) {
    const before = stream.used;
    const bad = await dice(a.action, a.outcome, stream);
    if (stream.used > before) rolls++;
    if (bad) return { ok: false, step: 'roll', ply: a.ply, rolls, ...bad, gameChecked: true };
  }
  return { ok: true, rolls, gameChecked: true };
}
