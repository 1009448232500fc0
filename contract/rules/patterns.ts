/**
 * The small text rules every tier checks the same way: the server's contract,
 * the BFF's sanitiser and the widget's inline validation all read them here.
 */

/** Spec 4.1 patient_phone: phone characters only (digits, spaces, + ( ) - . /)... */
export const PHONE_PATTERN = /^\+?[0-9 ()./-]{5,}$/;
/** ...and at least this many digits among them. */
export const MIN_PHONE_DIGITS = 5;

/** True when `phone` is a phone number by both halves of the rule above. */
export function isPhoneNumber(phone: string): boolean {
  return PHONE_PATTERN.test(phone) && phone.replace(/\D/g, '').length >= MIN_PHONE_DIGITS;
}

/**
 * A phone number as patients write it, reduced to what identifies it: its
 * digits, and a leading + if it has one. "+44 7700 900123", "+44 (7700)
 * 900-123" and "+447700900123" are one phone; "07700 900123" is another (the
 * clinic asks for the number as the patient booked with it). How the server
 * and the BFF find a patient's data, and what an audit line's hash is of.
 */
export function normalisePhone(phone: string): string {
  const digits = phone.replace(/\D/g, '');
  return phone.trimStart().startsWith('+') ? `+${digits}` : digits;
}

/**
 * One e-mail address, as a patient types it for a confirmation (no name, no list): something, an @,
 * and a domain with a dot; no spaces or the characters that would make it a list or a display name.
 * Checked by the BFF (BrowserBookingRequest.patient_email) and, while typing, by the widget.
 */
export const EMAIL_ADDRESS_PATTERN = /^[^\s@<>",;]+@[^\s@<>",;]+\.[^\s@<>",;]+$/;
/** RFC 5321's longest address (a path of 256 octets, less its angle brackets). */
export const MAX_EMAIL_ADDRESS_LENGTH = 254;

/** Spec "String (Hex)": #rgb or #rrggbb. */
export const HEX_COLOUR_PATTERN = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;

/** A positive integer identifier as text: digits only, no leading zero, at most 16 digits. */
export const POSITIVE_ID_PATTERN = /^[1-9]\d{0,15}$/;

/** The number named by `text` when it is a safe positive integer identifier, else undefined. */
export function parsePositiveId(text: string): number | undefined {
  if (!POSITIVE_ID_PATTERN.test(text)) return undefined;
  const id = Number(text);
  return Number.isSafeInteger(id) ? id : undefined;
}

/** HH:MM on the 24-hour clock. */
export const TIME_OF_DAY_PATTERN = /^([01]\d|2[0-3]):[0-5]\d$/;

const DATE_SHAPE = /^\d{4}-\d{2}-\d{2}$/;

/** True when YYYY-MM-DD names a day that exists (no 2025-02-30). */
export function isCalendarDate(value: string): boolean {
  if (!DATE_SHAPE.test(value)) return false;
  const [year, month, day] = value.split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** True for an absolute http: or https: URL. */
export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

/** An http(s) URL in its normalised form, or undefined for anything else. */
export function httpUrlOrUndefined(value: string | null | undefined): string | undefined {
  return value && isHttpUrl(value) ? new URL(value).href : undefined;
}
