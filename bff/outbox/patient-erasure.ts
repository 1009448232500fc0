import { sql, type Kysely } from 'kysely';
import { normalisePhone } from '../../contract/rules/patterns.js';
import type { Engine } from '../../platform/database/database-url.js';
import type { SitesTables } from '../sites/sites-database.js';

/** What `bff patients erase` deleted. */
export interface Erased {
  bookingRecords: number;
  outboxMessages: number;
}

/**
 * Deletes, on every site, what the BFF's database holds of the patient who
 * booked with `phone` (GDPR Art. 17, docs/privacy.md): the booking records of
 * that phone and every outbox message naming it, whatever its state (an
 * undelivered one is then never sent). Phones match as the server's do
 * (normalisePhone), whatever their spacing or punctuation.
 *
 * Both tables are read whole and matched here, not in SQL: phones are stored
 * as the patient typed them and the outbox's payloads are JSON text; the
 * records last a week past each visit and the messages 72 hours past
 * delivery, and an erasure is rare. The scan runs before the transaction and
 * the deletes, by key, in it: neither table's phone is ever rewritten, so
 * what the scan found is still the patient's when the deletes run, and on
 * SQLite a transaction that reads before it writes fails at once, rather than
 * waiting its turn, when the running BFF commits in between. A row written
 * after the scan (a booking of theirs at this very moment) is not erased: a
 * second run finds it.
 *
 * On SQLite the file is opened with `secure_delete` (sites-database.ts), so
 * the deleted rows are overwritten with zeros; the WAL, whose older frames
 * still hold them, is then checkpointed and emptied (best effort: a reader in
 * another process can keep it from truncating until a later checkpoint).
 */
export async function erasePatient(db: Kysely<SitesTables>, engine: Engine, phone: string): Promise<Erased> {
  const wanted = normalisePhone(phone);
  const records = (
    await db.selectFrom('booking_records').select(['site_id', 'appointment_id', 'patient_phone']).where('patient_phone', 'is not', null).execute()
  ).filter((row) => row.patient_phone !== null && normalisePhone(row.patient_phone) === wanted);
  const messageIds = (await db.selectFrom('outbox_messages').select(['id', 'payload']).execute())
    .filter((row) => {
      const named = patientPhoneIn(row.payload);
      return named !== undefined && normalisePhone(named) === wanted;
    })
    .map((row) => row.id);

  const erased = await db.transaction().execute(async (trx): Promise<Erased> => {
    let bookingRecords = 0;
    for (const [siteId, appointmentIds] of groupBySite(records)) {
      for (const ids of chunks(appointmentIds)) {
        const result = await trx.deleteFrom('booking_records').where('site_id', '=', siteId).where('appointment_id', 'in', ids).executeTakeFirst();
        bookingRecords += Number(result.numDeletedRows);
      }
    }
    let outboxMessages = 0;
    for (const ids of chunks(messageIds)) {
      const result = await trx.deleteFrom('outbox_messages').where('id', 'in', ids).executeTakeFirst();
      outboxMessages += Number(result.numDeletedRows);
    }
    return { bookingRecords, outboxMessages };
  });
  if (engine === 'sqlite') await sql`PRAGMA wal_checkpoint(TRUNCATE)`.execute(db);
  return erased;
}

/** What `bff patients erase --email` deleted. */
export interface ErasedEmail {
  patientMail: number;
  outboxMessages: number;
}

/**
 * Deletes, on every site, what the BFF's database holds of the patient who
 * asked for e-mail with `email` (GDPR Art. 17, docs/privacy.md): the
 * patient_mail row of each booking they gave that address for, and every
 * message to them about those bookings (`patient.*` events, whatever their
 * state: a pending reminder is then never sent). Addresses match trimmed and
 * case-insensitively, as they may have been typed. The clinic's own messages
 * about those bookings stay: they are the clinic's record, and name the
 * patient by phone (`erase --phone`), never by address.
 *
 * As erasePatient: the rows are matched here after one read, before the
 * transaction, whose deletes go by key (each row also by the address found,
 * so a row that changed in between is left for a second run); then, on
 * SQLite, the WAL is checkpointed and emptied, so with `secure_delete` no
 * byte of the address is left in the file or its WAL.
 */
export async function erasePatientEmail(db: Kysely<SitesTables>, engine: Engine, email: string): Promise<ErasedEmail> {
  const wanted = normalisedEmail(email);
  const rows = (await db.selectFrom('patient_mail').select(['site_id', 'appointment_id', 'email']).execute()).filter(
    (row) => normalisedEmail(row.email) === wanted,
  );

  const erased = await db.transaction().execute(async (trx): Promise<ErasedEmail> => {
    let patientMail = 0;
    let outboxMessages = 0;
    for (const row of rows) {
      const appointmentId = Number(row.appointment_id);
      const messages = await trx
        .deleteFrom('outbox_messages')
        .where('site_id', '=', row.site_id)
        .where('appointment_id', '=', appointmentId)
        .where('event_type', 'like', 'patient.%')
        .executeTakeFirst();
      outboxMessages += Number(messages.numDeletedRows);
      const kept = await trx
        .deleteFrom('patient_mail')
        .where('site_id', '=', row.site_id)
        .where('appointment_id', '=', appointmentId)
        .where('email', '=', row.email)
        .executeTakeFirst();
      patientMail += Number(kept.numDeletedRows);
    }
    return { patientMail, outboxMessages };
  });
  if (engine === 'sqlite') await sql`PRAGMA wal_checkpoint(TRUNCATE)`.execute(db);
  return erased;
}

/** An address as erasure compares it: trimmed, lower-cased (mailboxes are told apart by neither in practice). */
export function normalisedEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** The phone a payload's event names (`patient.phone`); undefined when it names none or is no event. */
function patientPhoneIn(payload: string): string | undefined {
  try {
    const event = JSON.parse(payload) as { patient?: { phone?: unknown } } | null;
    const phone = event?.patient?.phone;
    return typeof phone === 'string' ? phone : undefined;
  } catch {
    // Never written so (enqueueMessages writes JSON); such a row names nobody this can read.
    return undefined;
  }
}

/** The appointment ids of the records, per site (bigint columns come from PostgreSQL as strings). */
function groupBySite(records: readonly { site_id: string; appointment_id: number | string }[]): Map<string, number[]> {
  const bySite = new Map<string, number[]>();
  for (const record of records) {
    const ids = bySite.get(record.site_id) ?? [];
    ids.push(Number(record.appointment_id));
    bySite.set(record.site_id, ids);
  }
  return bySite;
}

/** Keys per DELETE: far below either engine's limit of bound parameters. */
const DELETE_BATCH = 500;

function chunks<T>(items: readonly T[]): T[][] {
  const batches: T[][] = [];
  for (let start = 0; start < items.length; start += DELETE_BATCH) batches.push(items.slice(start, start + DELETE_BATCH));
  return batches;
}
