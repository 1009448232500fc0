import { z } from 'zod';
import { HexColour, Html, LongText, ShortText, TimeOfDay, Url } from './common.js';
import { DAY_NAMES } from './rules/days.js';

/** Spec 2.3 opening-hours entry, one per day name. */
export const OpeningHoursEntry = z
  .object({ open: TimeOfDay, close: TimeOfDay, is_closed: z.boolean() })
  .strict()
  .refine((day) => day.is_closed || day.open < day.close, {
    message: 'open must be before close on a day that is not closed',
  })
  .meta({ id: 'OpeningHoursEntry' });
export type OpeningHoursEntry = z.infer<typeof OpeningHoursEntry>;

export { DAY_NAMES, type DayName } from './rules/days.js';

export const TeamMember = z
  .object({ photo: Url, name: ShortText, role: ShortText, linkedin: Url })
  .strict()
  .meta({ id: 'TeamMember' });

export const Testimonial = z
  .object({ photo: Url, name: ShortText, role: ShortText, comment: LongText })
  .strict()
  .meta({ id: 'Testimonial' });

export const Faq = z.object({ question: ShortText, answer: LongText }).strict().meta({ id: 'Faq' });

export const Service = z
  .object({ image: Url, title: ShortText, description: LongText, features: LongText })
  .strict()
  .meta({ id: 'Service' });

/** The website settings a clinic provides (spec 2.3 without care_id). */
export const WebsiteSettings = z
  .object({
    clinic_name: ShortText,
    theme_primary: HexColour,
    theme_secondary: HexColour,
    theme_dark: HexColour,
    hero_title: ShortText,
    hero_subtitle: Html,
    hero_badge: ShortText,
    hero_bg_image: Url,
    stat_years: ShortText,
    stat_support: ShortText,
    stat_success: ShortText,
    about_title: ShortText,
    about_description: Html,
    about_image: Url,
    contact_phone: z.string().max(40),
    contact_email: z.string().max(254),
    contact_address: ShortText,
    whatsapp_number: z.string().max(40),
    map_url: Url,
    /** A day left out is closed. */
    opening_hours: z.partialRecord(z.enum(DAY_NAMES), OpeningHoursEntry),
    team_members: z.array(TeamMember).max(50),
    testimonials: z.array(Testimonial).max(50),
    faqs: z.array(Faq).max(100),
    services: z.array(Service).max(50),
    cta_text: ShortText,
    appointment_title: ShortText,
    appointment_subtitle: ShortText,
    about_label: ShortText,
    footer_description: LongText,
    social_facebook: Url.nullable(),
    social_instagram: Url.nullable(),
    social_twitter: Url.nullable(),
    social_linkedin: Url.nullable(),
    section_labels: z.record(z.string().max(64), ShortText),
    seo_title: ShortText,
    seo_description: LongText,
    seo_keywords: LongText,
  })
  .strict();
export type WebsiteSettings = z.infer<typeof WebsiteSettings>;

/** Spec 2.3: the site object of GET /website. */
export const WebsiteSite = z
  .object({ care_id: z.number().int().min(1), ...WebsiteSettings.shape })
  .strict()
  .meta({ id: 'WebsiteSite' });
export type WebsiteSite = z.infer<typeof WebsiteSite>;

export const WebsiteResponse = z
  .object({ success: z.literal(true), site: WebsiteSite })
  .strict()
  .meta({ id: 'WebsiteResponse' });
export type WebsiteResponse = z.infer<typeof WebsiteResponse>;
