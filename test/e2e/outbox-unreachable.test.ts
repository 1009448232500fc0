import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OutboxListing } from '../../bff/cli/outbox-commands.js';
import { eventually } from '../support/eventually.js';
import { freePort } from '../support/free-port.js';
import { ensureServicesBuilt, weekdayAhead } from './support/stack.js';
import {
  bffDatabase,
  bffSettings,
  book,
  newWebhookSecret,
  outboxList,
  PATIENT,
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
 * A BFF process whose clinic receivers are down (nothing listens on their
 * ports): bookings are answered all the same, their messages wait in the
 * outbox, tried again and again (every 0.5 to 1 s here:
 * OUTBOX_RETRY_MAX_DELAY_MS=1000), as `npm run bff -- outbox list` shows;
 * once the receivers come up, each message arrives once.
 */

const MAIL_DOMAIN = 'outbox-down.test';
/** What `outbox list` says of a try that found its port closed: a code, never a sentence. */
const REFUSED = 'network ECONNREFUSED';

describe('a BFF whose mail relay and webhook receiver are down', { timeout: 120_000 }, () => {
  const secret = newWebhookSecret();
  let reference: ReferenceClinic;
  let database: BffDatabase;
  let bff: BffProcess | undefined;
  let ports: { mail: number; hook: number };
  let mailbox: ClinicMailbox | undefined;
  let receiver: WebhookReceiver | undefined;
  /** Everything `outbox list` printed. */
  const listings: OutboxListing[][] = [];

  beforeAll(async () => {
    await ensureServicesBuilt();
    reference = await startReferenceClinic();
    database = await bffDatabase('sqlite');
    const mail = await freePort();
    let hook = await freePort();
    while (hook === mail) hook = await freePort();
    ports = { mail, hook };
    bff = await startBffProcess(
      {
        ...bffSettings(reference, database.url),
        SMTP_URL: `smtp://127.0.0.1:${ports.mail}`,
        MAIL_FROM: `bookings@${MAIL_DOMAIN}`,
        CLINIC_NOTIFY_EMAIL: `reception@${MAIL_DOMAIN}`,
        WEBHOOK_URL: `http://127.0.0.1:${ports.hook}/hooks/clinic`,
        WEBHOOK_SECRET: secret,
        OUTBOX_RETRY_MAX_DELAY_MS: '1000',
      },
      database.folder,
    );
  });

  afterAll(async () => {
    await bff?.stop();
    await receiver?.close();
    await mailbox?.close();
    await reference?.close();
    await database?.remove();
  });

  const list = async () => {
    const listed = await outboxList(database.url);
    listings.push(listed);
    return listed;
  };
  const byChannel = (listed: OutboxListing[]) => [...listed].sort((a, b) => a.channel.localeCompare(b.channel));

  it('answers the booking, keeps its messages pending with more tries each time, and delivers each once the receivers are up', async () => {
    const booked = await book(bff!, weekdayAhead(3), '10:00');

    // Pending, each try refused: listed with its tries and the failure as a short code.
    const first = await eventually(
      async () => {
        const listed = byChannel(await list());
        expect(listed.map((m) => [m.channel, m.event_type, m.state, m.last_error])).toEqual([
          ['email', 'booking.created', 'pending', REFUSED],
          ['webhook', 'booking.created', 'pending', REFUSED],
        ]);
        expect(listed.every((m) => m.attempts >= 2 && m.next_attempt_at !== null && m.finished_at === null)).toBe(true);
        return listed;
      },
      { timeoutMs: 60_000, intervalMs: 200 },
    );
    // Tried again, and again.
    await eventually(
      async () => {
        const listed = byChannel(await list());
        expect(listed.map((m) => [m.id, m.state, m.last_error])).toEqual(first.map((m) => [m.id, 'pending', REFUSED]));
        expect(listed.every((m, index) => m.attempts > first[index]!.attempts)).toBe(true);
      },
      { timeoutMs: 60_000, intervalMs: 200 },
    );

    // The receivers come up on the ports the BFF is told.
    mailbox = await startClinicMailbox({ port: ports.mail });
    receiver = await startWebhookReceiver(secret, { port: ports.hook });

    const delivered = await eventually(
      async () => {
        const listed = byChannel(await list());
        expect(listed.map((m) => [m.id, m.state])).toEqual(first.map((m) => [m.id, 'delivered']));
        return listed;
      },
      { timeoutMs: 60_000, intervalMs: 200 },
    );
    const [mail, hook] = delivered as [OutboxListing, OutboxListing];
    expect(receiver.requests.map((request) => [request.id, request.verified, request.type, request.reference, request.status])).toEqual([
      [hook.id, true, 'booking.created', booked, 204],
    ]);
    expect(mailbox.received.map((received) => [received.messageId, received.subject.endsWith(`, ${booked}`)])).toEqual([[`<${mail.id}@${MAIL_DOMAIN}>`, true]]);

    // Neither the listings nor the BFF's logs name the patient; each failed try is logged by its code.
    const seen = JSON.stringify(listings) + bff!.output();
    expect(seen).not.toContain(PATIENT.name);
    expect(seen).not.toContain(PATIENT.phone);
    const failedTries = bff!.logs().filter((line) => line.msg === 'outbox try failed; trying again later');
    expect(new Set(failedTries.map((line) => line.error))).toEqual(new Set([REFUSED]));
  });
});
