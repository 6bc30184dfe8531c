// A translation memory whose data pages hold garbage (a disk fault, a stray write) is called
// damaged, not "another program's": the user is told to restore it, not that it was never vx's.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { keyOptions, TranslationMemory } from '../../src/api/translator/memory/index.js';
import { removeDir, tempDir } from '../helpers/vx.js';

const dir = tempDir('vx-tm-damage-');
afterAll(() => removeDir(dir));

/** bytes from a fixed seed (xorshift32): the same damage at every run */
function garbage(n: number, seed = 0x2545f491): Buffer {
  const b = Buffer.alloc(n);
  let x = seed;
  for (let i = 0; i < n; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    b[i] = x & 0xff;
  }
  return b;
}

it('garbage in every data page: damaged, named, the file left as it was', async () => {
  const path = join(dir, 'notes.tm');
  const m = await TranslationMemory.open(path);
  const k = m.idsFor(keyOptions({ to: ['de'] }));
  for (let i = 0; i < 3000; i++) m.store(k, `line ${i}`, { translations: [{ text: `Zeile ${i}`, to: 'de' }] });
  await m.close();
  const clean = readFileSync(path);
  // pages 0 and 1 are the meta pages (checked before LMDB opens the file); the rest is the tree.
  // 0xAA in every byte reads as a tree without vx's mark (it was called another program's);
  // random bytes make LMDB fail on its own
  for (const fill of [(b: Buffer) => b.fill(0xaa, 2 * 4096), (b: Buffer) => garbage(b.length - 2 * 4096).copy(b, 2 * 4096)]) {
    const bytes = Buffer.from(clean);
    fill(bytes);
    writeFileSync(path, bytes);
    for (const readOnly of [false, true]) {
      await expect(TranslationMemory.open(path, { readOnly })).rejects.toThrow(new RegExp(`^translation memory ${path.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: damaged \\(.*\\); vx does not (change|overwrite) it`));
    }
    expect(readFileSync(path).equals(bytes)).toBe(true);
  }
});
