import { z } from 'zod';
import {
  ApiError,
  AppointmentStatusView,
  BookAppointmentRequest,
  DentistListResponse,
  IdempotencyKeyHeader,
  ErrorBody,
  OrganizationResponse,
  TreatmentListResponse,
  WebsiteResponse,
} from './index.js';
import { CalendarDate, IdParam, TimeOfDay } from './common.js';
import { ChangeView } from './bff-change-view.js';
import {
  AVAILABILITY_DAYS_PATH,
  AVAILABILITY_PATH,
  BOOKING_PATH,
  BROWSER_BOOKING_MAX_BYTES,
  CONTENT_BUNDLE_PATH,
  CONTENT_PATHS,
  HONEYPOT_FIELD,
  LEGACY_REFERENCE_PATTERN,
  ORIGIN_CHECK_PATH,
  REFERENCE_PATTERN,
  REFUSAL_REASONS,
  STATUS_LOOKUP_MAX_BYTES,
  STATUS_LOOKUP_PATH,
  STATUS_PATH,
  type RefusalReason,
} from './rules/bff-api.js';
import { SLOT_STATUSES, SLOT_STEP_MINUTES } from './rules/slots.js';
import { EMAIL_ADDRESS_PATTERN, MAX_EMAIL_ADDRESS_LENGTH } from './rules/patterns.js';

/**
 * The BFF's own public API (/api), the one browsers and the widget call. It
 * passes the spec's content through, sanitised, and wraps booking: the
 * browser never sees the upstream's sequential appointment ids alone, only an
 * opaque reference. Its OpenAPI document (/api/openapi.json) is generated from here.
 */
export {
  AVAILABILITY_DAYS_PATH,
  AVAILABILITY_PATH,
  BOOKING_PATH,
  BROWSER_BOOKING_MAX_BYTES,
  CONTENT_BUNDLE_PATH,
  CONTENT_PATHS,
  HONEYPOT_FIELD,
  ORIGIN_CHECK_PATH,
  REFUSAL_REASONS,
  STATUS_LOOKUP_MAX_BYTES,
  STATUS_LOOKUP_PATH,
  STATUS_PATH,
};
export type { RefusalReason } from './rules/bff-api.js';

/**
 * The body of every error answer of the BFF: the clinic API's (spec 2.7), and,
 * on a booking or change request the BFF refused itself (400
 * validation_error), why as a code. The widget puts the code in the patient's
 * words; the message is English, for integrators. The clinic API's own error
 * body (ErrorBody) has no such field: this is the BFF's.
 */
export const BffErrorBody = ErrorBody.extend({
  reason: z
    .enum(REFUSAL_REASONS)
    .optional()
    .meta({
      description:
        'Only on a booking or a change request the BFF refused itself (400 validation_error): which rule it broke, ' +
        'for the client to put in its own words. Absent on every other error, a refusal the clinic system made ' +
        'itself included.',
    }),
}).meta({
  id: 'BffErrorBody',
  description: "Body of every error answer: the clinic API's (spec 2.7), with a reason code on a booking or change request the BFF refused itself.",
});
export type BffErrorBody = z.infer<typeof BffErrorBody>;

/**
 * A booking the BFF refuses before sending it on, by a rule it can check from
 * what it knows (the clinic's time, its cached opening hours, treatments and
 * dentists): 400 validation_error whose body carries `reason`, the rule as a
 * code (BffErrorBody), beside an English message for integrators. Defined with
 * the body it becomes, so the rules that raise it and the error handler that
 * answers it both depend on the contract rather than on each other.
 */
export class BookingRefused extends ApiError {
  constructor(
    readonly reason: RefusalReason,
    message: string,
  ) {
    super('validation_error', `Invalid request: ${message}`);
  }

  /** The answer's body: the spec's error body with the reason code. */
  body(): BffErrorBody {
    return { success: false, message: this.message, error_code: this.code, reason: this.reason };
  }
}

/** The languages the widget speaks, and the patient's e-mails are written in. */
export const PATIENT_LANGUAGES = ['en', 'de', 'fr', 'es', 'nl', 'ar'] as const;
export type PatientLanguage = (typeof PATIENT_LANGUAGES)[number];

/**
 * The fields of a booking that stay in the BFF: the patient's e-mail for a
 * confirmation and reminder, with its consent, the widget's language and the
 * page booked on. None goes upstream (the spec has no field for them).
 */
export const PATIENT_MAIL_FIELDS = ['patient_email', 'email_consent', 'language', 'page_url'] as const;

