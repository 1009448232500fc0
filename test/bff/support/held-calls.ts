import { expect } from 'vitest';
import { eventually } from '../../support/eventually.js';

/**
 * Calls a stub upstream (or a proxy) holds until the test lets them go on,
 * counted by a key (`exchange`, an app key, `booking`) while they are in
 * flight. A test then sees what a gate lets through at once, or makes a
 * timeout fire, by what has arrived and when it lets it go, never by waiting
 * a fixed time: a held call is as slow as the test needs, however busy the
 * machine is.
 */
export class HeldCalls {
  private readonly counts = new Map<string, { now: number; most: number }>();
  private readonly queues = new Map<string, (() => void)[]>();
  private readonly open = new Set<string>();

  /**
   * Counts a call of `key` in flight and returns once the test lets it go on
   * (at once for a key already released). Call what it returns when the
   * call has been answered: it is no longer in flight then.
   */
  async hold(key: string): Promise<() => void> {
    const count = this.countOf(key);
    count.now += 1;
    count.most = Math.max(count.most, count.now);
    if (!this.open.has(key)) await new Promise<void>((resolve) => this.queueOf(key).push(resolve));
    let answered = false;
    return () => {
      if (answered) return;
      answered = true;
      count.now -= 1;
    };
  }

  /** Calls of `key` arrived and not yet answered, held or let go. */
  inFlight(key: string): number {
    return this.countOf(key).now;
  }

  /** The most calls of `key` that were in flight at once. */
  most(key: string): number {
    return this.countOf(key).most;
  }

  /** Calls of `key` held now. */
  held(key: string): number {
    return this.queueOf(key).length;
  }

  /** Lets the oldest held call of `key` go on; later ones are held still. */
  releaseOne(key: string): void {
    this.queueOf(key).shift()?.();
  }

  /**
   * Lets `total` calls of `key` go on one at a time, each once `limit` of them
   * are held (as many as are left, at the end): what a gate of that limit
   * does. A gate that let more through would have more held, and the wait for
   * exactly `limit` fails.
   */
  async letThroughAtLimit(key: string, total: number, limit: number): Promise<void> {
    for (let done = 0; done < total; done += 1) {
      await eventually(() => expect(this.held(key)).toBe(Math.min(limit, total - done)));
      this.releaseOne(key);
    }
  }

  /** Lets every held call of `key` go on, and every later one through at once. */
  release(key: string): void {
    this.open.add(key);
    for (const go of this.queueOf(key).splice(0)) go();
  }

  private countOf(key: string) {
    let count = this.counts.get(key);
    if (!count) this.counts.set(key, (count = { now: 0, most: 0 }));
    return count;
  }

  private queueOf(key: string) {
    let queue = this.queues.get(key);
    if (!queue) this.queues.set(key, (queue = []));
    return queue;
  }
}
