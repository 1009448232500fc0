/** The Clinic Integration REST API v1 in zod: one source of truth for the server, the BFF and the widget's types. */
export * from './rules/limits.js';
export { APPOINTMENT_STATUSES, isAppointmentStatus } from './rules/appointment-status.js';
export * from './errors.js';
export * from './common.js';
export * from './auth.js';
export * from './organization.js';
export * from './website.js';
export * from './treatments.js';
export * from './dentists.js';
export * from './appointments.js';
export * from './headers.js';