/** What a browser may send to book: the spec's booking body plus the honeypot, which must stay empty. */
export const BrowserBookingRequest = BookAppointmentRequest.extend({
  [HONEYPOT_FIELD]: z
    .string()
    .max(0, { message: 'must be empty' })
    .optional()
    .meta({ description: 'Honeypot: hidden from people, so only bots fill it in. Must be empty or absent.' }),
  patient_email: z
    .string()
    .trim()
    .max(MAX_EMAIL_ADDRESS_LENGTH)
    .regex(EMAIL_ADDRESS_PATTERN, { message: 'must be one e-mail address' })
    .optional()
    .meta({
      description:
        'Where to send the patient a confirmation and a reminder, only with email_consent true, and only when the ' +
        "site offers it (the content bundle's offers.confirmation_email). Kept by the BFF until a week after the " +
        'appointment, never sent to the clinic system.',
      example: 'patient@example.com',
    }),
  email_consent: z
    .boolean()
    .optional()
    .meta({ description: 'The patient ticked "Send me a confirmation and a reminder by e-mail": required true with patient_email.' }),
  language: z
    .enum(PATIENT_LANGUAGES)
    .optional()
    .meta({ description: "The widget's language: the patient's e-mails are written in it (English when absent)." }),
  page_url: z
    .url({ protocol: /^https?$/ })
    .max(2048)
    .optional()
    .meta({
      description:
        "The page booked on, without query or fragment: the e-mail's manage link opens it, when its origin is one the site " +
        'allows and no BOOKING_PAGE_URL is set.',
    }),
})
  .refine((body) => body.patient_email === undefined || body.email_consent === true, {
    message: 'patient_email is only taken with email_consent: true',
    path: ['email_consent'],
  })
  .meta({ id: 'BrowserBookingRequest' });
export type BrowserBookingRequest = z.input<typeof BrowserBookingRequest>;

/**
 * An opaque booking reference, as the BFF issues it: the appointment id
 * encrypted and signed, readable out on the phone. 20 Crockford base32
 * symbols in groups of four (REFERENCE_PATTERN); for an appointment id of
 * 2^32 or above, the earlier 54-character base64url form.
 */
export const BookingReference = z
  .string()
  .regex(new RegExp(`^(?:${REFERENCE_PATTERN.source.slice(1, -1)}|${LEGACY_REFERENCE_PATTERN.source.slice(1, -1)})$`))
  .meta({
    description:
      'Opaque, unforgeable booking reference: 20 Crockford base32 symbols (no I, L, O or U) in groups of four ' +
      'separated by dashes; 54 base64url characters for an appointment id of 2^32 or above (and for references issued earlier).',
    example: 'K7QF-2M9X-PA4T-Z3RW-8HNC',
  });

/**
 * A reference as a patient typed it: case-insensitive, with or without dashes
 * or spaces, I and L read as 1 and O as 0 (normaliseReference); or a 54-character one.
 */
export const ReferenceInput = z
  .string()
  .min(1)
  .max(100)
  .meta({
    description:
      'A booking reference as the patient has it: any case, with or without dashes or spaces; I and L are read as 1, O as 0.',
    example: 'k7qf-2m9x-pa4t-z3rw-8hnc',
  });

/**
 * The booking answer's data: the reference a patient keeps and the dentist
 * booked. Never the upstream's appointment_id: it is sequential (it tells how
 * many bookings the clinic takes, and names the neighbouring ones), so it
 * stays inside the reference.
 */
export const BookingResult = z
  .object({
    reference: BookingReference,
    doctor_id: z
      .number()
      .int()
      .min(1)
      .nullable()
      .meta({
        description:
          'The dentist booked: the one asked for, or, when none was and the clinic has dentists, the one the BFF chose ' +
          '(the first in GET /dentists order free at that time). null when the booking names no dentist.',
      }),
    booking_page_url: z
      .string()
      .optional()
      .meta({ description: "The page the clinic's manage links open (BOOKING_PAGE_URL); absent: the page the patient booked on." }),
  })
  .strict()
  .meta({ id: 'BookingResult' });
export type BookingResult = z.infer<typeof BookingResult>;

export const BffBookingResponse = z
  .object({ success: z.literal(true), message: z.string(), data: BookingResult })
  .strict()
  .meta({ id: 'BffBookingResponse' });
export type BffBookingResponse = z.infer<typeof BffBookingResponse>;

/**
 * The status of a booking by its reference: the spec's status view, plus the
 * dentist and treatment booked when this BFF made the booking and still
 * remembers it (the spec's status view has neither; best known, in memory),
 * and what the patient may still ask of it (changes: ChangeView).
 */
