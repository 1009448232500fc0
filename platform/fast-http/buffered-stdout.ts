import { pino, type DestinationStream } from 'pino';

/**
 * Characters of log lines gathered before they are handed on as one write:
 * under load a write carries a couple of hundred request lines instead of one
 * system call each. Each write goes through the thread pool, whose hand-over
 * costs more than the write itself: 64 KiB batches instead of 4 KiB measured
 * about 1 % more throughput for a service under load. At 10,000 requests a
 * second a batch fills in about 25 ms, before LOG_FLUSH_INTERVAL_MS.
 */
export const LOG_BATCH_CHARS = 65_536;
/** When traffic is low, lines wait at most this long for the batch to fill. */
export const LOG_FLUSH_INTERVAL_MS = 100;

/**
 * The sonic-boom that writes each batch: asynchronous, and with minLength 1,
 * not 0, because sonic-boom's flush(cb) waits for writes in flight only when
 * there is a minLength (test/platform/fast-http/buffered-stdout.test.ts guards it).
 */
export const STDOUT_WRITER = { dest: 1, sync: false, minLength: 1 } as const;

/**
 * stdout without blocking the request path: lines are gathered into batches
 * (LOG_BATCH_CHARS, or every LOG_FLUSH_INTERVAL_MS) and each batch is written
 * by sonic-boom (pino.destination) asynchronously, through the thread pool. A
 * synchronous write per line cost the BFF about 8 % of its CPU under load.
 *
 * The batching is done here, not by sonic-boom's own minLength: sonic-boom 4
 * measures the byte length of the string it appends each line to, which copies
 * the whole pending buffer on every line (8.5 KB of garbage per 200-byte line
 * measured, and the garbage collection that goes with it); joining a batch of
 * lines is one copy.
 *
 * Nothing is lost at exit: flush(cb) hands the batch on and calls back once
 * every write has finished (exitAfterLogsFlushed waits for it), and an exit of
 * any kind (a fatal error too) writes whatever is left synchronously.
 */
export class BufferedStdout implements DestinationStream {
  private lines: string[] = [];
  private chars = 0;
  private readonly writer = pino.destination(STDOUT_WRITER);

  constructor() {
    setInterval(() => this.handOn(), LOG_FLUSH_INTERVAL_MS).unref();
    // pino's own exit hook flushes the writer first, knowing nothing of the batch gathered here.
    process.on('exit', () => this.flushSync());
  }

  write(line: string): void {
    this.lines.push(line);
    this.chars += line.length;
    if (this.chars >= LOG_BATCH_CHARS) this.handOn();
  }

  /** Hands the batch on and calls back once everything written so far has reached stdout. */
  flush(callback?: (err?: Error) => void): void {
    this.handOn();
    this.writer.flush(callback);
  }

  /** Writes everything gathered, blocking: for an exit, when no callback would run. */
  flushSync(): void {
    this.handOn();
    this.writer.flushSync();
  }

  private handOn(): void {
    if (this.chars === 0) return;
    const batch = this.lines.join('');
    this.lines = [];
    this.chars = 0;
    this.writer.write(batch);
  }
}
