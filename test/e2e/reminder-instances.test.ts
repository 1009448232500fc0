import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createReference } from '../../bff/booking/booking-reference.js';
import { forgetAt } from '../../bff/booking/forget-after-visit.js';
import { ChangeStore } from '../../bff/changes/change-store.js';
import { deriveReferenceKey } from '../../bff/config.js';
import { MAIL_LANGUAGES } from '../../bff/notifications/mail-language.js';
import type { PatientMailEvent } from '../../bff/patient-mail/patient-mail-event.js';
import { patientMessages, unsubscribeToken } from '../../bff/patient-mail/patient-messages.js';
import { openSitesDatabase, type SitesDatabase } from '../../bff/sites/sites-database.js';
import { eventually } from '../support/eventually.js';
import { ensureServicesBuilt, weekdayAhead } from './support/stack.js';
import {
  bffDatabase,
  bffSettings,
  postgresRuns,
  startBffProcess,
  startClinicMailbox,
  startReferenceClinic,
  type BffDatabase,
  type BffProcess,
  type ClinicMailbox,
  type ReferenceClinic,
} from './support/outbox-stack.js';

/**
 * Two real BFF processes on one PostgreSQL database, each with its outbox
 * worker, and 1,000 patients' reminders falling due at the same moment
 * (decision 19): each reaches its patient at the real SMTP server exactly
 * once, by its Message-ID (the outbox id), whichever instance claimed it;
 * none twice, none lost, both instances sending.
 *
 * The reminders are written as the booking path writes them, through the
 * real ChangeStore.recordBooking with what patientMessages makes of a
 * booking, for 1,000 appointments that exist upstream, Scheduled, so each
 * one's status check before it goes finds it still booked. Booking 1,000
 * through the BFF would cost minutes and prove nothing more here
 * (patient-mail-booking.test.ts covers that path). Their due time, 24 hours
 * before each start, is days away; the day passing is one UPDATE that makes
 * every one due now.
 */

const REMINDERS = 1000;
const MAIL_DOMAIN = 'reminder-e2e.test';
const PUBLIC_ORIGIN = 'https://book.reminder-e2e.test';
const REFERENCE_SECRET = 'the-reminder-e2e-reference-secret-0123456789';
const ZONE = 'Europe/London';

