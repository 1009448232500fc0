import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import type { OutboxSettings } from '../../../bff/notifications/notification-settings.js';
import type { Deliverer, OutboxEvent } from '../../../bff/outbox/outbox-message.js';
import { enqueueMessages, newMessageId } from '../../../bff/outbox/enqueue.js';
import type { OutboxStore } from '../../../bff/outbox/outbox-store.js';
import { OutboxWorker, type OutboxWorkerOptions } from '../../../bff/outbox/outbox-worker.js';
import { createLogger } from '../../../platform/logger.js';
import { eventually } from '../../support/eventually.js';
import { FakeClock, TEST_NOW } from '../../support/fake-clock.js';
import { SERVICES } from '../../support/services.js';
import { ENGINES } from '../sites/support/sites-test-database.js';
import { outboxDatabase, type OutboxDatabase } from './support/outbox-database.js';
import { bookingCreated, PATIENT_NAME, PATIENT_PHONE, queue } from './support/outbox-messages.js';
import { postDeliverer } from './support/post-deliverer.js';
import { startReceiver, type Receiver } from './support/receiver.js';

const T0 = Date.parse(TEST_NOW);
const HOUR = 3_600_000;
const SETTINGS: OutboxSettings = { worker: true, retryMaxDelayMs: 5 * 60_000, giveUpMs: 24 * HOUR, retentionMs: 72 * HOUR };

type LogLine = Record<string, unknown> & { msg: string };

