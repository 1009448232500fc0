import { existsSync, readFileSync } from 'node:fs';
import type { BookAppointmentRequest } from '../../../contract/index.js';
import { AppointmentStore } from '../../../server/appointments/appointment.store.js';
import type { TestServer } from './test-server.js';

/** Every byte of a SQLite database on disk: the file and its WAL, as Buffers (what a stolen disk would show). */
export function sqliteBytes(dbPath: string): Buffer {
  return Buffer.concat([dbPath, `${dbPath}-wal`].filter((path) => existsSync(path)).map((path) => readFileSync(path)));
}

/** Whether `text` is anywhere in those bytes, as SQLite stores text (UTF-8). */
export const sqliteFileHolds = (dbPath: string, text: string): boolean => sqliteBytes(dbPath).includes(Buffer.from(text, 'utf8'));

/**
 * An appointment written straight into the database, past the booking rules
 * (a date long gone, as appointments the clinic kept for a year are), Completed.
 */
export async function insertAppointment(server: TestServer, careId: number, fields: Partial<BookAppointmentRequest> & { appointment_date: string }): Promise<number> {
  const booking = { patient_name: 'Jane Doe', patient_phone: '+44 7700 900123', appointment_time: '10:00', ...fields } as BookAppointmentRequest;
  return new AppointmentStore(server.db, server.database.engine).insert(careId, booking, '10:30', 'Completed', server.clock.now());
}

/** YYYY-MM-DD `days` before `from` (UTC). */
export const daysBefore = (from: Date, days: number): string => new Date(from.getTime() - days * 86_400_000).toISOString().slice(0, 10);
