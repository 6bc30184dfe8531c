// Several batches in flight, results handed on strictly in input order, memory bounded by the
// window: a new batch is started only when fewer than `concurrency` are outstanding, so the
// producer (the input reader) waits while the window is full (back-pressure end to end).
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
}

interface Slot<B, R> {
  batch: B;
  promise: Promise<R>;
}

export class OrderedPipeline<B, R> {
  private readonly window: Slot<B, R>[] = [];
  private readonly stop = new AbortController();
  private readonly signal: AbortSignal;

  constructor(private readonly opts: PipelineOptions<B, R>) {
    if (!Number.isInteger(opts.concurrency) || opts.concurrency < 1) throw new RangeError('concurrency must be a positive integer');
    this.signal = opts.signal ? AbortSignal.any([opts.signal, this.stop.signal]) : this.stop.signal;
  }

  /** batches sent and not yet delivered */
  get outstanding(): number {
    return this.window.length;
  }

  /** Starts a batch; resolves once there is room for the next one (earlier results delivered in order). */
  async submit(batch: B): Promise<void> {
    if (this.opts.signal?.aborted) throw new InterruptedError();
    const promise = this.opts.send(batch, this.signal);
    promise.catch(() => undefined); // awaited in order below; never an unhandled rejection meanwhile
    this.window.push({ batch, promise });
    while (this.window.length >= this.opts.concurrency) await this.deliverHead();
  }

  /** Waits for every outstanding batch and delivers it. */
  async finish(): Promise<void> {
    while (this.window.length) await this.deliverHead();
  }

  /** Gives up: cancels the requests in flight. */
  cancel(): void {
    this.stop.abort();
    this.window.length = 0;
  }

  private async deliverHead(): Promise<void> {
    const slot = this.window.shift()!;
    let outcome: R;
    try {
      outcome = await slot.promise;
    } catch (e) {
      this.cancel();
      if (e instanceof InterruptedError || this.opts.signal?.aborted) throw new InterruptedError();
      throw new BatchFailure(slot.batch, e);
    }
    try {
      await this.opts.deliver(slot.batch, outcome);
    } catch (e) {
      this.cancel();
      throw e;
    }
  }
}
