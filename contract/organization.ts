import { z } from 'zod';
import { CalendarDate, ShortText, Url } from './common.js';

/** Spec 2.2 statistics: counted live from the database. */
export const OrganizationStatistics = z
  .object({
    total_users: z.number().int().min(0),
    total_patients: z.number().int().min(0),
    total_appointments: z.number().int().min(0),
    total_doctors: z.number().int().min(0),
  })
  .strict()
  .meta({ id: 'OrganizationStatistics' });

/** The organization fields a clinic provides (spec 2.2 without care_id and statistics). */
export const OrganizationProfile = z
  .object({
    name: ShortText.min(1),
    short_name: ShortText,
    tooth_system: ShortText,
    currency: z.string().regex(/^[A-Z]{3}$/, { message: 'must be an ISO 4217 code such as EUR' }),
    currency_symbol: z.string().max(8),
    logo: Url.nullable(),
    address: ShortText,
    city: ShortText,
    state: ShortText,
    region: ShortText,
    postal_code: z.string().max(20),
    country: ShortText,
    phone: z.string().max(40),
    email: z.string().max(254),
    website: Url,
    fax: z.string().max(40).nullable(),
    established_date: CalendarDate,
  })
  .strict();
export type OrganizationProfile = z.infer<typeof OrganizationProfile>;

/** Spec 2.2: the data object of GET /organization. */
export const Organization = z
  .object({
    care_id: z.number().int().min(1),
    ...OrganizationProfile.shape,
    statistics: OrganizationStatistics,
  })
  .strict()
  .meta({ id: 'Organization' });
export type Organization = z.infer<typeof Organization>;

export const OrganizationResponse = z
  .object({ success: z.literal(true), message: z.string(), data: Organization })
  .strict()
  .meta({ id: 'OrganizationResponse' });
export type OrganizationResponse = z.infer<typeof OrganizationResponse>;
