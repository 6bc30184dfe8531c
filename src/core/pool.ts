// Runs a task per item with at most `concurrency` at a time, results in item order. A task's
// failure is its own (the caller turns it into a value); an abort stops new tasks from starting.
// Knows nothing of HTTP or of any API.
import { InterruptedError } from './errors.js';

export async function mapPool<T, R>(items: readonly T[], concurrency: number, task: (item: T, index: number) => Promise<R>, signal?: AbortSignal): Promise<R[]> {
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new RangeError('concurrency must be a positive integer');
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      if (signal?.aborted) throw new InterruptedError();
      const i = next++;
      results[i] = await task(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  return results;
}
