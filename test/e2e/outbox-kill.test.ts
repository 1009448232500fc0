import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OUTBOX_LEASE_SECONDS_BOUNDS } from '../../bff/notifications/notification-settings.js';
import { MAIL_TRY_DEADLINE_MS } from '../../bff/notifications/mail-sender.js';
import { WEBHOOK_TIMEOUT_MS } from '../../bff/notifications/webhook-sender.js';
import { openSitesDatabase, type SitesDatabase } from '../../bff/sites/sites-database.js';
import { eventually } from '../support/eventually.js';
import { ensureServicesBuilt, weekdayAhead } from './support/stack.js';
import {
  bffDatabase,
  bffSettings,
  book,
  newWebhookSecret,
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
 * A BFF killed (SIGKILL) while the clinic's receivers hold its deliveries:
 * the bookings it had answered are in its database, and the BFF started
 * after it on the same SQLite file delivers them once their leases run out.
 *
 * It waits the real lease. A BFF cannot know that the one before it is dead
 * rather than slow (its process id, its host, even its lease owner may come
 * back), and a lease taken over while its try still runs sends the message
 * twice; so the lease outlasts the longest try, and a restarted BFF waits it
 * like any other. The test runs at the shortest lease the settings allow
 * (OUTBOX_LEASE_SECONDS at its least, 45), so it takes about 50 s.
 */

const LEASE_SECONDS = OUTBOX_LEASE_SECONDS_BOUNDS.min;
const MAIL_DOMAIN = 'outbox-kill.test';

describe('a BFF killed while it delivers, on a SQLite file', { timeout: 180_000 }, () => {
  const secret = newWebhookSecret();
  let reference: ReferenceClinic;
  let database: BffDatabase;
  let mailbox: ClinicMailbox;
  let receiver: WebhookReceiver;
  let env: Record<string, string>;
  const started: BffProcess[] = [];
  let db: SitesDatabase | undefined;

  beforeAll(async () => {
    await ensureServicesBuilt();
    reference = await startReferenceClinic();
    database = await bffDatabase('sqlite');
    // Both receivers take each delivery whole and never answer, until the test says otherwise.
    mailbox = await startClinicMailbox({ mode: 'hold' });
    receiver = await startWebhookReceiver(secret, { mode: 'hold' });
    env = {
      ...bffSettings(reference, database.url),
      SMTP_URL: mailbox.url,
      MAIL_FROM: `bookings@${MAIL_DOMAIN}`,
      CLINIC_NOTIFY_EMAIL: `reception@${MAIL_DOMAIN}`,
      WEBHOOK_URL: receiver.url,
      WEBHOOK_SECRET: secret,
      OUTBOX_LEASE_SECONDS: String(LEASE_SECONDS),
    };
  });

  afterAll(async () => {
    await Promise.all(started.map((bff) => bff.stop()));
    await db?.close();
    await receiver?.close();
    await mailbox?.close();
    await reference?.close();
    await database?.remove();
  });

  const startBff = async () => {
    const bff = await startBffProcess(env, database.folder);
    started.push(bff);
    return bff;
  };
  const rows = () => db!.db.selectFrom('outbox_messages').selectAll().orderBy('id').execute();
  const ownerOf = (bff: BffProcess) => String(bff.logs().find((line) => line.msg === 'outbox worker started')?.owner);

  it('runs at a lease no shorter than the longest try of either channel', () => {
    expect(LEASE_SECONDS * 1000).toBeGreaterThan(MAIL_TRY_DEADLINE_MS);
    expect(LEASE_SECONDS * 1000).toBeGreaterThan(WEBHOOK_TIMEOUT_MS);
  });

  it('delivers the bookings it had answered exactly once, from the BFF started after it, once their leases run out', async () => {
    const killed = await startBff();
    db = await openSitesDatabase(database.url);
    const day = weekdayAhead(3);
    const references = [await book(killed, day, '09:00'), await book(killed, day, '09:30')];
    // Every message claimed and tried: its e-mail and its webhook each reached the receiver, which has not answered.
    await eventually(() => expect([mailbox.held(), receiver.held()], killed.output()).toEqual([2, 2]), { timeoutMs: 30_000 });

    killed.child.kill('SIGKILL');
    expect(await killed.exited).toBe('SIGKILL');
    const orphans = await rows();
    expect(orphans.map((row) => [row.event_type, row.state, row.lease_owner, Number(row.attempts)])).toEqual(
      orphans.map(() => ['booking.created', 'pending', ownerOf(killed), 1]),
    );
    expect(orphans.map((row) => row.channel).sort()).toEqual(['email', 'email', 'webhook', 'webhook']);
    const leaseEnds = new Map(orphans.map((row) => [row.id, Number(row.lease_until)]));

    // The receivers see the killed BFF hang up, and answer from now on; a BFF starts on the same file, with a
    // lease owner of its own.
    await eventually(() => expect([mailbox.held(), receiver.held()]).toEqual([0, 0]));
    mailbox.mode = 'accept';
    receiver.release();
    const successor = await startBff();
    expect(ownerOf(successor)).not.toBe(ownerOf(killed));

    await eventually(async () => expect((await rows()).map((row) => row.state)).toEqual(['delivered', 'delivered', 'delivered', 'delivered']), {
      timeoutMs: (LEASE_SECONDS + 60) * 1000,
    });
    const delivered = await rows();
    expect(delivered.map((row) => Number(row.attempts))).toEqual([2, 2, 2, 2]);

    // The webhook receiver: each message twice (the try cut short by the kill, then the successor's), answered once.
    for (const row of delivered.filter((message) => message.channel === 'webhook')) {
      expect(receiver.requests.filter((hook) => hook.id === row.id).map((hook) => hook.status)).toEqual([undefined, 204]);
    }
    expect(receiver.requests.every((hook) => hook.verified)).toBe(true);
    expect(receiver.requests.filter((hook) => hook.status === 204).map((hook) => hook.reference).sort()).toEqual([...references].sort());
    // The mailbox: the held mails were never taken; each message's mail was taken once, under its own Message-ID.
    expect(mailbox.received.map((mail) => mail.messageId).sort()).toEqual(
      delivered.filter((row) => row.channel === 'email').map((row) => `<${row.id}@${MAIL_DOMAIN}>`),
    );
    expect(mailbox.received.map((mail) => mail.subject.slice(mail.subject.lastIndexOf(', ') + 2)).sort()).toEqual([...references].sort());

    // Delivered by the successor alone, and not before the killed BFF's leases ran out.
    await eventually(() => expect([...successor.delivered()].sort()).toEqual(delivered.map((row) => row.id)));
    expect(killed.delivered()).toEqual([]);
    for (const line of successor.logs().filter((entry) => entry.msg === 'outbox message delivered')) {
      expect(Number(line.time), String(line.message_id)).toBeGreaterThanOrEqual(leaseEnds.get(String(line.message_id))!);
    }
  });
});
