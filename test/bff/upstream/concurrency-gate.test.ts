import { describe, expect, it } from 'vitest';
import { ConcurrencyGate } from '../../../bff/upstream/concurrency-gate.js';

/** A task that runs until released by hand, recording when it started. */
function heldTasks() {
  const started: number[] = [];
  const releases = new Map<number, { resolve: () => void; reject: (error: Error) => void }>();
  const task = (id: number) => () =>
    new Promise<number>((resolve, reject) => {
      started.push(id);
      releases.set(id, { resolve: () => resolve(id), reject });
    });
  return { started, task, finish: (id: number) => releases.get(id)!.resolve(), fail: (id: number) => releases.get(id)!.reject(new Error(`task ${id} failed`)) };
}

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('ConcurrencyGate', () => {
  it('runs at most `limit` tasks at once and starts the rest in the order they came', async () => {
    const gate = new ConcurrencyGate(3);
    const { started, task, finish } = heldTasks();
    const done = Array.from({ length: 10 }, (_, id) => gate.run(task(id)));
    await turn();
    expect(started).toEqual([0, 1, 2]);
    expect(gate.inFlight).toBe(3);
    expect(gate.waiting).toBe(7);

    finish(1);
    await turn();
    expect(started).toEqual([0, 1, 2, 3]);
    finish(0);
    finish(3);
    await turn();
    expect(started).toEqual([0, 1, 2, 3, 4, 5]);
    expect(gate.inFlight).toBe(3);

    for (let id = 2; id < 10; id += 1) {
      if (id !== 3) finish(id);
      await turn();
      expect(gate.inFlight).toBeLessThanOrEqual(3);
    }
    expect(await Promise.all(done)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(gate.inFlight).toBe(0);
    expect(gate.waiting).toBe(0);
  });

  it('never has more than `limit` in flight under random durations (0 to 3 turns of the event loop)', async () => {
    const gate = new ConcurrencyGate(4);
    let running = 0;
    let most = 0;
    const order: number[] = [];
    await Promise.all(
      Array.from({ length: 200 }, (_, id) =>
        gate.run(async () => {
          order.push(id);
          running += 1;
          most = Math.max(most, running);
          for (let turns = Math.floor(Math.random() * 4); turns > 0; turns -= 1) await turn();
          running -= 1;
        }),
      ),
    );
    expect(most).toBe(4);
    expect(order).toEqual(Array.from({ length: 200 }, (_, id) => id));
  });

  it('frees the place of a task that rejects or throws, and passes its error on', async () => {
    const gate = new ConcurrencyGate(1);
    const { started, task, fail, finish } = heldTasks();
    const first = gate.run(task(0));
    const thrower = gate.run(() => {
      throw new Error('thrown before any promise');
    });
    const third = gate.run(task(2));
    await turn();
    fail(0);
    await expect(first).rejects.toThrow('task 0 failed');
    await expect(thrower).rejects.toThrow('thrown before any promise');
    await turn();
    expect(started).toEqual([0, 2]);
    finish(2);
    expect(await third).toBe(2);
    expect(gate.inFlight).toBe(0);
  });

  it('refuses a limit below one', () => {
    expect(() => new ConcurrencyGate(0)).toThrow(RangeError);
    expect(() => new ConcurrencyGate(1.5)).toThrow(RangeError);
  });
});
