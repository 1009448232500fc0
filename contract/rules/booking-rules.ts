import { LIMITS } from './limits.js';

/**
 * A clinic's booking rules, where the spec has none (docs/spec-silence.md, "Where the spec
 * is silent"): how much notice a booking needs, how far ahead it may be, and
 * how long an appointment without a treatment holds its dentist. The server
 * keeps them per clinic (the clinic file, `clinic set-rules`); the BFF, which
 * cannot read them through the API, has settings with the same defaults.
 */
export interface BookingRules {
  /** A booking must start at least this many minutes after now. */
  minNoticeMinutes: number;
  /** A booking's date may be at most this many days after today. */
  horizonDays: number;
  /** How long an appointment without a treatment lasts (a treatment brings its own duration_minutes). */
  defaultDurationMinutes: number;
}

/** The rules of a clinic that sets none. */
export const DEFAULT_BOOKING_RULES: Readonly<BookingRules> = Object.freeze({
  minNoticeMinutes: 120,
  horizonDays: LIMITS.bookingHorizonDays,
  defaultDurationMinutes: 30,
});

/**
 * What each rule may be, inclusive. A notice of 0 and a horizon of 0 days
 * (today only) are real choices; the longest notice is 30 days, the farthest
 * horizon two years, and a default length a whole working day at most.
 */
export const BOOKING_RULE_BOUNDS: Readonly<Record<keyof BookingRules, { min: number; max: number }>> = Object.freeze({
  minNoticeMinutes: { min: 0, max: 30 * 24 * 60 },
  horizonDays: { min: 0, max: 730 },
  defaultDurationMinutes: { min: 5, max: 480 },
});
