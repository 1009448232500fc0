import { z } from 'zod';
import { DentistInput, OrganizationProfile, TreatmentInput, WebsiteSettings } from '../../contract/index.js';
import { BookingRulesInput } from './booking-rules.js';

/** True when the runtime knows the IANA time zone (e.g. Europe/London). */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return name.includes('/') || name === 'UTC';
  } catch {
    return false;
  }
}

/**
 * The file `clinic create --file` reads: the spec's field names, without
 * care_id, ids and statistics; a treatment may be created inactive. Its
 * booking_rules (not in the spec) may be left out, whole or rule by rule, for
 * their defaults.
 */
export const ClinicFile = z
  .object({
    timezone: z.string().refine(isTimeZone, { message: 'must be an IANA time zone such as Europe/London' }),
    organization: OrganizationProfile,
    website: WebsiteSettings,
    treatments: z.array(TreatmentInput.extend({ active: z.boolean().default(true) })).max(500),
    dentists: z.array(DentistInput).max(500),
    booking_rules: BookingRulesInput.prefault({}),
  })
  .strict();
export type ClinicFile = z.input<typeof ClinicFile>;
export type ParsedClinicFile = z.output<typeof ClinicFile>;
