import { sql, type Kysely, type Migration } from 'kysely';

/**
 * What telling the clinic and patients' change requests keep
 * (docs/privacy.md, "What the BFF keeps"):
 * - each site's channels and change rules, its webhook secret sealed as app secrets are;
 * - the bookings this BFF made, what a change request needs to tell the clinic
 *   (the spec's status view has neither dentist, treatment nor phone), until a
 *   week after the appointment (forget_at);
 * - one row per change request intent (one cancel, one move per booking), until the same time;
 * - the outbox: one row per message and channel, deleted after delivery's retention.
 * Times the worker compares are integers (ms since the epoch), the same on both engines.
 */
export const notificationTables: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('sites')
      .addColumn('notify_email', 'text')
      .execute();
    for (const [column, type] of [
      ['notify_language', 'text'],
      ['webhook_url', 'text'],
      ['webhook_secret_sealed', 'text'],
      ['change_min_notice_hours', 'integer'],
      ['change_move_allowed', 'integer'],
      ['change_text', 'text'],
      ['booking_page_url', 'text'],
    ] as const) {
      await db.schema.alterTable('sites').addColumn(column, type).execute();
    }

    await db.schema
      .createTable('booking_records')
      .addColumn('site_id', 'text', (c) => c.notNull())
      .addColumn('appointment_id', 'bigint', (c) => c.notNull())
      .addColumn('date', 'text', (c) => c.notNull())
      .addColumn('time', 'text', (c) => c.notNull())
      .addColumn('doctor_id', 'integer')
      .addColumn('treatment_id', 'integer')
      .addColumn('patient_phone', 'text')
      .addColumn('forget_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('booking_records_pk', ['site_id', 'appointment_id'])
      .execute();
    await db.schema.createIndex('booking_records_forget').on('booking_records').column('forget_at').execute();

    await db.schema
      .createTable('change_requests')
      .addColumn('site_id', 'text', (c) => c.notNull())
      .addColumn('appointment_id', 'bigint', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('cancel', 'move')`))
      .addColumn('requested_at', 'bigint', (c) => c.notNull())
      .addColumn('preferred_starts', 'text')
      .addColumn('forget_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('change_requests_pk', ['site_id', 'appointment_id', 'kind'])
      .execute();
    await db.schema.createIndex('change_requests_forget').on('change_requests').column('forget_at').execute();

    await db.schema
      .createTable('outbox_messages')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('site_id', 'text', (c) => c.notNull())
      .addColumn('channel', 'text', (c) => c.notNull().check(sql`channel in ('email', 'webhook')`))
      .addColumn('event_type', 'text', (c) => c.notNull())
      .addColumn('payload', 'text', (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull().check(sql`state in ('pending', 'delivered', 'dead')`))
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
      .addColumn('lease_owner', 'text')
      .addColumn('lease_until', 'bigint')
      .addColumn('finished_at', 'bigint')
      .addColumn('last_error', 'text')
      .execute();
    await db.schema.createIndex('outbox_due').on('outbox_messages').columns(['state', 'next_attempt_at']).execute();
  },
};
