// core/heap.ts: once the young generation has grown to the cap, it grows no more (V8 reads
// --semi-space-growth-factor at each growth). Run in a child process: the cap is process-wide.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { transformSync } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/vx.js';

const MB = 1024 * 1024;

/** new_space's size (both semi-spaces) when the cap took and at the end of a run that keeps ~100,000 objects alive */
function run(capMb: number): { capAt?: number; end: number } {
  const lib = transformSync(readFileSync(join(ROOT, 'src', 'core', 'heap.ts'), 'utf8'), { loader: 'ts', format: 'cjs' }).code;
  const main = `
const v8 = require('node:v8');
const young = () => v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size;
const keep = [];
let capAt;
for (let i = 0; i < 2e6; i++) {
  keep.push({ text: 'line ' + i, n: [i] });
  if (keep.length > 200000) keep.splice(0, 100000);
  if (i % 500 === 0 && module.exports.capYoungGeneration(${capMb}) && capAt === undefined) capAt = young();
}
console.log(JSON.stringify({ capAt, end: young() }));`;
  const r = spawnSync(process.execPath, ['-e', `${lib}\n${main}`], { encoding: 'utf8' });
  expect(r.stderr).toBe('');
  return JSON.parse(r.stdout);
}

describe('capYoungGeneration', () => {
  it('stops the growth at the first size of the cap or more', () => {
    const capped = run(4);
    expect(capped.capAt).toBeGreaterThanOrEqual(2 * 4 * MB);
    expect(capped.end).toBe(capped.capAt);
    expect(capped.end).toBeLessThan(2 * 16 * MB);
  });

  it('without reaching the cap, the young generation grows as V8 likes (to 2 x 16 MB in Node 20)', () => {
    const free = run(64);
    expect(free.capAt).toBeUndefined();
    expect(free.end).toBeGreaterThan(2 * 8 * MB);
  });
});
