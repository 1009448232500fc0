import type { Kysely, Migration } from 'kysely';

/**
 * What patients' own e-mails keep (docs/privacy.md, "What the BFF keeps"):
 * - each site's own sender, relay (sealed: it may hold a password) and DKIM
 *   key (sealed), and how many hours before an appointment its reminder goes;
 * - one row per booking whose patient asked for e-mail: the address, the
 *   language, and the random token of its unsubscribe link, until a week
 *   after the appointment (forget_at), or at once on unsubscribe or erasure;
 * - on each outbox message, the time it first became due (a reminder is
 *   queued days before) and the booking it belongs to, so a reminder can be
 *   withdrawn by booking and gives up counting from when it was due.
 */
export const patientMail: Migration = {
  async up(db: Kysely<unknown>) {
    for (const [column, type] of [
      ['mail_from', 'text'],
      ['smtp_url_sealed', 'text'],
      ['dkim_domain', 'text'],
      ['dkim_selector', 'text'],
      ['dkim_private_key_sealed', 'text'],
      ['reminder_hours_before', 'integer'],
    ] as const) {
      await db.schema.alterTable('sites').addColumn(column, type).execute();
    }

    await db.schema
      .createTable('patient_mail')
      .addColumn('site_id', 'text', (c) => c.notNull())
      .addColumn('appointment_id', 'bigint', (c) => c.notNull())
      .addColumn('email', 'text', (c) => c.notNull())
      .addColumn('language', 'text', (c) => c.notNull())
      .addColumn('unsubscribe_token', 'text', (c) => c.notNull().unique())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('forget_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('patient_mail_pk', ['site_id', 'appointment_id'])
      .execute();
    await db.schema.createIndex('patient_mail_forget').on('patient_mail').column('forget_at').execute();

    await db.schema.alterTable('outbox_messages').addColumn('due_at', 'bigint').execute();
    await db.schema.alterTable('outbox_messages').addColumn('appointment_id', 'bigint').execute();
    await db.schema.createIndex('outbox_booking').on('outbox_messages').columns(['site_id', 'appointment_id']).execute();
  },
};
