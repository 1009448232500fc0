import type { Kysely } from 'kysely';
import type { SitesTables } from '../sites/sites-database.js';
import type { PatientMailEvent } from './patient-mail-event.js';

/** Where a patient's message goes: the address kept for the booking, its language and the unsubscribe link's token. */
export interface PatientRecipient {
  email: string;
  language: PatientMailEvent['language'];
  unsubscribeToken: string;
}

/** The patient who asked for e-mail about a booking, until the row's forget_at; undefined once unsubscribed, erased or forgotten. */
export async function recipientOf(db: Kysely<SitesTables>, siteId: string, appointmentId: number, now: number): Promise<PatientRecipient | undefined> {
  const row = await db
    .selectFrom('patient_mail')
    .select(['email', 'language', 'unsubscribe_token'])
    .where('site_id', '=', siteId)
    .where('appointment_id', '=', appointmentId)
    .where('forget_at', '>', now)
    .executeTakeFirst();
  return row && { email: row.email, language: row.language as PatientRecipient['language'], unsubscribeToken: row.unsubscribe_token };
}
