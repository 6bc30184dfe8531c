// A cap on V8's young generation for a long run that must stay within a memory budget. Node 20
// lets the young generation grow to 2 x 16 MB semi-spaces, and a long stream whose items outlive
// a collection or two always grows it that far. V8 doubles it when a collection finds enough
// survivors, by the factor --semi-space-growth-factor, which it reads at each growth: set to 1
// once the semi-spaces have reached the cap, they grow no more. (--max-semi-space-size would do
// it from the start, but only as a node flag, for every command, and it costs the short
// commands' CPU; this applies to the run that asks, from the moment it asks.)
import { getHeapSpaceStatistics, getHeapStatistics, setFlagsFromString } from 'node:v8';

let capped = false;

/**
 * Stops the young generation's growth once its semi-spaces are `mb` MB or more (true from then
 * on). Call it now and then during the run (~10 µs).
 */
export function capYoungGeneration(mb: number): boolean {
  if (capped) return true;
  const young = getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
  // new_space's size is both semi-spaces
  if (!young || young.space_size < 2 * mb * 1024 * 1024) return false;
  setFlagsFromString('--semi-space-growth-factor=1');
  capped = true;
  return true;
}

let growth: number | undefined;

/**
 * Lets V8's old generation grow by `percent` past what the last full collection kept before the
 * next one (V8 reads --heap-growing-percent whenever it sets the next limit; by default it lets a
 * heap of many long-lived objects grow to twice or more of them): less memory for a little more
 * collecting. For the rest of the process.
 */
export function limitHeapGrowth(percent: number): void {
  if (growth === percent) return;
  growth = percent;
  setFlagsFromString(`--heap-growing-percent=${percent}`);
}

/** Node 20's young generation at most on a 64-bit machine (3 semi-spaces of 16 MB), which heap_size_limit counts */
const YOUNG_MAX = 48 * 1024 * 1024;

/**
 * What V8's old generation may hold at most (bytes): the heap's limit without the young
 * generation's part (a quarter of it at least, for a heap given less than that: --max-old-space-size=24).
 */
export function oldSpaceLimit(heapLimit = getHeapStatistics().heap_size_limit): number {
  return Math.max(heapLimit / 4, heapLimit - YOUNG_MAX);
}
