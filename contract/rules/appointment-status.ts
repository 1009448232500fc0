/**
 * The appointment statuses spec part 3 names; a booking starts Scheduled. This
 * implementation takes them as the complete list (docs/spec-silence.md, "Where the spec is
 * silent"), so every tier can put each one into words.
 */
export const APPOINTMENT_STATUSES = ['Scheduled', 'Cancelled', 'Completed'] as const;
export type AppointmentStatus = (typeof APPOINTMENT_STATUSES)[number];

/** True for a status the contract names. */
export function isAppointmentStatus(value: string): value is AppointmentStatus {
  return (APPOINTMENT_STATUSES as readonly string[]).includes(value);
}
