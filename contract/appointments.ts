import { z } from 'zod';
import { CalendarDate, IdParam, TimeOfDay } from './common.js';
import { LIMITS } from './rules/limits.js';
import { MIN_PHONE_DIGITS, PHONE_PATTERN, TIME_OF_DAY_PATTERN } from './rules/patterns.js';
import { isBlankPatientText, normalisePatientText, patientTextProblem, type PatientTextProblem } from './rules/patient-text.js';
import { APPOINTMENT_STATUSES } from './rules/appointment-status.js';

/** The status values named by spec part 3 (contract/rules/appointment-status.ts). */
export const AppointmentStatus = z.enum(APPOINTMENT_STATUSES);
export type AppointmentStatus = z.infer<typeof AppointmentStatus>;

/** The server's words for each patient text problem (contract/rules/patient-text.ts); the widget has its own. */
const PATIENT_TEXT_MESSAGES: Record<PatientTextProblem, string> = {
  control_character: 'must not contain control characters',
  bidi_control: 'must not contain bidirectional embedding, override or isolate characters (U+202A–U+202E, U+2066–U+2069)',
  lone_surrogate: 'must not contain unpaired surrogates (text that is not valid Unicode)',
  blank: 'is required',
};

/**
 * A patient text field: NFC-normalised and trimmed (the note's line breaks as
 * LF), then refused for control, bidi-control or unpaired-surrogate
 * characters; a required one also when nothing visible is left. An optional
 * one with nothing visible becomes '' and is stored as absent.
 */
const patientText = (max: number, { required, multiline = false }: { required: boolean; multiline?: boolean }) => {
  const text = z
    .string({ error: (issue) => (required && issue.input === undefined ? 'is required' : 'must be a string') })
    .overwrite((value) => normalisePatientText(value, { multiline }));
  return (required ? text.min(1, { message: 'is required' }) : text)
    .check((ctx) => {
      const problem = patientTextProblem(ctx.value, { multiline });
      if (problem && (required || problem !== 'blank')) ctx.issues.push({ code: 'custom', message: PATIENT_TEXT_MESSAGES[problem], input: ctx.value });
    })
    .overwrite((value) => (isBlankPatientText(value) ? '' : value))
    .max(max, { message: `must be at most ${max} characters` });
};

const requiredText = (max: number) => patientText(max, { required: true });

/** An optional patient text field (a note, a change request's message): sanitised as every patient text. */
export const optionalText = (max: number, options: { multiline?: boolean } = {}) => patientText(max, { required: false, ...options }).nullish();

const optionalId = z
  .number({ error: 'must be a positive integer' })
  .int({ message: 'must be a positive integer' })
  .min(1, { message: 'must be a positive integer' })
  .max(Number.MAX_SAFE_INTEGER, { message: 'must be a positive integer' })
  .nullish();

/** Spec 4.1: the body of POST /appointments/book. Unknown fields are refused. */
export const BookAppointmentRequest = z
  .strictObject(
    {
      patient_name: requiredText(LIMITS.patientName).meta({ description: 'Full patient name.' }),
      patient_phone: requiredText(LIMITS.patientPhone)
        .regex(PHONE_PATTERN, { message: 'must be a phone number (digits, spaces, + ( ) - . /)' })
        .refine((phone) => phone.replace(/\D/g, '').length >= MIN_PHONE_DIGITS, { message: `must contain at least ${MIN_PHONE_DIGITS} digits` })
        .meta({ description: 'Patient contact number.', example: '+44 20 7946 0958' }),
      address: optionalText(LIMITS.address).meta({ description: 'Patient address.' }),
      // A request body renders the pipe's input (a bare string), so the format and pattern are restated for the document.
      appointment_date: z
        .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') })
        .pipe(CalendarDate)
        .meta({
          description: 'Day of the appointment in the clinic\'s time zone, YYYY-MM-DD.',
          format: 'date',
          example: '2026-12-01',
        }),
      appointment_time: z
        .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') })
        .pipe(TimeOfDay)
        .meta({
          description: 'Start time in the clinic\'s time zone, HH:MM on the 24-hour clock.',
          pattern: TIME_OF_DAY_PATTERN.source,
          example: '09:30',
        }),
      doctor_id: optionalId.meta({ description: 'doctor_id from GET /dentists.' }),
      treatment_id: optionalId.meta({ description: 'treatment_id from GET /treatments.' }),
      note: optionalText(LIMITS.note, { multiline: true }).meta({ description: 'Optional appointment note.' }),
    },
    { error: (issue) => (issue.code === 'unrecognized_keys' ? `unknown field` : undefined) },
  )
  .meta({ id: 'BookAppointmentRequest' });
export type BookAppointmentRequest = z.infer<typeof BookAppointmentRequest>;
export type BookAppointmentInput = z.input<typeof BookAppointmentRequest>;

export const BookAppointmentResponse = z
  .object({
    success: z.literal(true),
    message: z.string(),
    data: z.object({ appointment_id: z.number().int().min(1) }).strict(),
  })
  .strict()
  .meta({ id: 'BookAppointmentResponse' });
export type BookAppointmentResponse = z.infer<typeof BookAppointmentResponse>;

/**
 * Spec 2.6: the status view. `status` is one of the three values spec part 3
 * names; this implementation takes them as the complete list (docs/spec-silence.md, "Where
 * the spec is silent"), so every tier can put each one into words.
 */
export const AppointmentStatusView = z
  .object({ status: AppointmentStatus, name: z.string(), date: CalendarDate, time: TimeOfDay })
  .strict()
  .meta({ id: 'AppointmentStatusView' });
export type AppointmentStatusView = z.infer<typeof AppointmentStatusView>;

export const AppointmentStatusResponse = z
  .object({ success: z.literal(true), message: z.string(), data: AppointmentStatusView })
  .strict()
  .meta({ id: 'AppointmentStatusResponse' });
export type AppointmentStatusResponse = z.infer<typeof AppointmentStatusResponse>;

export const AppointmentPathParams = z.object({ id: IdParam.meta({ description: 'appointment_id' }) });

export const IdempotencyKeyHeader = z
  .string()
  .min(1, { message: 'must not be empty' })
  .max(LIMITS.idempotencyKey, { message: `must be at most ${LIMITS.idempotencyKey} characters` })
  .regex(/^[\x21-\x7e]+$/, { message: 'must be printable ASCII without spaces' });
