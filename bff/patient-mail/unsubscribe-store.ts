import { sql, type Kysely } from 'kysely';
import type { Engine } from '../../platform/database/database-url.js';
import { MAIL_LANGUAGES, type MailLanguage } from '../notifications/mail-language.js';
import type { SitesTables } from '../sites/sites-database.js';

/**
 * The patient_mail rows as the unsubscribe page reads and deletes them, by
 * their random token (unique over every site).
 */
export class UnsubscribeStore {
  constructor(
    private readonly db: Kysely<SitesTables>,
    private readonly engine: Engine,
  ) {}

  /** The language of the row of `token`; undefined when no row has it (used, forgotten, or never one). Changes nothing. */
  async languageOf(token: string): Promise<MailLanguage | undefined> {
    const row = await this.db.selectFrom('patient_mail').select('language').where('unsubscribe_token', '=', token).executeTakeFirst();
    return row && languageOf(row.language);
  }

  /**
   * Forgets the address of `token`'s booking and withdraws what was to be
   * sent to it, in one transaction: the patient_mail row, and every pending
   * patient message (event type `patient.*`) of that booking (site and
   * appointment). Delivered and dead messages stay until the outbox's
   * housekeeping (they name no address); the clinic's messages of the
   * booking are not the patient's to stop. A message a worker has leased
   * and is sending at this moment may still arrive: the worker reads the
   * address when it sends, and there is none after this.
   *
   * The row is deleted first (RETURNING its booking), so the transaction
   * starts by writing: on SQLite a transaction that read first fails at once
   * when another process wrote in between, rather than waiting its turn.
   * Then, as for an erasure (patient-erasure.ts), the WAL, whose older frames
   * still hold the address, is checkpointed and emptied (best effort).
   *
   * Returns the row's language; undefined when no row had the token.
   */
  async unsubscribe(token: string): Promise<MailLanguage | undefined> {
    const removed = await this.db.transaction().execute(async (trx) => {
      const row = await trx
        .deleteFrom('patient_mail')
        .where('unsubscribe_token', '=', token)
        .returning(['site_id', 'appointment_id', 'language'])
        .executeTakeFirst();
      if (!row) return undefined;
      await trx
        .deleteFrom('outbox_messages')
        .where('site_id', '=', row.site_id)
        .where('appointment_id', '=', row.appointment_id)
        .where('state', '=', 'pending')
        .where('event_type', 'like', 'patient.%')
        .execute();
      return row;
    });
    if (!removed) return undefined;
    // Committed already: a checkpoint that fails changes nothing of that, and a later one empties the WAL.
    if (this.engine === 'sqlite') await sql`PRAGMA wal_checkpoint(TRUNCATE)`.execute(this.db).catch(() => undefined);
    return languageOf(removed.language);
  }
}

/** A row's language as a mail language: one written by another version that this one does not know reads as English. */
const languageOf = (language: string): MailLanguage => ((MAIL_LANGUAGES as readonly string[]).includes(language) ? (language as MailLanguage) : 'en');