export const BffStatusView = AppointmentStatusView.extend({
  doctor_id: z.number().int().min(1).nullable().optional().meta({ description: 'The dentist booked, when known to this BFF.' }),
  treatment_id: z.number().int().min(1).nullable().optional().meta({ description: 'The treatment booked, when known to this BFF.' }),
  changes: ChangeView.optional().meta({ description: 'What the patient may still ask of the booking: cancel or move requests, under the clinic\'s rules.' }),
}).meta({ id: 'BffStatusView' });
export type BffStatusView = z.infer<typeof BffStatusView>;

export const BffStatusResponse = z
  .object({ success: z.literal(true), message: z.string(), data: BffStatusView })
  .strict()
  .meta({ id: 'BffStatusResponse' });
export type BffStatusResponse = z.infer<typeof BffStatusResponse>;

/** Deprecated GET …/status/{reference}: the reference in the path. */
export const ReferencePathParams = z.object({ reference: ReferenceInput });

/** POST /appointments/status: the reference in the body, never in a URL. */
export const StatusLookupRequest = z.strictObject({ reference: ReferenceInput }).meta({ id: 'StatusLookupRequest' });
export type StatusLookupRequest = z.input<typeof StatusLookupRequest>;

/** GET /availability's query: the day, and optionally the dentist and the treatment (for its duration). */
export const AvailabilityQuery = z.strictObject({
  date: CalendarDate.meta({ description: "The day, YYYY-MM-DD, in the clinic's time zone: today up to 365 days ahead.", example: '2026-12-01' }),
  doctor_id: IdParam.optional().meta({
    description: 'A doctor_id from GET /dentists; without it, a slot is open while any dentist is not known to be booked then.',
  }),
  treatment_id: IdParam.optional().meta({
    description: 'A treatment_id from GET /treatments; its duration_minutes decides the last start that ends by closing.',
  }),
});
export type AvailabilityQuery = z.input<typeof AvailabilityQuery>;

export const SlotStatus = z.enum(SLOT_STATUSES).meta({
  description: 'taken: the BFF knows this start to be booked (for the dentist, or for every dentist); open: not known to be.',
});

export const AvailabilitySlot = z
  .object({ time: TimeOfDay.meta({ description: "Start time in the clinic's time zone, HH:MM.", example: '09:30' }), status: SlotStatus })
  .strict()
  .meta({ id: 'AvailabilitySlot' });
export type AvailabilitySlot = z.infer<typeof AvailabilitySlot>;

export const AvailabilityResponse = z
  .object({
    success: z.literal(true),
    best_known: z.literal(true).meta({
      description: 'Always true: availability is what the BFF has learnt, not the clinic diary. A booking made by phone can still take an open slot.',
    }),
    note: z.string().meta({ description: 'The same caveat in words, for people reading the answer.' }),
    data: z
      .object({
        date: CalendarDate,
        doctor_id: z.number().int().min(1).nullable(),
        treatment_id: z.number().int().min(1).nullable(),
        duration_minutes: z.number().int().min(1).nullable().meta({ description: "The treatment's length, null without a treatment." }),
        step_minutes: z.literal(SLOT_STEP_MINUTES).meta({ description: 'The grid of candidate starts, in minutes.' }),
        time_zone: z.string().meta({
          description: "The IANA zone the BFF takes as the clinic's (CLINIC_TIMEZONE): it decides today and which of today's times are past.",
          example: 'Europe/London',
        }),
        slots: z.array(AvailabilitySlot),
      })
      .strict(),
  })
  .strict()
  .meta({ id: 'AvailabilityResponse' });
export type AvailabilityResponse = z.infer<typeof AvailabilityResponse>;

/** A month, YYYY-MM. */
const CalendarMonth = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'must be a month in the form YYYY-MM');

export const AvailabilityDaysQuery = z.strictObject({
  month: CalendarMonth.meta({ description: "The month, YYYY-MM, in the clinic's time zone: this month up to the booking horizon.", example: '2026-12' }),
  doctor_id: IdParam.optional().meta({ description: 'A doctor_id from GET /dentists; without it, a start counts while any dentist is free for all of it.' }),
  treatment_id: IdParam.optional().meta({ description: "A treatment_id from GET /treatments; its duration_minutes is the appointment's length." }),
});
export type AvailabilityDaysQuery = z.input<typeof AvailabilityDaysQuery>;

export const AvailabilityDay = z
  .object({
    date: CalendarDate,
    open: z.number().int().min(0).meta({
      description: 'How many starts are open as best known: 0 when the clinic is closed, the day has passed or falls inside the notice or beyond the horizon, or every start is taken.',
    }),
  })
  .strict()
  .meta({ id: 'AvailabilityDay' });
export type AvailabilityDay = z.infer<typeof AvailabilityDay>;

