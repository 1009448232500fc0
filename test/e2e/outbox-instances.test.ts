import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSitesDatabase, type SitesDatabase } from '../../bff/sites/sites-database.js';
import { eventually } from '../support/eventually.js';
import { ensureServicesBuilt, weekdayAhead } from './support/stack.js';
import {
  bffDatabase,
  bffSettings,
  book,
  newWebhookSecret,
  PATIENT,
  postgresRuns,
  requestCancel,
  startBffProcess,
  startClinicMailbox,
  startReferenceClinic,
  startWebhookReceiver,
  type BffDatabase,
  type BffProcess,
  type ClinicMailbox,
  type ReferenceClinic,
  type WebhookReceiver,
} from './support/outbox-stack.js';

/**
 * Two real BFF processes behind one load balancer, sharing one BFF database,
 * in front of the reference server, each with its outbox worker: a burst of
 * bookings and cancel requests spread over both reaches the clinic's real
 * SMTP server and its webhook receiver exactly once each (decision 18).
 */

const BOOKINGS = 40;
const CANCELS = 8;
const MAIL_DOMAIN = 'outbox-e2e.test';

/** `count` distinct starts a booking may have: the half hours of the clinic's day (08:00-17:30) on weekdays from 3 days ahead. */
function bookingStarts(count: number): { date: string; time: string }[] {
  const days: string[] = [];
  for (let ahead = 3; days.length * 20 < count; ahead++) {
    const day = weekdayAhead(ahead);
    if (!days.includes(day)) days.push(day);
  }
  return Array.from({ length: count }, (_, index) => {
    const slot = index % 20;
    return { date: days[Math.floor(index / 20)]!, time: `${String(8 + Math.floor(slot / 2)).padStart(2, '0')}:${slot % 2 ? '30' : '00'}` };
  });
}

/** The reference at the end of a mail's subject: `New booking: Tue 1 Dec 10:00, K7QM-…`. */
const subjectReference = (subject: string) => subject.slice(subject.lastIndexOf(', ') + 2);

const engines = postgresRuns ? (['sqlite', 'postgres'] as const) : (['sqlite'] as const);

