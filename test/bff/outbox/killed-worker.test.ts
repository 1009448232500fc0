import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { OutboxWorker } from '../../../bff/outbox/outbox-worker.js';
import { eventually } from '../../support/eventually.js';
import { FakeClock } from '../../support/fake-clock.js';
import { silentLogger } from '../../support/silent-logger.js';
import { outboxDatabase, type OutboxDatabase } from './support/outbox-database.js';
import { queue } from './support/outbox-messages.js';
import { postDeliverer } from './support/post-deliverer.js';
import { startReceiver } from './support/receiver.js';
import { startWorkerProcess } from './support/worker-process-runner.js';

const LEASE_MS = 60_000;

describe('a worker killed while it delivers, on a SQLite file', { timeout: 60_000 }, () => {
  let outbox: OutboxDatabase;
  beforeAll(async () => {
    outbox = await outboxDatabase('sqlite');
  });
  afterAll(() => outbox.close());

  it('leaves the message to another worker once its lease runs out, which delivers it exactly once', async () => {
    // The first request is held open and never answered; any later one is answered 200.
    const receiver = await startReceiver((_id, before) => (before === 0 ? 'hold' : 200));
    const [id] = await queue(outbox.database.db, Date.now());
    const killed = startWorkerProcess({ DATABASE_URL: outbox.testDb.url, RECEIVER_URL: receiver.url });
    const owner = await killed.owner;
    await eventually(() => expect(receiver.held(), killed.output()).toBe(1), { timeoutMs: 30_000 });

    killed.child.kill('SIGKILL');
    expect(await killed.exited).toBe('SIGKILL');
    const orphan = await outbox.database.db.selectFrom('outbox_messages').selectAll().where('id', '=', id!).executeTakeFirstOrThrow();
    expect([orphan.state, orphan.lease_owner, Number(orphan.attempts)]).toEqual(['pending', owner, 1]);

    // A worker of another BFF, on a connection of its own, whose clock stands past the dead worker's lease: no waiting it out.
    const { store } = await outbox.connect();
    const clock = new FakeClock(Number(orphan.lease_until) + 1);
    const survivor = new OutboxWorker({
      store,
      deliverer: postDeliverer(receiver.url),
      clock,
      settings: { worker: true, retryMaxDelayMs: 300_000, giveUpMs: 24 * 3_600_000, retentionMs: 72 * 3_600_000 },
      logger: silentLogger(),
      pollMs: 10,
      leaseMs: LEASE_MS,
    });
    onTestFinished(() => survivor.stop());
    survivor.start();

    await eventually(async () => expect((await store.get(id!))?.state).toBe('delivered'));
    expect(receiver.delivered(id!)).toBe(1);
    expect(receiver.requests).toEqual([{ id }, { id, status: 200 }]);
    expect((await store.get(id!))?.attempts).toBe(2);
  });
});
