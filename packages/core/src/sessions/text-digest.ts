/**
 * SHA-256 (FIPS 180-4) of a text fed in pieces, in plain TypeScript so that it runs in browsers as in Node. The
 * text is hashed as its UTF-16 code units, little-endian (the bytes of `Buffer.from(text, 'utf16le')`): every
 * string has exactly one such encoding, lone surrogates included, so two texts have the same digest only if they are
 * equal (up to SHA-256 collisions), which a UTF-8 encoding would not promise.
 */

/** A digest of a text that grows by appending; see {@link createTextDigest}. */
export interface TextDigest {
  /** Hashes the next piece of the text. */
  update(piece: string): void;
  /** The digest of everything so far, as 64 hex digits; more pieces may follow. */
  digest(): string;
}

/** The first 32 bits of the fractional parts of the cube roots of the first 64 primes. */
const K = Int32Array.from([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
  0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
  0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
  0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
  0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
  0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
  0xc67178f2,
]);

/** The first 32 bits of the fractional parts of the square roots of the first 8 primes. */
const INITIAL_STATE = [
  0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
];

/** Code units per 64-byte block. */
const BLOCK_UNITS = 32;

/** Mixes the 16 words at the start of `w` into `state`; `w` is the message schedule's scratch space. */
function compress(state: Int32Array, w: Int32Array): void {
  for (let i = 16; i < 64; i++) {
    const a = w[i - 15] as number;
    const b = w[i - 2] as number;
    const s0 = ((a >>> 7) | (a << 25)) ^ ((a >>> 18) | (a << 14)) ^ (a >>> 3);
    const s1 = ((b >>> 17) | (b << 15)) ^ ((b >>> 19) | (b << 13)) ^ (b >>> 10);
    w[i] = ((w[i - 16] as number) + s0 + (w[i - 7] as number) + s1) | 0;
  }
  let a = state[0] as number;
  let b = state[1] as number;
  let c = state[2] as number;
  let d = state[3] as number;
  let e = state[4] as number;
  let f = state[5] as number;
  let g = state[6] as number;
  let h = state[7] as number;
  for (let i = 0; i < 64; i++) {
    const s1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
    const choice = (e & f) ^ (~e & g);
    const t1 = (h + s1 + choice + (K[i] as number) + (w[i] as number)) | 0;
    const s0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
    const majority = (a & b) ^ (a & c) ^ (b & c);
    const t2 = (s0 + majority) | 0;
    h = g;
    g = f;
    f = e;
    e = (d + t1) | 0;
    d = c;
    c = b;
    b = a;
    a = (t1 + t2) | 0;
  }
  state[0] = ((state[0] as number) + a) | 0;
  state[1] = ((state[1] as number) + b) | 0;
  state[2] = ((state[2] as number) + c) | 0;
  state[3] = ((state[3] as number) + d) | 0;
  state[4] = ((state[4] as number) + e) | 0;
  state[5] = ((state[5] as number) + f) | 0;
  state[6] = ((state[6] as number) + g) | 0;
  state[7] = ((state[7] as number) + h) | 0;
}

/** The big-endian word of two code units, each written little-endian. */
function wordOf(first: number, second: number): number {
  return ((first & 0xff) << 24) | ((first >>> 8) << 16) | ((second & 0xff) << 8) | (second >>> 8);
}

/** Creates an empty digest. */
export function createTextDigest(): TextDigest {
  const state = Int32Array.from(INITIAL_STATE);
  const w = new Int32Array(64);
  // Code units of a block not yet complete.
  const pending = new Uint16Array(BLOCK_UNITS);
  let pendingUnits = 0;
  let totalUnits = 0;

  function compressPending(): void {
    for (let i = 0; i < 16; i++) w[i] = wordOf(pending[2 * i] as number, pending[2 * i + 1] as number);
    compress(state, w);
  }

  return {
    update(piece) {
      const length = piece.length;
      totalUnits += length;
      let at = 0;
      if (pendingUnits > 0) {
        while (pendingUnits < BLOCK_UNITS && at < length) pending[pendingUnits++] = piece.charCodeAt(at++);
        if (pendingUnits < BLOCK_UNITS) return;
        compressPending();
        pendingUnits = 0;
      }
      // Whole blocks straight from the text, without a copy.
      for (; at + BLOCK_UNITS <= length; at += BLOCK_UNITS) {
        for (let i = 0; i < 16; i++)
          w[i] = wordOf(piece.charCodeAt(at + 2 * i), piece.charCodeAt(at + 2 * i + 1));
        compress(state, w);
      }
      while (at < length) pending[pendingUnits++] = piece.charCodeAt(at++);
    },
    digest() {
      // The padding is hashed into copies, so the digest can go on taking pieces.
      const final = Int32Array.from(state);
      const bytes = new Uint8Array(128);
      for (let i = 0; i < pendingUnits; i++) {
        const unit = pending[i] as number;
        bytes[2 * i] = unit & 0xff;
        bytes[2 * i + 1] = unit >>> 8;
      }
      const used = 2 * pendingUnits;
      bytes[used] = 0x80;
      const blocks = used + 1 + 8 <= 64 ? 1 : 2;
      // The message length in bits, as a 64-bit big-endian number: 16 bits per unit.
      const bits = totalUnits * 16;
      const view = new DataView(bytes.buffer);
      view.setUint32(blocks * 64 - 8, Math.floor(bits / 0x1_0000_0000));
      view.setUint32(blocks * 64 - 4, bits >>> 0);
      const schedule = new Int32Array(64);
      for (let block = 0; block < blocks; block++) {
        for (let i = 0; i < 16; i++) schedule[i] = view.getInt32(block * 64 + 4 * i);
        compress(final, schedule);
      }
      let hex = '';
      for (const word of final) hex += (word >>> 0).toString(16).padStart(8, '0');
      return hex;
    },
  };
}