describe.each(engines)('two BFF processes on one %s database', { timeout: 180_000 }, (engine) => {
  const secret = newWebhookSecret();
  let reference: ReferenceClinic;
  let database: BffDatabase;
  let mailbox: ClinicMailbox;
  let receiver: WebhookReceiver;
  let bffs: BffProcess[] = [];
  let db: SitesDatabase | undefined;

  beforeAll(async () => {
    await ensureServicesBuilt();
    reference = await startReferenceClinic();
    database = await bffDatabase(engine);
    mailbox = await startClinicMailbox();
    // Webhooks are held until both instances have claimed some: then each is seen to deliver.
    receiver = await startWebhookReceiver(secret, { mode: 'hold' });
    const env = {
      ...bffSettings(reference, database.url),
      SMTP_URL: mailbox.url,
      MAIL_FROM: `bookings@${MAIL_DOMAIN}`,
      CLINIC_NOTIFY_EMAIL: `reception@${MAIL_DOMAIN}`,
      WEBHOOK_URL: receiver.url,
      WEBHOOK_SECRET: secret,
    };
    // Both start at once on a database neither has migrated, as two instances of one deployment do: the
    // migrations take an advisory lock on PostgreSQL and the file's write lock on SQLite (sites-database.ts).
    const start = () => startBffProcess(env, database.folder);
    bffs = await Promise.all([start(), start()]);
    db = await openSitesDatabase(database.url);
  });

  afterAll(async () => {
    await Promise.all(bffs.map((bff) => bff.stop()));
    await db?.close();
    await receiver?.close();
    await mailbox?.close();
    await reference?.close();
    await database?.remove();
  });

  const rows = () => db!.db.selectFrom('outbox_messages').select(['id', 'channel', 'event_type', 'state', 'lease_owner', 'payload']).execute();
  /** Each instance's lease owner, from its 'outbox worker started' line. */
  const ownerOf = (bff: BffProcess) => String(bff.logs().find((line) => line.msg === 'outbox worker started')?.owner);

  it('tells the clinic of every booking and cancel request exactly once by e-mail and by webhook, both instances delivering', async () => {
    const [a, b] = bffs as [BffProcess, BffProcess];
    const owners = [ownerOf(a), ownerOf(b)];
    expect(new Set(owners).size).toBe(2);

    // The burst, spread over both instances; while it runs, the gate opens once each instance holds webhooks the
    // receiver has not answered: a worker has 8 slots, so neither can claim all 40.
    const booked = Promise.all(bookingStarts(BOOKINGS).map(({ date, time }, index) => book(bffs[index % 2]!, date, time)));
    await eventually(
      async () => {
        const leased = (await rows()).filter((row) => row.channel === 'webhook' && row.state === 'pending' && row.lease_owner !== null);
        expect(new Set(leased.map((row) => row.lease_owner))).toEqual(new Set(owners));
      },
      { timeoutMs: 60_000 },
    );
    receiver.release();
    const references = await booked;
    expect(new Set(references).size).toBe(BOOKINGS);

    // Cancel requests, each on the instance that did not take the booking.
    const cancelled = references.slice(0, CANCELS);
    const taken = await Promise.all(cancelled.map((ref, index) => requestCancel(bffs[(index + 1) % 2]!, ref)));
    expect(taken.map(({ status, body }) => [status, body.data.kind, body.data.already_requested])).toEqual(cancelled.map(() => [201, 'cancel', false]));
    // The same request again, on either instance: taken before, nothing sent again.
    for (const bff of bffs) {
      const again = await requestCancel(bff, cancelled[0]!);
      expect([again.status, again.body.data.already_requested, again.body.data.requested_at]).toEqual([200, true, taken[0]!.body.data.requested_at]);
    }

    // What was queued: one message per channel for each booking and each request, written before each answer.
    const queued = await rows();
    const count = (type: string, channel: string) => queued.filter((row) => row.event_type === type && row.channel === channel).length;
    expect([count('booking.created', 'email'), count('booking.created', 'webhook')]).toEqual([BOOKINGS, BOOKINGS]);
    expect([count('booking.cancel_requested', 'email'), count('booking.cancel_requested', 'webhook')]).toEqual([CANCELS, CANCELS]);

    await eventually(async () => expect((await rows()).filter((row) => row.state !== 'delivered')).toEqual([]), { timeoutMs: 90_000 });
    const messages = await rows();

    // The webhook receiver: every request verified, each id once, each message answered 2xx once.
    const hooks = receiver.requests;
    expect(hooks.filter((hook) => !hook.verified)).toEqual([]);
    expect(new Set(hooks.map((hook) => hook.id)).size).toBe(hooks.length);
    for (const message of messages.filter((row) => row.channel === 'webhook')) expect(receiver.delivered(message.id), message.id).toBe(1);
    const hooksOf = (type: string) => hooks.filter((hook) => hook.type === type).map((hook) => hook.reference).sort();
    expect(hooksOf('booking.created')).toEqual([...references].sort());
    expect(hooksOf('booking.cancel_requested')).toEqual([...cancelled].sort());

    // The mailbox: one mail per message, its Message-ID the message's id, each booking and request once.
    const mails = mailbox.received;
    expect(mails).toHaveLength(BOOKINGS + CANCELS);
    expect(new Set(mails.map((mail) => mail.messageId)).size).toBe(mails.length);
    expect(mails.map((mail) => mail.messageId).sort()).toEqual(
      messages.filter((row) => row.channel === 'email').map((row) => `<${row.id}@${MAIL_DOMAIN}>`).sort(),
    );
    expect(mails.every((mail) => mail.to.join() === `reception@${MAIL_DOMAIN}`)).toBe(true);
    const mailsOf = (subject: string) => mails.filter((mail) => mail.subject.startsWith(subject)).map((mail) => subjectReference(mail.subject)).sort();
    expect(mailsOf('New booking: ')).toEqual([...references].sort());
    expect(mailsOf('Cancellation request: ')).toEqual([...cancelled].sort());

    // Both instances delivered: each logged some of the messages as delivered (a line written after the row),
    // and no message was delivered by both.
    await eventually(() => expect([...a.delivered(), ...b.delivered()].sort()).toEqual(messages.map((row) => row.id).sort()));
    expect(a.delivered().length).toBeGreaterThan(0);
    expect(b.delivered().length).toBeGreaterThan(0);
    expect(a.delivered().filter((id) => b.delivered().includes(id))).toEqual([]);

    // No log line of either names the patient.
    for (const bff of bffs) {
      expect(bff.output()).not.toContain(PATIENT.name);
      expect(bff.output()).not.toContain(PATIENT.phone);
    }
  });
});
