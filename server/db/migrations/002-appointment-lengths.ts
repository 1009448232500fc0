import { sql, type Kysely, type Migration } from 'kysely';

/**
 * An appointment holds its dentist for its whole length, and each
 * clinic has booking rules. Written with Kysely's schema builder, as 001 is,
 * so both engines run the same migration.
 *
 * - clinics get their rules, every existing clinic the defaults
 *   (contract/rules/booking-rules.ts, copied here: a migration must do the
 *   same thing whenever it runs, whatever the defaults become later).
 * - appointments get `end_time`, when the appointment stops holding its
 *   dentist (HH:MM, the end excluded), filled for existing rows from their
 *   treatment's duration_minutes, or without one the clinic's default length.
 *
 * The end is stored rather than worked out at each check, so one indexed
 * query can find an overlap, and an appointment keeps the length it was
 * booked with when its treatment's duration changes later. The column's
 * default, 24:00, is for a row written by code older than this migration (a
 * server not yet restarted on the new code): such a row holds its dentist to
 * the end of the day, which can refuse a booking wrongly but never lets two
 * overlap.
 */
export const appointmentLengths: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('clinics').addColumn('min_notice_minutes', 'integer', (c) => c.notNull().defaultTo(120)).execute();
    await db.schema.alterTable('clinics').addColumn('horizon_days', 'integer', (c) => c.notNull().defaultTo(365)).execute();
    await db.schema.alterTable('clinics').addColumn('default_duration_minutes', 'integer', (c) => c.notNull().defaultTo(30)).execute();
    await db.schema.alterTable('appointments').addColumn('end_time', 'text', (c) => c.notNull().defaultTo('24:00')).execute();

    // Each distinct start and length gets one UPDATE: a handful for any table, set-based, nothing held in memory.
    const length = sql<number>`coalesce(
      (select t.duration_minutes from treatments t where t.treatment_id = appointments.treatment_id),
      (select c.default_duration_minutes from clinics c where c.care_id = appointments.care_id)
    )`;
    const groups = await sql<{ appointment_time: string; length: number }>`
      select distinct appointment_time, ${length} as length from appointments`.execute(db);
    for (const group of groups.rows) {
      await sql`update appointments set end_time = ${endOf(group.appointment_time, Number(group.length))}
        where appointment_time = ${group.appointment_time} and ${length} = ${Number(group.length)}`.execute(db);
    }
  },
};

/** appointmentEnd (contract/rules/appointment-interval.ts) as it was when this migration was written. */
function endOf(start: string, minutes: number): string {
  const end = Math.min(Number(start.slice(0, 2)) * 60 + Number(start.slice(3, 5)) + minutes, 24 * 60);
  return `${String(Math.floor(end / 60)).padStart(2, '0')}:${String(end % 60).padStart(2, '0')}`;
}
