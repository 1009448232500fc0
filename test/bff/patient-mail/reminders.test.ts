import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { instantOf } from '../../../bff/availability/zoned-time.js';
import { BffMetrics } from '../../../bff/metrics/bff-metrics.js';
import { clinicDelivery } from '../../../bff/outbox/clinic-delivery.js';
import type { DeliveryOutcome } from '../../../bff/outbox/outbox-worker.js';
import { MANAGE_FRAGMENT, UNSUBSCRIBE_PATH } from '../../../contract/rules/bff-api.js';
import type { Engine } from '../../../platform/database/database-url.js';
import { createLogger } from '../../../platform/logger.js';
import { clinicCli } from '../../server/support/clinic-cli.js';
import { eventually } from '../../support/eventually.js';
import { FakeClock } from '../../support/fake-clock.js';
import { closeWhenScopeEnds, once } from '../../support/scoped-teardown.js';
import { book, startChangesStack, type ChangesStack } from '../changes/support/changes-stack.js';
import { startRelay, type ReceivedMail, type TestRelay } from '../notifications/support/smtp-relay.js';
import { ENGINES } from '../sites/support/sites-test-database.js';
import { appointmentIdOf } from '../support/bff-harness.js';

/**
 * A patient's confirmation and reminder from booking to mailbox (decision
 * 19): the real reference server and BFF (changes-stack), the BFF's own
 * database (a SQLite file, and PostgreSQL when it runs), the outbox worker
 * main.ts builds (clinicDelivery) with the BFF's own status lookup, and a
 * real SMTP server read with mailparser. One FakeClock moves the server, the
 * BFF and the worker together: the reminder's due time is reached by moving
 * it, never waited for.
 *
 * "Nothing was sent" is shown without a wait: a booking without the
 * patient's e-mail queues the clinic's mail at the clock's time, and once
 * reception has it, the worker has made a claim at that time, which would
 * have taken (and counted a try of) any message due by then.
 */

const HOUR = 3_600_000;
const PUBLIC_ORIGIN = 'https://book.test-dental.example';
const FROM = 'bookings@test-dental.example';
const RECEPTION = 'reception@test-dental.example';
const PATIENT_EMAIL = 'jane@example.com';
const HOURS_BEFORE = 24;
/** validBooking's appointment: Tuesday 24 November 2026, 10:00 in London (GMT), the day after TEST_NOW. */
const START = instantOf('2026-11-24', '10:00', 'Europe/London');
/** When its reminder is due: 10:00 on the 23rd, an hour after TEST_NOW. */
const DUE = START - HOURS_BEFORE * HOUR;
const WANTS_MAIL = { patient_email: PATIENT_EMAIL, email_consent: true, language: 'fr', page_url: 'https://clinic.example/book?x=1#top' };
const ONE_CLICK = { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'List-Unsubscribe=One-Click' };

type LogLine = Record<string, unknown> & { msg: string };

interface ReminderStack {
  stack: ChangesStack;
  relay: TestRelay;
  clock: FakeClock;
  /** The outbox worker as main.ts builds it, on the stack's database and clock; a new one each call (a restart). */
  startWorker(): Worker;
  /** A booking with the patient's e-mail; its appointment id and the ids of its two outbox messages. */
  bookWithMail(): Promise<{ reference: string; appointmentId: number; confirmation: string; reminder: string }>;
  /**
   * Waits for the confirmation to reach the patient and be recorded delivered: before then the clock must not
   * move on, or its lease would run out under the worker that is still recording it, and it would go again.
   */
  confirmed(booked: { confirmation: string }): Promise<ReceivedMail>;
  /** The mails the relay took for `to`. */
  mailsTo(to: string): ReceivedMail[];
  /** Books without the patient's e-mail, and waits for the clinic's mail of it: the worker has claimed at the clock's time. */
  barrier(): Promise<void>;
  /** The outbox row of `id` (undefined once withdrawn). */
  row(id: string): Promise<{ state: string; attempts: number } | undefined>;
}

interface Worker {
  stop(): Promise<void>;
  logs(): LogLine[];
  /** bff_outbox_deliveries_total{channel="email", outcome} of this worker. */
  tries(outcome: DeliveryOutcome): Promise<number>;
}

