import { z } from 'zod';
import { BOOKING_RULE_BOUNDS, DEFAULT_BOOKING_RULES, type BookingRules } from '../../contract/rules/index.js';

/** A clinic's booking rules under the names the clinic file, the CLI and the clinics table give them. */
export interface StoredBookingRules {
  min_notice_minutes: number;
  horizon_days: number;
  default_duration_minutes: number;
}

const wholeNumber = ({ min, max }: { min: number; max: number }, unit: string) =>
  z
    .number({ error: `must be a whole number of ${unit} from ${min} to ${max}` })
    .int({ message: `must be a whole number of ${unit} from ${min} to ${max}` })
    .min(min, { message: `must be a whole number of ${unit} from ${min} to ${max}` })
    .max(max, { message: `must be a whole number of ${unit} from ${min} to ${max}` });

/**
 * The `booking_rules` of a clinic file, each rule optional with its default
 * (contract/rules/booking-rules.ts). A notice of a whole day more than the
 * horizon leaves nothing bookable at any hour, so it is refused.
 */
export const BookingRulesInput = z
  .object({
    min_notice_minutes: wholeNumber(BOOKING_RULE_BOUNDS.minNoticeMinutes, 'minutes').default(DEFAULT_BOOKING_RULES.minNoticeMinutes),
    horizon_days: wholeNumber(BOOKING_RULE_BOUNDS.horizonDays, 'days').default(DEFAULT_BOOKING_RULES.horizonDays),
    default_duration_minutes: wholeNumber(BOOKING_RULE_BOUNDS.defaultDurationMinutes, 'minutes').default(
      DEFAULT_BOOKING_RULES.defaultDurationMinutes,
    ),
  })
  .strict()
  .check((ctx) => {
    const { min_notice_minutes: notice, horizon_days: horizon } = ctx.value;
    if (notice >= (horizon + 1) * 24 * 60) {
      ctx.issues.push({
        code: 'custom',
        path: ['min_notice_minutes'],
        message: `must be less than the horizon_days (${horizon}) plus one day, ${(horizon + 1) * 24 * 60} minutes: otherwise no time could ever be booked`,
        input: notice,
      });
    }
  });

export const toBookingRules = (stored: StoredBookingRules): BookingRules => ({
  minNoticeMinutes: stored.min_notice_minutes,
  horizonDays: stored.horizon_days,
  defaultDurationMinutes: stored.default_duration_minutes,
});
