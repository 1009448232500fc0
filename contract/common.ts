import { z } from 'zod';
import { LIMITS } from './rules/limits.js';

/** Spec 2.7: the body of every error answer. */
export const ErrorBody = z
  .object({
    success: z.literal(false),
    message: z.string(),
    error_code: z.string(),
  })
  .strict()
  .meta({ id: 'ErrorBody', description: 'Body of every error answer (spec 2.7).' });
export type ErrorBody = z.infer<typeof ErrorBody>;

/** Every error_code this implementation answers with, and its HTTP status. */
export const ERROR_STATUS = {
  validation_error: 400,
  auth_failed: 401,
  not_found: 404,
  slot_unavailable: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  idempotency_key_reused: 422,
  rate_limited: 429,
  internal_error: 500,
  /** BFF only: the upstream API failed or is unreachable. */
  upstream_unavailable: 502,
  /** BFF only: the upstream API did not answer in time. */
  upstream_timeout: 504,
} as const;
export type ErrorCode = keyof typeof ERROR_STATUS;

const DATE_SHAPE = /^\d{4}-\d{2}-\d{2}$/;

/** True when YYYY-MM-DD names a day that exists (no 2025-02-30). */
export function isCalendarDate(value: string): boolean {
  if (!DATE_SHAPE.test(value)) return false;
  const [year, month, day] = value.split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** A calendar date, YYYY-MM-DD. */
export const CalendarDate = z
  .string()
  .refine(isCalendarDate, { message: 'must be a real calendar date in the form YYYY-MM-DD' })
  .meta({ format: 'date', example: '2026-12-01' });

/** A time of day, HH:MM on the 24-hour clock. */
export const TimeOfDay = z
  .string()
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, { message: 'must be a time in the form HH:MM (24-hour)' })
  .meta({ example: '09:30' });

/** Spec "String (Decimal)": a money amount carried as a string with two decimals. */
export const Decimal = z
  .string()
  .regex(/^\d{1,9}\.\d{2}$/, { message: 'must be a decimal amount such as "120.00"' })
  .meta({ example: '120.00' });

/** The message of a URL that is not http(s): consumers (the BFF) recognise it to blank such a field. */
export const NOT_HTTP_URL = 'must be an http(s) URL or empty';

/** Spec "String (URL)": an absolute http(s) URL, or empty where the clinic has none. */
export const Url = z
  .string()
  .max(LIMITS.url)
  .refine((value) => value === '' || isHttpUrl(value), { message: NOT_HTTP_URL })
  .meta({ format: 'uri', example: 'https://example.com/image.jpg' });

export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

/** Spec "String (Hex)": a colour such as #0d9488. */
export const HexColour = z
  .string()
  .regex(/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, { message: 'must be a hex colour such as #0d9488' })
  .meta({ example: '#0d9488' });

/** Spec "String (HTML)": markup written by the clinic; consumers must sanitise it. */
export const Html = z.string().max(LIMITS.html).meta({ description: 'HTML written by the clinic.' });

export const ShortText = z.string().max(LIMITS.shortText);
export const LongText = z.string().max(LIMITS.longText);

/** A numeric identifier in a path: digits only, a safe positive integer. */
export const IdParam = z
  .string()
  .regex(/^[1-9]\d{0,15}$/)
  .transform(Number)
  .refine(Number.isSafeInteger)
  .meta({ description: 'A positive integer identifier.', example: '1' });