async function reminderStack(engine: Engine): Promise<ReminderStack> {
  // No STARTTLS: the BFF upgrades a loopback session when offered, and smtp-server's own certificate is not trusted.
  const relay = await startRelay({ noStartTls: true });
  const stack = await startChangesStack({
    engine,
    notifications: { email: RECEPTION, webhook: undefined, mailRelay: { url: relay.url, from: FROM }, reminderHoursBefore: HOURS_BEFORE },
    bff: { publicOrigin: PUBLIC_ORIGIN, allowedOrigins: ['https://clinic.example'] },
  });
  // The server's clock, which the stack gave the BFF too: one time for the server, the BFF and the worker.
  const clock = stack.upstream.clock;
  if (!(clock instanceof FakeClock)) throw new Error('the test server runs on a FakeClock');
  let barriers = 0;

  const mailsTo = (to: string) => relay.received.filter((mail) => mail.envelope.to.includes(to));
  const messageOf = async (type: string, appointmentId: number) => {
    const rows = await stack.database.db
      .selectFrom('outbox_messages')
      .select('id')
      .where('event_type', '=', type)
      .where('appointment_id', '=', appointmentId)
      .execute();
    expect(rows).toHaveLength(1);
    return rows[0]!.id;
  };

  return {
    stack,
    relay,
    clock,
    startWorker() {
      const lines: string[] = [];
      const metrics = new BffMetrics();
      const delivery = clinicDelivery({
        config: stack.bff.config,
        database: stack.database,
        logger: createLogger('info', { write: (line: string) => void lines.push(line) }),
        clock,
        metrics,
        statusOf: (siteId, appointmentId) => stack.bff.statusOf(siteId, appointmentId),
      });
      delivery.worker.start();
      const stop = once(() => delivery.close());
      closeWhenScopeEnds(stop);
      return {
        stop,
        logs: () => lines.map((line) => JSON.parse(line) as LogLine),
        async tries(outcome) {
          const { values } = await metrics.registry.getSingleMetric('bff_outbox_deliveries_total')!.get();
          return values.find((value) => value.labels.channel === 'email' && value.labels.outcome === outcome)?.value ?? 0;
        },
      };
    },
    async bookWithMail() {
      const { data } = await book(stack, WANTS_MAIL);
      const appointmentId = appointmentIdOf(stack.bff, data.reference);
      return {
        reference: data.reference,
        appointmentId,
        confirmation: await messageOf('patient.confirmation', appointmentId),
        reminder: await messageOf('patient.reminder', appointmentId),
      };
    },
    mailsTo,
    async confirmed(booked) {
      const [mail, ...more] = await eventually(() => {
        const mails = mailsTo(PATIENT_EMAIL);
        expect(mails).toHaveLength(1);
        return mails;
      });
      expect(more).toEqual([]);
      await eventually(async () => expect(await row(booked.confirmation)).toEqual({ state: 'delivered', attempts: 1 }));
      return mail!;
    },
    async barrier() {
      const before = mailsTo(RECEPTION).length;
      barriers++;
      // Wednesday 25 November, a half hour of its own each time.
      const time = `${String(8 + Math.floor(barriers / 2)).padStart(2, '0')}:${barriers % 2 ? '30' : '00'}`;
      await book(stack, { appointment_date: '2026-11-25', appointment_time: time, patient_name: 'Bea Barrier' });
      await eventually(() => expect(mailsTo(RECEPTION)).toHaveLength(before + 1));
    },
    row,
  };

  async function row(id: string) {
    const found = await stack.database.db.selectFrom('outbox_messages').select(['state', 'attempts']).where('id', '=', id).executeTakeFirst();
    return found && { state: found.state, attempts: Number(found.attempts) };
  }
}

/** The Message-ID of an outbox message's e-mail from FROM. */
const messageId = (id: string) => `<${id}@test-dental.example>`;

/** A raw header's value (the first line of that name), as the relay took it. */
function header(mail: ReceivedMail, name: string): string | undefined {
  const line = mail.mail.headerLines.find((entry) => entry.key === name.toLowerCase())?.line;
  return line?.slice(line.indexOf(':') + 1).trim();
}

/** An instant's wall-clock date and time in `zone`, by Intl (not by the code under test). */
function wallClock(instant: Date, zone: string): { date: string; time: string } {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
      .formatToParts(instant)
      .map((part) => [part.type, part.value]),
  );
  return { date: `${parts.year}-${parts.month}-${parts.day}`, time: `${parts.hour}:${parts.minute}` };
}

