import { describe, expect, it, onTestFinished } from 'vitest';
import { systemClock } from '../../../platform/clock.js';
import type { OutboxStore } from '../../../bff/outbox/outbox-store.js';
import { OutboxWorker } from '../../../bff/outbox/outbox-worker.js';
import { eventually } from '../../support/eventually.js';
import { silentLogger } from '../../support/silent-logger.js';
import { ENGINES } from '../sites/support/sites-test-database.js';
import { outboxDatabase } from './support/outbox-database.js';
import { queue } from './support/outbox-messages.js';
import { postDeliverer } from './support/post-deliverer.js';
import { startReceiver, type Receiver } from './support/receiver.js';
import { startWorkerProcess } from './support/worker-process-runner.js';

const BURST = 200;

/** A worker as a BFF runs it (real clock, production lease and concurrency) on `store`, stopped when the test ends. */
function startWorker(store: OutboxStore, receiver: Receiver, name: string): OutboxWorker {
  const worker = new OutboxWorker({
    store,
    deliverer: postDeliverer(receiver.url, name),
    clock: systemClock,
    settings: { worker: true, retryMaxDelayMs: 300_000, giveUpMs: 24 * 3_600_000, retentionMs: 72 * 3_600_000 },
    logger: silentLogger(),
    owner: name,
    pollMs: 10,
  });
  onTestFinished(() => worker.stop());
  worker.start();
  return worker;
}

/**
 * A receiver that holds `first`'s requests until `second` has delivered one,
 * so that both workers certainly claim from the burst at the same time
 * (neither can drain it alone before the other looks), then answers 200.
 */
async function receiverMakingBothWork(first: string, second: string): Promise<Receiver> {
  const receiver = await startReceiver((_id, _before, worker) => {
    const secondDelivered = receiver.requests.some((request) => request.worker === second && request.status === 200);
    return worker === first && !secondDelivered ? 'hold' : 200;
  });
  return receiver;
}

/** Every message delivered, each exactly once as the receiver counts, each in one try; and how many each worker sent. */
async function expectEachDeliveredOnce(store: OutboxStore, receiver: Receiver, ids: string[]): Promise<Map<string, number>> {
  await eventually(
    async () => {
      // The held requests of the first worker, answered once the second has delivered.
      if (receiver.requests.some((request) => request.status === 200)) receiver.release(200);
      expect(await store.counts()).toEqual({ pending: 0, delivered: BURST, dead: 0 });
    },
    { timeoutMs: 60_000, intervalMs: 50 },
  );
  const deliveries = new Map<string, number>();
  for (const request of receiver.requests) deliveries.set(request.id, (deliveries.get(request.id) ?? 0) + 1);
  expect(receiver.requests).toHaveLength(BURST);
  expect([...deliveries.keys()].sort()).toEqual([...ids].sort());
  expect([...deliveries.values()].every((count) => count === 1)).toBe(true);
  expect((await store.list({ state: 'delivered', limit: BURST })).every((entry) => entry.attempts === 1)).toBe(true);
  const byWorker = new Map<string, number>();
  for (const request of receiver.requests) byWorker.set(request.worker!, (byWorker.get(request.worker!) ?? 0) + 1);
  return byWorker;
}

describe.each(ENGINES)('two workers on one %s database, each on a connection of its own', { timeout: 90_000 }, (engine) => {
  it(`deliver a burst of ${BURST} messages, each exactly once`, async () => {
    const outbox = await outboxDatabase(engine);
    onTestFinished(() => outbox.close());
    const receiver = await receiverMakingBothWork('worker-a', 'worker-b');
    const ids = await queue(outbox.database.db, Date.now(), { count: BURST });
    const second = await outbox.connect();

    startWorker(outbox.store, receiver, 'worker-a');
    startWorker(second.store, receiver, 'worker-b');

    const byWorker = await expectEachDeliveredOnce(outbox.store, receiver, ids);
    expect(byWorker.get('worker-a')).toBeGreaterThan(0);
    expect(byWorker.get('worker-b')).toBeGreaterThan(0);
  });
});

describe('a worker in another process and one in this, on one SQLite file', { timeout: 90_000 }, () => {
  it(`deliver a burst of ${BURST} messages, each exactly once`, async () => {
    const outbox = await outboxDatabase('sqlite');
    onTestFinished(() => outbox.close());
    const receiver = await receiverMakingBothWork('worker-here', 'worker-there');
    const there = startWorkerProcess({ DATABASE_URL: outbox.testDb.url, RECEIVER_URL: receiver.url, WORKER_NAME: 'worker-there' });
    await there.owner;

    const ids = await queue(outbox.database.db, Date.now(), { count: BURST });
    startWorker(outbox.store, receiver, 'worker-here');

    const byWorker = await expectEachDeliveredOnce(outbox.store, receiver, ids);
    expect(byWorker.get('worker-here')).toBeGreaterThan(0);
    expect(byWorker.get('worker-there')).toBeGreaterThan(0);
    expect(await there.stop()).toBe(0);
  });
});