describe.each(ENGINES)('OutboxWorker on %s', (engine) => {
  let outbox: OutboxDatabase;
  let clock: FakeClock;
  const db = () => outbox.database.db;
  const row = (id: string) => db().selectFrom('outbox_messages').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  beforeAll(async () => {
    outbox = await outboxDatabase(engine);
  });
  afterAll(() => outbox.close());
  beforeEach(async () => {
    clock = new FakeClock(TEST_NOW);
    await db().deleteFrom('outbox_messages').execute();
  });

  /**
   * A worker on the test's database, clock and receiver, stopped when the test ends. Its backoff draws
   * the lowest delay (half the step), and it polls every 10 ms so that no test waits long for it.
   */
  function startWorker(receiver: Receiver, options: Partial<OutboxWorkerOptions> = {}) {
    const lines: string[] = [];
    const worker = new OutboxWorker({
      store: outbox.store,
      deliverer: postDeliverer(receiver.url),
      clock,
      settings: SETTINGS,
      logger: createLogger('info', { write: (line: string) => void lines.push(line) }),
      random: () => 0,
      pollMs: 10,
      ...options,
    });
    onTestFinished(() => worker.stop());
    worker.start();
    return { worker, logs: (): LogLine[] => lines.map((line) => JSON.parse(line) as LogLine) };
  }

  const stateOf = async (id: string) => (await row(id)).state;

  it('delivers a queued message once and records it delivered', async () => {
    const receiver = await startReceiver();
    const [id] = await queue(db(), T0);
    startWorker(receiver);

    await eventually(async () => expect(await stateOf(id!)).toBe('delivered'));

    expect(receiver.requests).toEqual([{ id, status: 200 }]);
    const delivered = await row(id!);
    expect([Number(delivered.attempts), Number(delivered.finished_at), delivered.lease_owner, delivered.last_error]).toEqual([1, T0, null, null]);
  });

  it('looks at once when nudged, not only at its next poll', async () => {
    const receiver = await startReceiver();
    let claims = 0;
    const store: OutboxWorkerOptions['store'] = withStore(outbox.store, {
      claimDue: (...args) => {
        claims += 1;
        return outbox.store.claimDue(...args);
      },
    });
    const { worker } = startWorker(receiver, { store, pollMs: 3_600_000 });
    await eventually(() => expect(claims).toBe(1));
    const [id] = await queue(db(), T0);

    worker.nudge();

    // Its next poll is an hour away: only the nudge can have found the message.
    await eventually(async () => expect(await stateOf(id!)).toBe('delivered'));
  });

  it('tries a failed message again after 5 s, then 10 s (each drawn at half), and records its delivery', async () => {
    const receiver = await startReceiver((_id, before) => (before < 2 ? 503 : 200));
    const [id] = await queue(db(), T0);
    const { worker } = startWorker(receiver);

    await eventually(async () => expect(Number((await row(id!)).attempts)).toBe(1));
    await eventually(async () => expect(await row(id!)).toMatchObject({ state: 'pending', last_error: 'http_503', lease_owner: null }));
    expect(Number((await row(id!)).next_attempt_at)).toBe(T0 + 2_500);

    clock.advance(2_500);
    worker.nudge();
    await eventually(async () => expect(Number((await row(id!)).next_attempt_at)).toBe(T0 + 2_500 + 5_000));
    expect(receiver.requests).toHaveLength(2);

    clock.advance(5_000);
    worker.nudge();
    await eventually(async () => expect(await stateOf(id!)).toBe('delivered'));
    expect(receiver.requests).toEqual([
      { id, status: 503 },
      { id, status: 503 },
      { id, status: 200 },
    ]);
    expect(Number((await row(id!)).attempts)).toBe(3);
  });

  it('dead-letters a message still failing once OUTBOX_GIVE_UP_HOURS have passed since it was queued', async () => {
    const receiver = await startReceiver(() => 503);
    const [id] = await queue(db(), T0);
    const { worker, logs } = startWorker(receiver, { settings: { ...SETTINGS, giveUpMs: HOUR } });
    await eventually(async () => expect((await row(id!)).last_error).toBe('http_503'));

    clock.advance(HOUR);
    worker.nudge();

    await eventually(async () => expect(await stateOf(id!)).toBe('dead'));
    const dead = await row(id!);
    expect([Number(dead.attempts), Number(dead.finished_at), dead.last_error]).toEqual([2, T0 + HOUR, 'http_503']);
    // Each outcome is logged just after it is recorded: the line may follow the row the test has seen.
    await eventually(() => expect(logs().filter((line) => line.reason === 'gave_up')).toEqual([expect.objectContaining({ message_id: id, attempt: 2, error: 'http_503' })]));
  });

  it('waits for a message due later, and counts its give-up time from when it became due', async () => {
    const receiver = await startReceiver(() => 503);
    const id = newMessageId();
    // A reminder: queued now, due in two days.
    await enqueueMessages(db(), 'default', [{ id, channel: 'webhook', event: bookingCreated(), dueAt: T0 + 48 * HOUR }], T0);
    let claims = 0;
    const store = withStore(outbox.store, {
      claimDue: (...args) => {
        claims += 1;
        return outbox.store.claimDue(...args);
      },
    });
    const { worker } = startWorker(receiver, { store, settings: { ...SETTINGS, giveUpMs: HOUR } });
    // Not due: untried however often the worker looks.
    await eventually(() => expect(claims).toBeGreaterThanOrEqual(3));
    expect(Number((await row(id)).attempts)).toBe(0);
    expect(receiver.requests).toEqual([]);

    clock.advance(48 * HOUR);
    worker.nudge();
    // Due now and failing: queued 48 hours ago, but due for less than OUTBOX_GIVE_UP_HOURS, so tried again.
    await eventually(async () => expect(await row(id)).toMatchObject({ state: 'pending', last_error: 'http_503', lease_owner: null }));

    clock.advance(HOUR);
    worker.nudge();
    await eventually(async () => expect(await stateOf(id)).toBe('dead'));
  });

  it('deletes a message its Deliverer withdraws (nothing to send any more), and logs why', async () => {
    const [id] = await queue(db(), T0);
    const withdrawing: Deliverer<OutboxEvent> = { deliver: async () => ({ delivered: false, withdrawn: true, reason: 'booking Cancelled' }) };
    const receiver = await startReceiver();
    const { logs } = startWorker(receiver, { deliverer: withdrawing });

    await eventually(async () => expect(await db().selectFrom('outbox_messages').select('id').where('id', '=', id!).execute()).toEqual([]));
    await eventually(() =>
      expect(logs().filter((line) => line.msg.startsWith('outbox message withdrawn'))).toEqual([expect.objectContaining({ message_id: id, reason: 'booking Cancelled' })]),
    );
  });

  it('dead-letters at once a message no try can deliver', async () => {
    const receiver = await startReceiver(() => 410);
    const [id] = await queue(db(), T0);
    const { logs } = startWorker(receiver);

    await eventually(async () => expect(await stateOf(id!)).toBe('dead'));

    expect(await row(id!)).toMatchObject({ last_error: 'http_410', lease_owner: null });
    expect(Number((await row(id!)).attempts)).toBe(1);
    await eventually(() => expect(logs().filter((line) => line.reason === 'permanent')).toHaveLength(1));
  });

  it('delivers a dead message brought back by retry', async () => {
    const receiver = await startReceiver((_id, before) => (before === 0 ? 410 : 200));
    const [id] = await queue(db(), T0);
    const { worker } = startWorker(receiver);
    await eventually(async () => expect(await stateOf(id!)).toBe('dead'));

    clock.advance(HOUR);
    expect(await outbox.store.retry({ id: id! }, clock.now().getTime())).toBe(1);
    worker.nudge();

    await eventually(async () => expect(await stateOf(id!)).toBe('delivered'));
    expect(receiver.delivered(id!)).toBe(1);
    expect(Number((await row(id!)).attempts)).toBe(2);
  });

  it('records nothing for a try whose lease another worker took over: the new holder decides', async () => {
    const receiver = await startReceiver((_id, before) => (before === 0 ? 'hold' : 200));
    const [id] = await queue(db(), T0);
    const first = startWorker(receiver, { owner: 'worker-a' });
    await eventually(() => expect(receiver.held()).toBe(1));

    clock.advance(60_000 + 1);
    startWorker(receiver, { owner: 'worker-b' });
    await eventually(async () => expect(await stateOf(id!)).toBe('delivered'));
    receiver.release(503);

    await eventually(() => expect(first.logs().filter((line) => /lease lost/.test(line.msg))).toEqual([expect.objectContaining({ message_id: id, attempt: 1, outcome: 'failed' })]));
    const delivered = await row(id!);
    expect([delivered.state, Number(delivered.attempts), Number(delivered.finished_at), delivered.last_error]).toEqual(['delivered', 2, T0 + 60_001, null]);
    expect(receiver.delivered(id!)).toBe(1);
  });

  it('counts a Deliverer that throws as a failed try, and goes on', async () => {
    const receiver = await startReceiver();
    const [id] = await queue(db(), T0);
    const throwing: Deliverer = { deliver: () => Promise.reject(new TypeError('a bug in a channel')) };
    const { logs } = startWorker(receiver, { deliverer: throwing });

    await eventually(async () => expect((await row(id!)).last_error).toBe('deliverer_threw'));

    expect(await row(id!)).toMatchObject({ state: 'pending', lease_owner: null });
    expect(logs().filter((line) => /deliverer threw/.test(line.msg))).toEqual([expect.objectContaining({ message_id: id, err: expect.objectContaining({ type: 'TypeError' }) })]);
  });

  it('goes on after the database fails its claims, saying so once and once more when it is back', async () => {
    const receiver = await startReceiver();
    let failures = 3;
    const store = withStore(outbox.store, {
      claimDue: (...args) => (failures-- > 0 ? Promise.reject(new Error('SQLITE_BUSY: database is locked')) : outbox.store.claimDue(...args)),
    });
    const [id] = await queue(db(), T0);
    const { logs } = startWorker(receiver, { store });

    await eventually(async () => expect(await stateOf(id!)).toBe('delivered'));

    expect(logs().filter((line) => /claim/.test(line.msg) || /readable again/.test(line.msg)).map((line) => line.msg)).toEqual([
      'cannot claim outbox messages; trying again',
      'outbox readable again: delivering',
    ]);
  });

  it('names each message in its logs by id, site, channel, event type and try, never by the patient', async () => {
    const receiver = await startReceiver((_id, before) => (before === 0 ? 503 : 200));
    const [id] = await queue(db(), T0, { siteId: 'cbs_logged' });
    const { worker, logs } = startWorker(receiver);
    await eventually(async () => expect((await row(id!)).last_error).toBe('http_503'));
    clock.advance(2_500);
    worker.nudge();
    await eventually(async () => expect(await stateOf(id!)).toBe('delivered'));

    const about = await eventually(() => {
      const lines = logs().filter((line) => line.message_id === id);
      expect(lines).toHaveLength(2);
      return lines;
    });

    expect(about).toEqual([
      expect.objectContaining({ level: 40, site_id: 'cbs_logged', channel: 'webhook', event_type: 'booking.created', attempt: 1, error: 'http_503' }),
      expect.objectContaining({ level: 30, site_id: 'cbs_logged', channel: 'webhook', event_type: 'booking.created', attempt: 2, msg: 'outbox message delivered' }),
    ]);
    const text = JSON.stringify(logs());
    for (const secret of [PATIENT_NAME, PATIENT_PHONE, 'K7QM-4XRT', 'Dr Okafor']) expect(text).not.toContain(secret);
  });

  it('delivers a burst at most 8 at a time', async () => {
    let holding = 0;
    let most = 0;
    const receiver = await startReceiver(() => {
      holding += 1;
      most = Math.max(most, holding);
      return 'hold';
    });
    const ids = await queue(db(), T0, { count: 20 });
    startWorker(receiver);
    await eventually(() => expect(receiver.held()).toBe(8));

    await eventually(
      async () => {
        holding -= receiver.held();
        receiver.release(200);
        expect((await outbox.store.counts()).delivered).toBe(20);
      },
      { intervalMs: 50 },
    );

    expect(most).toBe(8);
    expect(ids.map((id) => receiver.delivered(id))).toEqual(ids.map(() => 1));
  });

  it('forgets what is past its time when it starts, and again each housekeeping round', async () => {
    const receiver = await startReceiver();
    const [old] = await queue(db(), T0 - 100 * HOUR);
    await db().updateTable('outbox_messages').set({ state: 'delivered', finished_at: T0 - 73 * HOUR }).where('id', '=', old!).execute();
    const [later] = await queue(db(), T0 - 100 * HOUR);
    await db().updateTable('outbox_messages').set({ state: 'dead', finished_at: T0 - 71 * HOUR }).where('id', '=', later!).execute();
    const { worker, logs } = startWorker(receiver, { housekeepingMs: 5 * 60_000 });

    await eventually(async () => expect((await db().selectFrom('outbox_messages').select('id').execute()).map((r) => r.id)).toEqual([later]));
    clock.advance(2 * HOUR);
    worker.nudge();
    await eventually(async () => expect(await db().selectFrom('outbox_messages').select('id').execute()).toEqual([]));

    // The line follows the deletion the test has just seen.
    await eventually(() => expect(logs().filter((line) => /housekeeping/.test(line.msg)).map((line) => line.messages)).toEqual([1, 1]));
  });

  it('stops once the delivery in flight has ended and been recorded', async () => {
    const receiver = await startReceiver(() => 'hold');
    const [id] = await queue(db(), T0);
    const { worker } = startWorker(receiver);
    await eventually(() => expect(receiver.held()).toBe(1));
    const stopping = worker.stop();

    receiver.release(200);
    await stopping;

    expect(await stateOf(id!)).toBe('delivered');
  });

  it('stops without the delivery that outlasts its bound, leaving the message to its lease', async () => {
    const receiver = await startReceiver(() => 'hold');
    const [id] = await queue(db(), T0);
    const { worker, logs } = startWorker(receiver, { owner: 'worker-a', stopTimeoutMs: 50 });
    await eventually(() => expect(receiver.held()).toBe(1));

    await worker.stop();

    expect(await row(id!)).toMatchObject({ state: 'pending', lease_owner: 'worker-a' });
    expect(logs().at(-1)).toMatchObject({ in_flight: 1, msg: expect.stringMatching(/stopped with deliveries in flight/) });
  });

  it('delivers nothing when OUTBOX_WORKER=false, and says so', async () => {
    const receiver = await startReceiver();
    const { logs } = startWorker(receiver, { settings: { ...SETTINGS, worker: false } });

    expect(logs().map((line) => line.msg)).toEqual(['outbox worker off (OUTBOX_WORKER=false): other instances deliver']);
  });

  it.runIf(engine === 'postgres')('goes on through a real outage of PostgreSQL, and delivers once it is back', async () => {
    const receiver = await startReceiver();
    const name = new URL(outbox.testDb.url).pathname.slice(1);
    const { logs } = startWorker(receiver);
    await maintenance(`alter database ${name} allow_connections false`);
    onTestFinished(() => maintenance(`alter database ${name} allow_connections true`));
    await maintenance(`select pg_terminate_backend(pid) from pg_stat_activity where datname = '${name}'`);

    await eventually(() => expect(logs().map((line) => line.msg)).toContain('cannot claim outbox messages; trying again'));
    await maintenance(`alter database ${name} allow_connections true`);
    // Queued over a connection of its own: one of the shared pool may not have heard yet that its backend is gone.
    const [id] = await queue((await outbox.connect()).database.db, T0);

    await eventually(async () => expect(await stateOf(id!)).toBe('delivered'));
    expect(logs().map((line) => line.msg)).toContain('outbox readable again: delivering');
  });
});

/** `store` with some of its methods replaced: a failure the test decides, or a count of calls. */
function withStore(store: OutboxStore, replaced: Partial<OutboxWorkerOptions['store']>): OutboxWorkerOptions['store'] {
  return {
    claimDue: store.claimDue.bind(store),
    markDelivered: store.markDelivered.bind(store),
    scheduleRetry: store.scheduleRetry.bind(store),
    markDead: store.markDead.bind(store),
    withdraw: store.withdraw.bind(store),
    forgetExpired: store.forgetExpired.bind(store),
    ...replaced,
  };
}

async function maintenance(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: SERVICES.postgres.url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
