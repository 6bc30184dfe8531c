// Two 32-bit hashes of a text's UTF-16 units, computed in one pass (FNV-1a and a multiply-xorshift,
// each finished with murmur3's mix): 64 bits between them, so that two distinct texts of a run
// share both about once in 2^64 / n^2 (and a shared pair only costs a read: the text is compared).
// Written to a shared pair of slots instead of an object, as it runs once per text.

/** the last text hashed: `hi` chooses (a Bloom filter's block, a run's order), `lo` tells apart */
export const H = { hi: 0, lo: 0 };

function mix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** Hashes `text` into H. */
export function hashText(text: string): void {
  let a = 0x811c9dc5 ^ text.length;
  let b = 0x9747b28c;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 15;
  }
  H.hi = mix(a);
  H.lo = mix(b ^ text.length);
}
