import { describe, expect, it } from 'vitest';
import { instantOf } from '../../../bff/availability/zoned-time.js';
import type { PatientMailEvent } from '../../../bff/patient-mail/patient-mail-event.js';
import type { SitesDatabase } from '../../../bff/sites/sites-database.js';
import { book, outboxRows, requestChange, startChangesStack } from '../changes/support/changes-stack.js';

/**
 * The booking path of a patient's e-mail (decision 19), against the real
 * server and BFF and the BFF's SQLite file: what a booking with the consent
 * keeps and queues, and what one without keeps (nothing). No worker runs:
 * every message stays in the outbox to be read.
 */

const RELAY = { url: 'smtp://127.0.0.1:2525', from: 'bookings@test-dental.example' };
const WANTS_MAIL = { patient_email: 'jane@example.com', email_consent: true, language: 'fr', page_url: 'https://clinic.example/book?x=1#top' };

async function patientRows(database: SitesDatabase) {
  return database.db.selectFrom('patient_mail').selectAll().execute();
}

async function patientMessages(database: SitesDatabase) {
  const rows = await database.db.selectFrom('outbox_messages').selectAll().where('event_type', 'like', 'patient.%').orderBy('next_attempt_at').execute();
  return rows.map((row) => ({ ...row, event: JSON.parse(row.payload) as PatientMailEvent }));
}

function mailStack(reminderHoursBefore = 24, extra: { publicOrigin?: string | undefined } = { publicOrigin: 'https://book.test-dental.example' }) {
  return startChangesStack({
    notifications: { email: undefined, webhook: undefined, mailRelay: RELAY, reminderHoursBefore },
    bff: { ...extra, allowedOrigins: ['https://clinic.example'] },
  });
}

describe('a booking whose patient asked for e-mail', () => {
  it('keeps the address once, and queues the confirmation now and the reminder 24 hours before', async () => {
    const stack = await mailStack();
    const booked = await book(stack, WANTS_MAIL);

    const [row, ...others] = await patientRows(stack.database);
    expect(others).toEqual([]);
    expect(row).toMatchObject({ site_id: 'default', email: 'jane@example.com', language: 'fr' });
    expect(row!.unsubscribe_token).toMatch(/^[\w-]{43}$/);
    // Forgotten a week after the appointment, as the booking's record.
    expect(Number(row!.forget_at)).toBe(instantOf('2026-11-24', '10:00', 'Europe/London') + 7 * 24 * 3600_000);

    const messages = await patientMessages(stack.database);
    expect(messages.map((m) => m.event_type)).toEqual(['patient.confirmation', 'patient.reminder']);
    const [confirmation, reminder] = messages;
    const now = Date.parse('2026-11-23T09:00:00Z');
    expect(Number(confirmation!.next_attempt_at)).toBe(now);
    expect(confirmation!.due_at).toBeNull();
    const due = instantOf('2026-11-24', '10:00', 'Europe/London') - 24 * 3600_000;
    expect(Number(reminder!.next_attempt_at)).toBe(due);
    expect(Number(reminder!.due_at)).toBe(due);
    expect(Number(reminder!.appointment_id)).toBe(Number(row!.appointment_id));
    expect(confirmation!.event).toMatchObject({
      type: 'patient.confirmation',
      reference: booked.data.reference,
      language: 'fr',
      appointment: { date: '2026-11-24', time: '10:00', time_zone: 'Europe/London' },
      // The page booked on, without its query and fragment: its origin is allowed.
      manage_page_url: 'https://clinic.example/book',
    });
    expect(confirmation!.event.clinic.name).toEqual(expect.any(String));
    // Never the patient's name, phone or address in a patient's message.
    for (const message of messages) {
      expect(message.payload).not.toContain('jane@example.com');
      expect(message.payload).not.toContain('Jane Doe');
      expect(message.payload).not.toContain('7700');
    }
  });

  it('sends nothing upstream of it: the clinic system never sees the address', async () => {
    const stack = await mailStack();
    const booked = await book(stack, WANTS_MAIL);
    const status = await fetch(`${stack.bff.api}/appointments/status`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ reference: booked.data.reference }),
    });
    expect(status.status).toBe(200);
    const stored = JSON.stringify(await stack.upstream.db.selectFrom('appointments').selectAll().execute());
    expect(stored).toContain('Jane Doe');
    expect(stored).not.toContain('jane@example.com');
  });

  it('keeps nothing without the consent, and is refused with an address but no consent', async () => {
    const stack = await mailStack();
    await book(stack, {});
    expect(await patientRows(stack.database)).toEqual([]);
    expect(await patientMessages(stack.database)).toEqual([]);

    const refused = await fetch(`${stack.bff.api}/appointments/book`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...WANTS_MAIL, email_consent: false, patient_name: 'Jane Doe', patient_phone: '+44 7700 900123', appointment_date: '2026-11-24', appointment_time: '11:00' }),
    });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ success: false, error_code: 'validation_error' });
    expect(await patientRows(stack.database)).toEqual([]);
  });

  it('queues no reminder for a booking made inside the reminder window, nor with reminders off', async () => {
    const inside = await mailStack(48);
    await book(inside, WANTS_MAIL);
    expect((await patientMessages(inside.database)).map((m) => m.event_type)).toEqual(['patient.confirmation']);

    const off = await mailStack(0);
    await book(off, WANTS_MAIL);
    expect((await patientMessages(off.database)).map((m) => m.event_type)).toEqual(['patient.confirmation']);
  });

  it('keeps nothing where the BFF cannot send patient e-mail (no PUBLIC_ORIGIN for the unsubscribe link)', async () => {
    const stack = await mailStack(24, { publicOrigin: undefined });
    await book(stack, WANTS_MAIL);
    expect(await patientRows(stack.database)).toEqual([]);
    expect(await patientMessages(stack.database)).toEqual([]);
  });

  it('gives no manage link of a page on an origin the site does not allow', async () => {
    const stack = await mailStack();
    await book(stack, { ...WANTS_MAIL, page_url: 'https://elsewhere.example/page' });
    const [confirmation] = await patientMessages(stack.database);
    expect(confirmation!.event.manage_page_url).toBeNull();
  });

  it('withdraws the pending reminder when the patient asks to cancel or move, and keeps the confirmation', async () => {
    for (const kind of ['cancel', 'move'] as const) {
      const stack = await mailStack();
      const booked = await book(stack, WANTS_MAIL);
      const body = kind === 'cancel'
        ? { reference: booked.data.reference, kind }
        : { reference: booked.data.reference, kind, preferred_starts: [{ date: '2026-11-25', time: '11:00' }] };
      // The window for changes is 24 hours by default; the booking is 25 hours away.
      const res = await requestChange(stack.bff.api, body);
      expect(res.status, await res.clone().text()).toBe(201);
      expect((await patientMessages(stack.database)).map((m) => m.event_type)).toEqual(['patient.confirmation']);
      expect((await outboxRows(stack.database)).filter((row) => row.event_type.startsWith('booking.'))).toEqual([]);
    }
  });
});
