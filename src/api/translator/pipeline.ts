// Several batches in flight, results handed on strictly in input order as soon as they are in,
// memory bounded by the window: a new batch is started only when fewer than `concurrency` are
// outstanding, so the producer (the input reader) waits while the window is full (back-pressure
// end to end), and a delivery loop writes each head batch the moment its answer arrives.
import { Wakeup } from '../../core/wakeup.js';
import { InterruptedError } from '../../core/errors.js';

/** A batch that failed after all retries, with what caused it. */
export class BatchFailure<B> extends Error {
  constructor(
    readonly batch: B,
    override readonly cause: unknown,
  ) {
    super((cause as Error)?.message ?? String(cause));
  }
}

export interface PipelineOptions<B, R> {
  concurrency: number;
  /** sends one batch (retries are the sender's business) */
  send(batch: B, signal: AbortSignal): Promise<R>;
  /** receives each batch's outcome in submission order; may be slow (writes with back-pressure) */
  deliver(batch: B, outcome: R): void | Promise<void>;
  signal?: AbortSignal;
  /** called once when the pipeline stops on a failure (before a waiting producer is woken) */
  onStop?(error: unknown): void;
}

interface Slot<B, R> {
  batch: B;
  promise: Promise<R>;
}

export class OrderedPipeline<B, R> {
  /** batches sent and not yet delivered, in submission order (the head is delivered next) */
  private readonly window: Slot<B, R>[] = [];
  private readonly stop = new AbortController();
  private readonly signal: AbortSignal;
  /** the delivery loop while it runs: delivers the head as soon as its answer is in */
  private loop?: Promise<void>;
  /** why the pipeline stopped (a failed batch, a failed delivery, an interruption) */
  private failure?: { error: unknown };
  /** wakes a producer waiting for room, after each delivery and when the loop stops */
  private readonly room = new Wakeup();

  constructor(private readonly opts: PipelineOptions<B, R>) {
    if (!Number.isInteger(opts.concurrency) || opts.concurrency < 1) throw new RangeError('concurrency must be a positive integer');
    this.signal = opts.signal ? AbortSignal.any([opts.signal, this.stop.signal]) : this.stop.signal;
  }

  /** batches sent and not yet delivered */
  get outstanding(): number {
    return this.window.length;
  }

  /**
   * Starts a batch; resolves once there is room for the next one. Results are delivered in
   * order as soon as they are in, whether or not more batches follow (a slow producer still
   * sees its earlier results written).
   */
  async submit(batch: B): Promise<void> {
    this.rethrow();
    if (this.opts.signal?.aborted) throw new InterruptedError();
    const promise = this.opts.send(batch, this.signal);
    promise.catch(() => undefined); // awaited in order by the loop; never an unhandled rejection meanwhile
    this.window.push({ batch, promise });
    this.run();
    while (this.window.length >= this.opts.concurrency && !this.failure) await this.room.wait();
    this.rethrow();
  }

  /** Waits for every outstanding batch to be delivered; throws what stopped the pipeline. */
  async finish(): Promise<void> {
    await this.loop;
    this.rethrow();
  }

  private rethrow(): void {
    if (this.failure) throw this.failure.error;
  }

  /** Gives up: cancels the requests in flight (a delivery under way completes; see `idle`). */
  cancel(): void {
    this.stop.abort();
  }

  /** Resolves once no delivery is under way any more (after `cancel`, or when all is delivered). */
  async idle(): Promise<void> {
    await this.loop;
  }

  private run(): void {
    if (this.loop) return;
    this.loop = (async () => {
      try {
        while (this.window.length && !this.failure) await this.deliverHead();
      } catch (e) {
        this.failure = { error: e };
        this.stop.abort();
      } finally {
        if (this.failure) this.window.length = 0;
        this.loop = undefined;
        // once: no loop starts after a failure (submit rethrows it first)
        if (this.failure) this.opts.onStop?.(this.failure.error);
        this.room.wake();
      }
    })();
  }

  private async deliverHead(): Promise<void> {
    const slot = this.window[0];
    let outcome: R;
    try {
      outcome = await slot.promise;
    } catch (e) {
      if (e instanceof InterruptedError || this.opts.signal?.aborted) throw new InterruptedError();
      throw new BatchFailure(slot.batch, e);
    }
    await this.opts.deliver(slot.batch, outcome);
    this.window.shift();
    this.room.wake();
  }
}
