// One waiter, woken once: the handshake between a producer and a consumer that take turns (the
// translate pipeline's room for the next batch, the pay-once layer's reader and consumer).

/** `wait()` parks the waiter until the next `wake()`; a wake with nobody waiting is lost (the waiter looks again before it waits). */
export class Wakeup {
  private waiter?: () => void;

  wait(): Promise<void> {
    return new Promise<void>((resolve) => (this.waiter = resolve));
  }

  wake(): void {
    const w = this.waiter;
    this.waiter = undefined;
    w?.();
  }
}