describe.each(ENGINES)('a patient’s confirmation and reminder on %s', { timeout: 60_000 }, (engine) => {
  it('confirms at once, in the booking’s language, with the manage link, the one-click headers and the calendar entry', async () => {
    const { startWorker, bookWithMail, confirmed, mailsTo, row } = await reminderStack(engine);
    const booked = await bookWithMail();
    const worker = startWorker();

    const mail = await confirmed(booked);

    expect(mail.mail.messageId).toBe(messageId(booked.confirmation));
    expect(mail.envelope).toEqual({ from: FROM, to: [PATIENT_EMAIL] });
    expect(mail.mail.subject).toMatch(/^Votre rendez-vous du .+ à 10:00 est confirmé/);
    expect(mail.mail.text).toContain(`https://clinic.example/book#${MANAGE_FRAGMENT}=${booked.reference}`);
    expect(mail.mail.html).toContain(`https://clinic.example/book#${MANAGE_FRAGMENT}=${booked.reference}`);
    const unsubscribe = header(mail, 'List-Unsubscribe');
    expect(unsubscribe).toMatch(new RegExp(`^<${PUBLIC_ORIGIN}${UNSUBSCRIBE_PATH}/[\\w-]{43}>$`));
    expect(header(mail, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    // The visible link is the header's page.
    expect(mail.mail.text).toContain(unsubscribe!.slice(1, -1));

    const [ics, ...others] = mail.mail.attachments;
    expect(others).toEqual([]);
    expect(ics!.filename).toBe('appointment.ics');
    expect(ics!.contentType).toBe('text/calendar');
    const vevent = new ICAL.Component(ICAL.parse(ics!.content.toString('utf8'))).getFirstSubcomponent('vevent')!;
    const event = new ICAL.Event(vevent);
    expect(wallClock(event.startDate.toJSDate(), 'Europe/London')).toEqual({ date: '2026-11-24', time: '10:00' });
    expect(event.startDate.toJSDate().getTime()).toBe(START);
    expect(event.uid).toBe(`${booked.reference}@clinic-booking`);

    // The clinic's own mail of the booking went too.
    await eventually(async () => expect(await worker.tries('delivered')).toBe(2));
    expect(mailsTo(RECEPTION)).toHaveLength(1);
    expect(await row(booked.reminder)).toEqual({ state: 'pending', attempts: 0 });
    // The worker's log names the message, never the patient, their address or the reference.
    const logged = JSON.stringify(worker.logs());
    for (const secret of [PATIENT_EMAIL, 'Jane Doe', booked.reference]) expect(logged).not.toContain(secret);
  });

  it('reminds once, when the clock reaches N hours before the start: not a moment before, never again', async () => {
    const { clock, startWorker, bookWithMail, confirmed, mailsTo, barrier, row } = await reminderStack(engine);
    const booked = await bookWithMail();
    startWorker();
    await confirmed(booked);

    clock.set(DUE - 60_000);
    await barrier();
    expect(await row(booked.reminder)).toEqual({ state: 'pending', attempts: 0 });
    expect(mailsTo(PATIENT_EMAIL)).toHaveLength(1);

    clock.set(DUE);
    const reminder = await eventually(() => {
      const [, second, ...more] = mailsTo(PATIENT_EMAIL);
      expect(more).toEqual([]);
      expect(second).toBeDefined();
      return second!;
    });
    expect(reminder.mail.messageId).toBe(messageId(booked.reminder));
    expect(reminder.mail.subject).toMatch(/^Rappel\u00a0: votre rendez-vous du .+ à 10:00/);
    expect(reminder.mail.text).toContain(`https://clinic.example/book#${MANAGE_FRAGMENT}=${booked.reference}`);
    expect(header(reminder, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    expect(header(reminder, 'List-Unsubscribe')).toBe(header(mailsTo(PATIENT_EMAIL)[0]!, 'List-Unsubscribe'));
    // The calendar entry came with the confirmation; the reminder does not offer it again.
    expect(reminder.mail.attachments).toEqual([]);
    await eventually(async () => expect(await row(booked.reminder)).toEqual({ state: 'delivered', attempts: 1 }));

    // Later, up to a minute before the start: nothing more.
    clock.set(START - 60_000);
    await barrier();
    expect(mailsTo(PATIENT_EMAIL).map((mail) => mail.mail.messageId)).toEqual([messageId(booked.confirmation), messageId(booked.reminder)]);
    expect(await row(booked.reminder)).toEqual({ state: 'delivered', attempts: 1 });
  });

  it('withdraws the reminder of a booking the clinic’s staff cancelled (clinic appointments set-status), sending nothing', async () => {
    const { stack, clock, startWorker, bookWithMail, confirmed, mailsTo, barrier, row } = await reminderStack(engine);
    const booked = await bookWithMail();
    const worker = startWorker();
    await confirmed(booked);

    const cli = await clinicCli(stack.upstream.databaseUrl, ['appointments', 'set-status', '--id', String(booked.appointmentId), '--status', 'Cancelled'], {}, clock);
    expect(cli.code, cli.stderr).toBe(0);
    clock.set(DUE);

    await eventually(async () => expect(await row(booked.reminder)).toBeUndefined());
    await eventually(async () => expect(await worker.tries('withdrawn')).toBe(1));
    expect(worker.logs().filter((line) => line.msg.startsWith('outbox message withdrawn'))).toEqual([
      expect.objectContaining({ message_id: booked.reminder, event_type: 'patient.reminder', reason: 'booking Cancelled' }),
    ]);
    await barrier();
    expect(mailsTo(PATIENT_EMAIL).map((mail) => mail.mail.messageId)).toEqual([messageId(booked.confirmation)]);
    expect(await worker.tries('withdrawn')).toBe(1);
  });

  it('stops the reminder and forgets the address on a one-click unsubscribe from the confirmation’s header', async () => {
    const { stack, clock, startWorker, bookWithMail, confirmed, mailsTo, barrier, row } = await reminderStack(engine);
    const booked = await bookWithMail();
    startWorker();
    const confirmation = await confirmed(booked);
    const url = new URL(header(confirmation, 'List-Unsubscribe')!.slice(1, -1));
    expect(url.origin).toBe(PUBLIC_ORIGIN);

    // PUBLIC_ORIGIN is where the BFF is reached from outside; here it listens on 127.0.0.1, the path the same.
    const res = await fetch(`${stack.bff.baseUrl}${url.pathname}`, ONE_CLICK);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('<html lang="fr"');

    const kept = await stack.database.db.selectFrom('patient_mail').selectAll().where('appointment_id', '=', booked.appointmentId).execute();
    expect(kept).toEqual([]);
    expect(await row(booked.reminder)).toBeUndefined();
    clock.set(DUE);
    await barrier();
    expect(mailsTo(PATIENT_EMAIL).map((mail) => mail.mail.messageId)).toEqual([messageId(booked.confirmation)]);
  });

  it('sends the reminder late from a worker that was down at its due time, while the appointment is still ahead', async () => {
    const { clock, startWorker, bookWithMail, confirmed, mailsTo, row } = await reminderStack(engine);
    const booked = await bookWithMail();
    const first = startWorker();
    await confirmed(booked);
    await first.stop();

    // Down from before the due time until three hours after it; back 21 hours before the start.
    clock.set(DUE + 3 * HOUR);
    expect(await row(booked.reminder)).toEqual({ state: 'pending', attempts: 0 });
    const second = startWorker();

    await eventually(() => expect(mailsTo(PATIENT_EMAIL).map((mail) => mail.mail.messageId)).toEqual([messageId(booked.confirmation), messageId(booked.reminder)]));
    await eventually(async () => expect(await row(booked.reminder)).toEqual({ state: 'delivered', attempts: 1 }));
    await eventually(async () => expect(await second.tries('delivered')).toBe(1));
  });

  it('never sends the reminder once the appointment has begun: a worker back after the start withdraws it', async () => {
    const { clock, startWorker, bookWithMail, confirmed, mailsTo, barrier, row } = await reminderStack(engine);
    const booked = await bookWithMail();
    const first = startWorker();
    await confirmed(booked);
    await first.stop();

    clock.set(START);
    const second = startWorker();

    await eventually(async () => expect(await row(booked.reminder)).toBeUndefined());
    await eventually(async () => expect(await second.tries('withdrawn')).toBe(1));
    expect(second.logs().filter((line) => line.msg.startsWith('outbox message withdrawn'))).toEqual([
      expect.objectContaining({ message_id: booked.reminder, reason: 'appointment began' }),
    ]);
    await barrier();
    expect(mailsTo(PATIENT_EMAIL).map((mail) => mail.mail.messageId)).toEqual([messageId(booked.confirmation)]);
  });
});
