// The reminders part of the outbox benchmark: patients' reminders written as the booking path writes them,
// for appointments the reference server holds, Scheduled; and the BFFs' outbox read from PostgreSQL.
// Never a patient's address or name on stdout.

import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import pg from 'pg';
import { ROOT } from './processes.mjs';

/** A module of the compiled BFF (npm run build), as the BFF itself runs it. */
const compiled = (path) => import(pathToFileURL(join(ROOT, 'dist', path)).href);

/** An instant's wall-clock date (YYYY-MM-DD) and time (HH:MM) in `zone`. */
export function wallClockIn(instant, zone) {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
      .formatToParts(new Date(instant))
      .map((part) => [part.type, part.value]),
  );
  return { date: `${parts.year}-${parts.month}-${parts.day}`, time: `${parts.hour}:${parts.minute}` };
}

/** HH:MM plus `minutes`, at most 24:00 (the server's end_time). */
function endOf(time, minutes) {
  const [hours, mins] = time.split(':').map(Number);
  const end = Math.min(24 * 60, hours * 60 + mins + minutes);
  return `${String(Math.floor(end / 60)).padStart(2, '0')}:${String(end % 60).padStart(2, '0')}`;
}

/** The clinic `careId` in the reference server's SQLite file: its zone, name, address and phone. */
export function readServerClinic(serverDbPath, careId) {
  const db = new Database(serverDbPath, { readonly: true, fileMustExist: true });
  try {
    const clinic = db.prepare('SELECT timezone, name, address, city, phone FROM clinics WHERE care_id = ?').get(careId);
    if (!clinic) throw new Error(`no clinic ${careId} in the server's database`);
    return { zone: clinic.timezone, name: clinic.name, address: `${clinic.address}, ${clinic.city}`, phone: clinic.phone };
  } finally {
    db.close();
  }
}

/**
 * Inserts `count` Scheduled appointments of clinic `careId` at `date` `time` (no dentist, so none holds
 * another's slot) into the reference server's SQLite file, which the running server shares (WAL; the
 * write waits for its lock); answers their ids.
 */
export function seedScheduledAppointments(serverDbPath, careId, { count, date, time, minutes }) {
  const db = new Database(serverDbPath, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 10000');
    const insert = db.prepare(
      `INSERT INTO appointments (care_id, patient_name, patient_phone, address, appointment_date, appointment_time, end_time,
         doctor_id, treatment_id, note, status, created_at)
       VALUES (?, ?, ?, NULL, ?, ?, ?, NULL, NULL, NULL, 'Scheduled', ?)`,
    );
    const now = Date.now();
    const ids = db.transaction(() =>
      Array.from({ length: count }, (_, index) => Number(insert.run(careId, `Bench Patient ${index}`, '+44 7700 900000', date, time, endOf(time, minutes), now).lastInsertRowid)),
    )();
    return ids;
  } finally {
    db.close();
  }
}

/**
 * Writes one booking's memory per appointment into the BFF database at `databaseUrl` (PostgreSQL) as the
 * booking path does: ChangeStore.recordBooking with the patient's wish (an address, a language, an
 * unsubscribe token) and the reminder patientMessages makes of the confirmation's event, due
 * `hoursBefore` hours before the start; `writtenAt` is when the bookings were made. `concurrency`
 * bookings at a time. Answers the reminders' outbox ids.
 */
export async function writeReminders({ databaseUrl, referenceSecret, appointments, date, time, minutes, clinic, hoursBefore, writtenAt, concurrency }) {
  const [{ openSitesDatabase }, { ChangeStore }, { patientMessages, unsubscribeToken }, { createReference }, { deriveReferenceKey }, { forgetAt }, { MAIL_LANGUAGES }] =
    await Promise.all([
      compiled('bff/sites/sites-database.js'),
      compiled('bff/changes/change-store.js'),
      compiled('bff/patient-mail/patient-messages.js'),
      compiled('bff/booking/booking-reference.js'),
      compiled('bff/config.js'),
      compiled('bff/booking/forget-after-visit.js'),
      compiled('bff/notifications/mail-language.js'),
    ]);
  const database = await openSitesDatabase(databaseUrl);
  const store = new ChangeStore(database.db);
  const key = deriveReferenceKey(referenceSecret);
  const forget = forgetAt(date, time, clinic.zone);
  const ids = [];
  let next = 0;
  const writeOne = async (index) => {
    const appointmentId = appointments[index];
    const language = MAIL_LANGUAGES[index % MAIL_LANGUAGES.length];
    const confirmation = {
      type: 'patient.confirmation',
      occurred_at: new Date(writtenAt).toISOString(),
      site_id: 'default',
      reference: createReference(appointmentId, key),
      appointment_id: appointmentId,
      language,
      appointment: { date, time, time_zone: clinic.zone, minutes, dentist_name: null, treatment_name: null },
      clinic: { name: clinic.name, address: clinic.address, phone: clinic.phone },
      manage_page_url: 'https://clinic.bench.example/book',
    };
    const reminders = patientMessages(confirmation, hoursBefore, writtenAt).filter((message) => message.event.type === 'patient.reminder');
    if (reminders.length !== 1) throw new Error('patientMessages made no reminder: the appointment is inside the reminder window');
    const recorded = await store.recordBooking(
      { siteId: 'default', appointmentId, date, time, doctorId: null, treatmentId: null, phone: '+44 7700 900000', forgetAt: forget },
      reminders,
      writtenAt,
      { replayed: false, patientMail: { email: `patient${index}@bench.example`, language, unsubscribeToken: unsubscribeToken(), forgetAt: forget } },
    );
    if (!recorded) throw new Error(`booking ${appointmentId} was recorded already`);
    ids.push(reminders[0].id);
  };
  try {
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < appointments.length) await writeOne(next++);
      }),
    );
  } finally {
    await database.close();
  }
  return ids;
}

/** The outbox of BFFs on a PostgreSQL database, as the benchmark reads it; never the payload. */
export function openPostgresOutbox(databaseUrl) {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  pool.on('error', () => {});
  return {
    /** { pending, delivered, dead } of the patients' reminders. */
    async counts() {
      const { rows } = await pool.query("SELECT state, count(*)::int AS n FROM outbox_messages WHERE event_type = 'patient.reminder' GROUP BY state");
      const counts = { pending: 0, delivered: 0, dead: 0 };
      for (const { state, n } of rows) counts[state] = n;
      return counts;
    },
    /** Every reminder: id, state, tries, due time (ms; bigint columns come back as strings). */
    async reminders() {
      const { rows } = await pool.query("SELECT id, channel, state, attempts, due_at FROM outbox_messages WHERE event_type = 'patient.reminder'");
      return rows.map((row) => ({ id: row.id, channel: row.channel, state: row.state, attempts: Number(row.attempts), dueAt: Number(row.due_at) }));
    },
    /** How many patient_mail rows (addresses) are kept. */
    async addresses() {
      const { rows } = await pool.query('SELECT count(*)::int AS n FROM patient_mail');
      return rows[0].n;
    },
    close: () => pool.end(),
  };
}

/** The samples of one metric in a Prometheus text exposition: [{ labels, value }]. */
export function samplesOf(exposition, name) {
  const samples = [];
  for (const line of exposition.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const match = /^[^{ ]+(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) continue;
    const labels = Object.fromEntries([...(match[1] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map(([, key, value]) => [key, value]));
    samples.push({ labels, value: Number(match[2]) });
  }
  return samples;
}
