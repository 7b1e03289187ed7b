/**
 * Events pushed by concurrent work (tool calls, a streaming model reply) and yielded in order
 * by the run's generator while it waits for that work.
 */
export class EventChannel<E> {
  private readonly queue: E[] = [];
  private wake: (() => void) | undefined;

  push = (event: E): void => {
    this.queue.push(event);
    this.wakeUp();
  };

  /** Yields pushed events until `work` settles, then the rest; returns (or throws) what `work` does. */
  async *drain<T>(work: Promise<T>): AsyncGenerator<E, T> {
    let settled = false;
    work.then(
      () => {
        settled = true;
        this.wakeUp();
      },
      () => {
        settled = true;
        this.wakeUp();
      },
    );
    for (;;) {
      while (this.queue.length > 0) yield this.queue.shift()!;
      if (settled) break;
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
    }
    return await work;
  }

  private wakeUp(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }
}
