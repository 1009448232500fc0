/**
 * At most `limit` tasks running at once; the rest wait in the order they came
 * (FIFO), so no caller starves. A task that throws or rejects frees its place
 * like one that succeeds. Used to keep one busy site from taking the whole
 * upstream connection pool, and a cold start of many sites from flooding
 * /granttoken: every site gets its turn.
 */
export class ConcurrencyGate {
  private running = 0;
  /** Who waits for a place, oldest first; each is started by the task that frees it. */
  private readonly queue: (() => void)[] = [];
  /** Index of the oldest waiter in `queue`: shifting a long array is O(n), moving an index is not. */
  private head = 0;

  constructor(private readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`a concurrency gate needs a limit of 1 or more, not ${limit}`);
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running < this.limit) this.running += 1;
    // The place is handed over by release(): running stays counted, so no newcomer can jump the queue.
    else await new Promise<void>((resolve) => this.queue.push(resolve));
    try {
      return await task();
    } finally {
      this.release();
    }
  }

  /** Tasks running now. */
  get inFlight(): number {
    return this.running;
  }

  /** Tasks waiting for a place. */
  get waiting(): number {
    return this.queue.length - this.head;
  }

  private release(): void {
    if (this.head < this.queue.length) {
      const next = this.queue[this.head]!;
      this.head += 1;
      // Under steady load the queue never empties: drop the served front now and then.
      if (this.head === this.queue.length || (this.head >= 1024 && this.head * 2 >= this.queue.length)) {
        this.queue.splice(0, this.head);
        this.head = 0;
      }
      next();
      return;
    }
    this.running -= 1;
  }
}
