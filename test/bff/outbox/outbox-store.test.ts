import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { OutboxStore } from '../../../bff/outbox/outbox-store.js';
import { ENGINES } from '../sites/support/sites-test-database.js';
import { TEST_NOW } from '../../support/fake-clock.js';
import { bookingCreated, PATIENT_NAME, queue } from './support/outbox-messages.js';
import { outboxDatabase, type OutboxDatabase } from './support/outbox-database.js';

const T0 = Date.parse(TEST_NOW);
const LEASE = 60_000;

describe.each(ENGINES)('OutboxStore on %s', (engine) => {
  let outbox: OutboxDatabase;
  let store: OutboxStore;
  const db = () => outbox.database.db;
  const row = (id: string) => db().selectFrom('outbox_messages').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  beforeAll(async () => {
    outbox = await outboxDatabase(engine);
    store = outbox.store;
  });
  afterAll(() => outbox.close());
  beforeEach(async () => {
    await db().deleteFrom('outbox_messages').execute();
    await db().deleteFrom('booking_records').execute();
    await db().deleteFrom('change_requests').execute();
  });

  describe('claimDue', () => {
    it('leases due messages oldest first, counts the try, and hands back their events', async () => {
      const [older] = await queue(db(), T0 - 2_000);
      const [newer] = await queue(db(), T0 - 1_000, { siteId: 'cbs_other', channel: 'email' });

      const claimed = await store.claimDue('worker-a', 10, LEASE, T0);

      expect(claimed).toEqual([
        { id: older, channel: 'webhook', event: bookingCreated('default'), attempts: 1, createdAt: T0 - 2_000 },
        { id: newer, channel: 'email', event: bookingCreated('cbs_other'), attempts: 1, createdAt: T0 - 1_000 },
      ]);
      const leased = await row(older!);
      expect([leased.lease_owner, Number(leased.lease_until), Number(leased.attempts), leased.state]).toEqual(['worker-a', T0 + LEASE, 1, 'pending']);
    });

    it('takes no more than the limit, the oldest', async () => {
      const ids = [...(await queue(db(), T0 - 3_000)), ...(await queue(db(), T0 - 2_000)), ...(await queue(db(), T0 - 1_000))];

      const claimed = await store.claimDue('worker-a', 2, LEASE, T0);

      expect(claimed.map((message) => message.id)).toEqual(ids.slice(0, 2));
    });

    it('leaves a message not yet due, and one another worker holds a live lease on', async () => {
      const [future] = await queue(db(), T0 + 1);
      const [taken] = await queue(db(), T0);
      expect((await store.claimDue('worker-a', 10, LEASE, T0)).map((message) => message.id)).toEqual([taken]);

      expect(await store.claimDue('worker-b', 10, LEASE, T0 + LEASE - 1)).toEqual([expect.objectContaining({ id: future })]);
      expect(await store.claimDue('worker-b', 10, LEASE, T0 + LEASE)).toEqual([]);
    });

    it('takes over a message whose lease ran out, as the next try', async () => {
      const [id] = await queue(db(), T0);
      await store.claimDue('worker-a', 10, LEASE, T0);

      const claimed = await store.claimDue('worker-b', 10, LEASE, T0 + LEASE + 1);

      expect(claimed).toEqual([expect.objectContaining({ id, attempts: 2 })]);
      expect((await row(id!)).lease_owner).toBe('worker-b');
    });

    it('leaves delivered and dead messages alone', async () => {
      const [delivered, dead] = await queue(db(), T0, { count: 2 });
      await store.claimDue('worker-a', 10, LEASE, T0);
      await store.markDelivered(delivered!, 'worker-a', T0);
      await store.markDead(dead!, 'worker-a', 'gone', T0);

      expect(await store.claimDue('worker-a', 10, LEASE, T0 + 10 * LEASE)).toEqual([]);
    });

    it('dead-letters a payload no try could read, instead of handing it out again and again', async () => {
      const [id] = await queue(db(), T0);
      await db().updateTable('outbox_messages').set({ payload: '{not json' }).where('id', '=', id!).execute();

      expect(await store.claimDue('worker-a', 10, LEASE, T0)).toEqual([]);
      expect(await row(id!)).toMatchObject({ state: 'dead', last_error: 'unreadable payload', lease_owner: null });
    });
  });

  describe('recording a try', () => {
    it('marks a message delivered, ending the lease', async () => {
      const [id] = await queue(db(), T0);
      await store.claimDue('worker-a', 10, LEASE, T0);

      expect(await store.markDelivered(id!, 'worker-a', T0 + 500)).toBe(true);

      const delivered = await row(id!);
      expect([delivered.state, Number(delivered.finished_at), delivered.lease_owner, delivered.lease_until]).toEqual(['delivered', T0 + 500, null, null]);
    });

    it('schedules the next try with the reason, ending the lease', async () => {
      const [id] = await queue(db(), T0);
      await store.claimDue('worker-a', 10, LEASE, T0);

      expect(await store.scheduleRetry(id!, 'worker-a', T0 + 5_000, 'http_503')).toBe(true);

      const retried = await row(id!);
      expect([retried.state, Number(retried.next_attempt_at), retried.last_error, retried.lease_owner, retried.finished_at]).toEqual(['pending', T0 + 5_000, 'http_503', null, null]);
      expect(await store.claimDue('worker-b', 10, LEASE, T0 + 4_999)).toEqual([]);
      expect(await store.claimDue('worker-b', 10, LEASE, T0 + 5_000)).toEqual([expect.objectContaining({ id, attempts: 2 })]);
    });

    it('marks a message dead with a reason of one short line', async () => {
      const [id] = await queue(db(), T0);
      await store.claimDue('worker-a', 10, LEASE, T0);

      expect(await store.markDead(id!, 'worker-a', `smtp 550\n${'x'.repeat(500)}`, T0 + 1)).toBe(true);

      const dead = await row(id!);
      expect([dead.state, Number(dead.finished_at), dead.lease_owner]).toEqual(['dead', T0 + 1, null]);
      expect(dead.last_error).toMatch(/^smtp 550 x+…$/);
      expect(dead.last_error!.length).toBeLessThanOrEqual(200);
    });

    it('changes nothing for a worker whose lease was taken over', async () => {
      const [id] = await queue(db(), T0);
      await store.claimDue('worker-a', 10, LEASE, T0);
      await store.claimDue('worker-b', 10, LEASE, T0 + LEASE + 1);
      const before = await row(id!);

      expect(await store.markDelivered(id!, 'worker-a', T0 + LEASE + 2)).toBe(false);
      expect(await store.scheduleRetry(id!, 'worker-a', T0 + LEASE + 2, 'http_503')).toBe(false);
      expect(await store.markDead(id!, 'worker-a', 'gone', T0 + LEASE + 2)).toBe(false);

      expect(await row(id!)).toEqual(before);
    });

    it('changes nothing once the message is recorded by its holder', async () => {
      const [id] = await queue(db(), T0);
      await store.claimDue('worker-a', 10, LEASE, T0);
      await store.markDelivered(id!, 'worker-a', T0 + 1);

      expect(await store.markDead(id!, 'worker-a', 'late', T0 + 2)).toBe(false);
      expect((await row(id!)).state).toBe('delivered');
    });

    it('still records the outcome of a lease that ran out but was not taken over', async () => {
      const [id] = await queue(db(), T0);
      await store.claimDue('worker-a', 10, LEASE, T0);

      expect(await store.markDelivered(id!, 'worker-a', T0 + LEASE + 5)).toBe(true);
    });
  });

  describe('what an operator sees and does', () => {
    it('lists the newest messages without their payload, of one state or all', async () => {
      const [first] = await queue(db(), T0 - 1_000);
      const [second] = await queue(db(), T0, { siteId: 'cbs_x', channel: 'email' });
      await store.claimDue('worker-a', 1, LEASE, T0);
      await store.markDead(first!, 'worker-a', 'http_410', T0 + 1);

      const all = await store.list({ limit: 10 });

      expect(all).toEqual([
        { id: second, siteId: 'cbs_x', channel: 'email', eventType: 'booking.created', state: 'pending', attempts: 0, createdAt: T0, nextAttemptAt: T0, finishedAt: null, lastError: null },
        { id: first, siteId: 'default', channel: 'webhook', eventType: 'booking.created', state: 'dead', attempts: 1, createdAt: T0 - 1_000, nextAttemptAt: T0 - 1_000, finishedAt: T0 + 1, lastError: 'http_410' },
      ]);
      expect(JSON.stringify(all)).not.toContain(PATIENT_NAME);
      expect((await store.list({ state: 'dead', limit: 10 })).map((entry) => entry.id)).toEqual([first]);
      expect((await store.list({ limit: 1 })).map((entry) => entry.id)).toEqual([second]);
      expect(await store.get(first!)).toEqual(all[1]);
      expect(await store.get('msg_none')).toBeUndefined();
    });

    it('counts the messages in every state, as numbers', async () => {
      const ids = await queue(db(), T0, { count: 4 });
      await store.claimDue('worker-a', 10, LEASE, T0);
      await store.markDelivered(ids[0]!, 'worker-a', T0);
      await store.markDelivered(ids[1]!, 'worker-a', T0);
      await store.markDead(ids[2]!, 'worker-a', 'gone', T0);

      expect(await store.counts()).toEqual({ pending: 1, delivered: 2, dead: 1 });
      await db().deleteFrom('outbox_messages').execute();
      expect(await store.counts()).toEqual({ pending: 0, delivered: 0, dead: 0 });
    });

    it('brings one dead message back, due at once, its tries and reason kept', async () => {
      const [id, other] = await queue(db(), T0, { count: 2 });
      await store.claimDue('worker-a', 10, LEASE, T0);
      await store.markDead(id!, 'worker-a', 'http_410', T0 + 1);
      await store.markDead(other!, 'worker-a', 'http_410', T0 + 1);

      expect(await store.retry({ id: id! }, T0 + 10)).toBe(1);

      expect(await store.get(id!)).toMatchObject({ state: 'pending', attempts: 1, nextAttemptAt: T0 + 10, finishedAt: null, lastError: 'http_410' });
      expect((await store.get(other!))?.state).toBe('dead');
      expect(await store.claimDue('worker-b', 10, LEASE, T0 + 10)).toEqual([expect.objectContaining({ id, attempts: 2 })]);
    });

    it('brings every dead message back, and nothing else', async () => {
      const [dead1, dead2, delivered, pending] = await queue(db(), T0, { count: 4 });
      await store.claimDue('worker-a', 10, LEASE, T0);
      await store.markDead(dead1!, 'worker-a', 'x', T0);
      await store.markDead(dead2!, 'worker-a', 'x', T0);
      await store.markDelivered(delivered!, 'worker-a', T0);

      expect(await store.retry({ allDead: true }, T0 + 1)).toBe(2);

      expect(await store.counts()).toEqual({ pending: 3, delivered: 1, dead: 0 });
      expect((await store.get(pending!))?.nextAttemptAt).toBe(T0);
      expect(await store.retry({ id: delivered! }, T0 + 2)).toBe(0);
      expect(await store.retry({ id: 'msg_none' }, T0 + 2)).toBe(0);
    });

    it('purges the finished messages of one state, all or those finished long enough ago', async () => {
      const [old, recent, dead, pending] = await queue(db(), T0, { count: 4 });
      await store.claimDue('worker-a', 10, LEASE, T0);
      await store.markDelivered(old!, 'worker-a', T0);
      await store.markDelivered(recent!, 'worker-a', T0 + 3_600_000);
      await store.markDead(dead!, 'worker-a', 'x', T0);
      const now = T0 + 3 * 3_600_000;

      expect(await store.purge({ state: 'delivered', olderThanMs: 2 * 3_600_000 }, now)).toBe(1);
      expect((await store.list({ limit: 10 })).map((entry) => entry.id).sort()).toEqual([recent, dead, pending].sort());
      expect(await store.purge({ state: 'dead' }, now)).toBe(1);
      expect(await store.purge({ state: 'delivered' }, now)).toBe(1);
      expect((await store.list({ limit: 10 })).map((entry) => entry.id)).toEqual([pending]);
    });
  });

  describe('forgetExpired', () => {
    it('deletes finished messages past retention, and records and addresses past their forget_at, nothing else', async () => {
      const retention = 72 * 3_600_000;
      const now = T0 + retention + 10;
      const [gone, kept, deadGone, pending] = await queue(db(), T0 - 100, { count: 4 });
      await store.claimDue('worker-a', 10, LEASE, T0);
      await store.markDelivered(gone!, 'worker-a', T0);
      await store.markDelivered(kept!, 'worker-a', T0 + 20);
      await store.markDead(deadGone!, 'worker-a', 'x', T0 + 9);
      const record = { date: '2026-11-25', time: '10:30', doctor_id: 2, treatment_id: 3, patient_phone: '+44 7700 900461' };
      await db()
        .insertInto('booking_records')
        .values([
          { site_id: 'default', appointment_id: 1, ...record, forget_at: now - 1 },
          { site_id: 'default', appointment_id: 2, ...record, forget_at: now },
        ])
        .execute();
      await db()
        .insertInto('change_requests')
        .values([
          { site_id: 'default', appointment_id: 1, kind: 'cancel', requested_at: T0, preferred_starts: null, forget_at: now - 1 },
          { site_id: 'default', appointment_id: 2, kind: 'cancel', requested_at: T0, preferred_starts: null, forget_at: now + 1 },
        ])
        .execute();
      const wish = { email: 'jane@example.com', language: 'en', created_at: T0 };
      await db()
        .insertInto('patient_mail')
        .values([
          { site_id: 'default', appointment_id: 1, ...wish, unsubscribe_token: 'token-1', forget_at: now - 1 },
          { site_id: 'default', appointment_id: 2, ...wish, unsubscribe_token: 'token-2', forget_at: now },
        ])
        .execute();

      expect(await store.forgetExpired(now, retention)).toEqual({ messages: 2, bookingRecords: 1, changeRequests: 1, patientMail: 1 });

      expect((await store.list({ limit: 10 })).map((entry) => entry.id).sort()).toEqual([kept, pending].sort());
      expect((await db().selectFrom('booking_records').select('appointment_id').execute()).map((r) => Number(r.appointment_id))).toEqual([2]);
      expect((await db().selectFrom('change_requests').select('appointment_id').execute()).map((r) => Number(r.appointment_id))).toEqual([2]);
      expect((await db().selectFrom('patient_mail').select('appointment_id').execute()).map((r) => Number(r.appointment_id))).toEqual([2]);
    });
  });
});
