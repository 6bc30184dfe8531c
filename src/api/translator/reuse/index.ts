// Pay once (run.ts): each distinct text of a run sent once at any length of input, the memory's
// answers not at all, the texts another run is translating waited for; and what a run would send
// (estimate.ts), for --estimate and --dry-run.
import { getHeapStatistics } from 'node:v8';
import { oldSpaceLimit } from '../../../core/heap.js';
import { Spill } from '../spill/spill.js';
import { BUDGET, fitsBudget } from './texts.js';

export { translateReusing } from './run.js';
export { estimateReuse, newEstimate, reuseMisses, type ReuseEstimate } from './estimate.js';
export { ReuseFailure, type InnerBatch, type InnerStream, type ReuseEvent, type ReuseOptions, type ReuseTotals } from './types.js';

/**
 * The run's memory budget (bytes): VX_TRANSLATE_BUDGET (a test hook, whole bytes from 1; any other
 * value is ignored), else BUDGET, or a quarter of the old generation's limit when node was given
 * a smaller heap (--max-old-space-size=24: 6 MB), so that a run fits the heap it was given.
 */
export function runBudget(env: Readonly<Record<string, string | undefined>>, heapLimit = getHeapStatistics().heap_size_limit): number {
  const v = env.VX_TRANSLATE_BUDGET;
  if (v !== undefined && /^\d+$/.test(v) && Number(v) >= 1) return Number(v);
  const old = oldSpaceLimit(heapLimit);
  return Math.min(BUDGET, Math.floor(old / 4));
}

/**
 * The spill of a run of `input` to `targets` targets, in the temporary directory `dir`; none when
 * the input's distinct texts surely fit the run's memory (its size is known and small enough). A
 * directory that cannot be used is a UsageError naming it (before anything is sent).
 */
export function runSpill(input: { total?: number; units?: number }, targets: number, dir: string, budget?: number): Spill | undefined {
  if (input.total !== undefined && input.units !== undefined && fitsBudget(input.total, input.units, targets, budget)) return undefined;
  return Spill.open(dir, { expected: input.total });
}
