import type { AppointmentStatus } from '../../contract/index.js';

/**
 * The contract's appointment statuses, for the one run-time check the widget
 * needs. The Record type ties this object to the contract's union: the
 * compiler refuses it when a status is added or removed there. It stands in
 * for APPOINTMENT_STATUSES, which lives beside its zod enum in
 * contract/appointments.ts and so cannot be imported into the browser bundle.
 */
const KNOWN: Record<AppointmentStatus, true> = { Scheduled: true, Cancelled: true, Completed: true };

/** True for a status the contract names; an upstream other than ours may send another. */
export function isAppointmentStatus(value: string): value is AppointmentStatus {
  return Object.hasOwn(KNOWN, value);
}
