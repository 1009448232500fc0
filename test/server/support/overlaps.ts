import { sql } from 'kysely';
import type { Db } from '../../../server/db/database.js';

/** Pairs of Scheduled appointments of one dentist that share a minute, by id: [] when the schedule holds. */
export async function overlappingPairs(db: Db): Promise<{ first: number; second: number }[]> {
  const { rows } = await sql<{ first: number; second: number }>`
    select a.appointment_id as first, b.appointment_id as second
    from appointments a join appointments b
      on a.doctor_id = b.doctor_id and a.appointment_date = b.appointment_date and a.appointment_id < b.appointment_id
    where a.status = 'Scheduled' and b.status = 'Scheduled'
      and a.appointment_time < b.end_time and b.appointment_time < a.end_time`.execute(db);
  return rows;
}