export const AvailabilityDaysResponse = z
  .object({
    success: z.literal(true),
    best_known: z.literal(true),
    note: z.string(),
    data: z
      .object({
        month: CalendarMonth,
        doctor_id: z.number().int().min(1).nullable(),
        treatment_id: z.number().int().min(1).nullable(),
        time_zone: z.string(),
        days: z.array(AvailabilityDay).meta({ description: 'Every day of the month, in order.' }),
      })
      .strict(),
  })
  .strict()
  .meta({ id: 'AvailabilityDaysResponse' });
export type AvailabilityDaysResponse = z.infer<typeof AvailabilityDaysResponse>;

/**
 * GET /origin-check: yes or no for the asking page's origin (no list, no other origin), and a sentence
 * for the page's developer saying so, and, when no, which setting to change.
 */
export const OriginCheckResponse = z
  .object({
    success: z.literal(true),
    message: z.string().meta({
      description:
        "For the page's developer, in English (the widget logs it to the console when `allowed` is false): the request's " +
        'origin and, when it is refused, the setting that would allow it (`ALLOWED_ORIGINS`, or a site\'s `sites set-origins`).',
      example: "https://www.clinic.example is not in this BFF's ALLOWED_ORIGINS: add it there to use the widget on that page",
    }),
    data: z
      .object({
        allowed: z.boolean().meta({
          description:
            "Whether a page on the request's Origin may read this API's answers (CORS). A request without Origin " +
            '(same-origin, or not from a browser) is not subject to CORS: true.',
        }),
      })
      .strict(),
  })
  .strict()
  .meta({ id: 'OriginCheckResponse' });
export type OriginCheckResponse = z.infer<typeof OriginCheckResponse>;

/** The Idempotency-Key a browser sends with a booking, passed upstream as is. */
export const BookingIdempotencyKey = IdempotencyKeyHeader;

/**
 * Each read-only content resource: its path (under /api, and under the
 * upstream /api/v1 alike), its name and the schema of its answer. A treatment
 * by id is answered from the treatments' list, at `${path}/:id`.
 */
export const CONTENT_RESOURCES = {
  organization: { path: CONTENT_PATHS.organization, name: 'Organization', response: OrganizationResponse },
  website: { path: CONTENT_PATHS.website, name: 'Website', response: WebsiteResponse },
  treatments: { path: CONTENT_PATHS.treatments, name: 'Treatments', response: TreatmentListResponse },
  dentists: { path: CONTENT_PATHS.dentists, name: 'Dentists', response: DentistListResponse },
} as const;

/**
 * GET /content: the four content resources in one answer, each as its own
 * endpoint has it inside the spec's envelope (Organization's `data`, Website's
 * `site`, the lists' `data`), under keys named like the widget's sections.
 * One `{success, data}` envelope, as the spec's other answers: a client reads
 * `data` the way it reads any of them, and the keys are the resource names,
 * not the envelopes' (`site` rather than `website.site`). The organization's
 * `message` ("Organization retrieved") is left out: it describes an answer,
 * not the clinic. Beside `data`, `offers`: what this BFF offers the site's
 * patients (a confirmation e-mail), from the site's settings.
 */
export const ContentBundleResponse = z
  .object({
    success: z.literal(true),
    data: z
      .object({
        organization: OrganizationResponse.shape.data,
        site: WebsiteResponse.shape.site,
        treatments: TreatmentListResponse.shape.data,
        dentists: DentistListResponse.shape.data,
      })
      .strict(),
    offers: z
      .object({
        confirmation_email: z.boolean().meta({
          description:
            'The site can send the patient a confirmation and a reminder by e-mail: the booking form then offers it ' +
            '(BrowserBookingRequest.patient_email). False when the site has no mail relay or the BFF no PUBLIC_ORIGIN ' +
            "(the e-mail's unsubscribe link needs it).",
        }),
      })
      .strict()
      .meta({ description: "What the site's BFF offers patients beyond the clinic system: the site's settings, not the clinic's content." }),
  })
  .strict()
  .meta({ id: 'ContentBundleResponse' });
export type ContentBundleResponse = z.infer<typeof ContentBundleResponse>;

/** GET /openapi.json: an OpenAPI 3.1 document (this API's own), described only as far as clients need. */
export const OpenApiDocument = z
  .looseObject({
    openapi: z.string().meta({ example: '3.1.0' }),
    info: z.looseObject({ title: z.string(), version: z.string() }),
    paths: z.record(z.string(), z.unknown()),
  })
  .meta({ id: 'OpenApiDocument', description: 'An OpenAPI 3.1 document: the one describing this API.' });