/** `count` distinct starts: the half hours of the clinic's day (08:00-17:30) on weekdays from 3 days ahead. */
function starts(count: number): { date: string; time: string }[] {
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

describe.runIf(postgresRuns)('two BFF processes on one PostgreSQL database, 1,000 reminders due at once', { timeout: 300_000 }, () => {
  let reference: ReferenceClinic;
  let database: BffDatabase;
  let mailbox: ClinicMailbox;
  let bffs: BffProcess[] = [];
  let db: SitesDatabase | undefined;

  beforeAll(async () => {
    await ensureServicesBuilt();
    reference = await startReferenceClinic();
    database = await bffDatabase('postgres');
    mailbox = await startClinicMailbox();
    const env = {
      ...bffSettings(reference, database.url),
      BOOKING_REF_SECRET: REFERENCE_SECRET,
      SMTP_URL: mailbox.url,
      MAIL_FROM: `bookings@${MAIL_DOMAIN}`,
      PUBLIC_ORIGIN,
      REMINDER_HOURS_BEFORE: '24',
    };
    const start = () => startBffProcess(env, database.folder);
    bffs = await Promise.all([start(), start()]);
    db = await openSitesDatabase(database.url);
  });

  afterAll(async () => {
    await Promise.all(bffs.map((bff) => bff.stop()));
    await db?.close();
    await mailbox?.close();
    await reference?.close();
    await database?.remove();
  });

  it('sends every reminder to its patient exactly once, both instances sending', async () => {
    const [a, b] = bffs as [BffProcess, BffProcess];
    const now = Date.now();

    // The clinic system's appointments: Scheduled, one per reminder.
    const appointments = starts(REMINDERS);
    const ids: number[] = [];
    for (let first = 0; first < REMINDERS; first += 100) {
      const rows = await reference.server.db
        .insertInto('appointments')
        .values(
          appointments.slice(first, first + 100).map(({ date, time }, index) => ({
            care_id: reference.clinic.careId,
            patient_name: `Patient ${first + index}`,
            patient_phone: '+44 7700 900461',
            address: null,
            appointment_date: date,
            appointment_time: time,
            end_time: `${time.slice(0, 3)}${time.endsWith('30') ? '45' : '15'}`,
            doctor_id: null,
            treatment_id: null,
            note: null,
            status: 'Scheduled' as const,
            created_at: now,
          })),
        )
        .returning('appointment_id')
        .execute();
      ids.push(...rows.map((row) => row.appointment_id));
    }
    expect(new Set(ids).size).toBe(REMINDERS);

    // Each booking as the booking path records it: its patient's wish and the reminder patientMessages makes.
    const store = new ChangeStore(db!.db);
    const key = deriveReferenceKey(REFERENCE_SECRET);
    const addressOf = new Map<number, string>();
    for (let first = 0; first < REMINDERS; first += 10) {
      await Promise.all(
        ids.slice(first, first + 10).map(async (appointmentId, offset) => {
          const index = first + offset;
          const { date, time } = appointments[index]!;
          const email = `patient${index}@${MAIL_DOMAIN}`;
          addressOf.set(appointmentId, email);
          const language = MAIL_LANGUAGES[index % MAIL_LANGUAGES.length]!;
          const confirmation: PatientMailEvent = {
            type: 'patient.confirmation',
            occurred_at: new Date(now).toISOString(),
            site_id: 'default',
            reference: createReference(appointmentId, key),
            appointment_id: appointmentId,
            language,
            appointment: { date, time, time_zone: ZONE, minutes: 15, dentist_name: null, treatment_name: null },
            clinic: { name: 'Test Dental', address: '1 High Street', phone: '+44 20 7946 0000' },
            manage_page_url: 'https://clinic.example/book',
          };
          const reminders = patientMessages(confirmation, 24, now).filter((message) => message.event.type === 'patient.reminder');
          expect(reminders).toHaveLength(1);
          const recorded = await store.recordBooking(
            { siteId: 'default', appointmentId, date, time, doctorId: null, treatmentId: null, phone: '+44 7700 900461', forgetAt: forgetAt(date, time, ZONE) },
            reminders,
            now,
            { replayed: false, patientMail: { email, language, unsubscribeToken: unsubscribeToken(), forgetAt: forgetAt(date, time, ZONE) } },
          );
          expect(recorded).toBe(true);
        }),
      );
    }
    const queued = await db!.db.selectFrom('outbox_messages').select(['id', 'appointment_id', 'state']).execute();
    expect(queued).toHaveLength(REMINDERS);
    expect(queued.every((row) => row.state === 'pending')).toBe(true);
    // Nothing is due yet: the first reminder is days away.
    expect(mailbox.received).toEqual([]);

    // The day passes: every reminder falls due at the same moment, for both workers.
    const due = Date.now();
    await db!.db.updateTable('outbox_messages').set({ next_attempt_at: due, due_at: due }).execute();

    await eventually(
      async () => {
        const rows = await db!.db.selectFrom('outbox_messages').select(['state']).execute();
        expect(rows.filter((row) => row.state !== 'delivered')).toEqual([]);
      },
      { timeoutMs: 240_000, intervalMs: 500 },
    );

    // The mailbox: one mail per reminder, its Message-ID the reminder's outbox id, to that booking's patient.
    const mails = mailbox.received;
    expect(mails).toHaveLength(REMINDERS);
    const byMessageId = new Map(mails.map((mail) => [mail.messageId, mail]));
    expect(byMessageId.size).toBe(REMINDERS);
    for (const row of queued) {
      const mail = byMessageId.get(`<${row.id}@${MAIL_DOMAIN}>`);
      expect(mail, row.id).toBeDefined();
      expect(mail!.to).toEqual([addressOf.get(Number(row.appointment_id))]);
    }

    // Both instances sent some, and none sent one the other did.
    await eventually(() => expect([...a.delivered(), ...b.delivered()].sort()).toEqual(queued.map((row) => row.id).sort()));
    expect(a.delivered().length).toBeGreaterThan(0);
    expect(b.delivered().length).toBeGreaterThan(0);
    expect(a.delivered().filter((id) => b.delivered().includes(id))).toEqual([]);
    // Each reminder asked the clinic system for its booking's status before it went.
    const statusCalls = reference.server.logs.filter((line) => /^\/api\/v1\/appointments\/status\/\d+$/.test(String((JSON.parse(line) as { req?: { path?: string } }).req?.path))).length;
    expect(statusCalls).toBeGreaterThanOrEqual(REMINDERS);
    // No address in either instance's log.
    for (const bff of bffs) expect(bff.output()).not.toMatch(/patient\d+@/);
  });
});
