import { createDocument, type ZodOpenApiObject, type ZodOpenApiOperationObject, type ZodOpenApiResponseObject } from 'zod-openapi';
import { z } from 'zod';
import { ErrorBody, TreatmentPathParams } from '../../contract/index.js';
import { RateLimitHeaders, RetryAfterHeader } from '../../contract/headers.js';
import {
  AVAILABILITY_PATH,
  AvailabilityQuery,
  AvailabilityResponse,
  BffBookingResponse,
  BffStatusResponse,
  BookingIdempotencyKey,
  BOOKING_PATH,
  BROWSER_BOOKING_MAX_BYTES,
  BrowserBookingRequest,
  CONTENT_BUNDLE_PATH,
  CONTENT_RESOURCES,
  ContentBundleResponse,
  HONEYPOT_FIELD,
  ReferencePathParams,
  STATUS_LOOKUP_MAX_BYTES,
  STATUS_LOOKUP_PATH,
  STATUS_PATH,
  StatusLookupRequest,
  type ContentResourceName,
} from '../../contract/bff.js';
import { STATUS_GET_SUNSET_AT } from '../booking/booking.routes.js';
import { AVAILABILITY_NOTE } from '../availability/availability.routes.js';

const json = <S extends z.ZodType>(schema: S) => ({ content: { 'application/json': { schema } } });
const error = (description: string): ZodOpenApiResponseObject => ({ description, ...json(ErrorBody) });

/** What every content answer carries, so browsers and CDNs can cache and revalidate it. */
const CacheHeaders = z.object({
  ETag: z.string().meta({
    description: 'Strong validator of this answer; send it back in If-None-Match to get a 304.',
    example: '"3q2-7wEjRkSEbQwdK0h4bE4aUqfZ3ZQ"',
    header: { id: 'ETag' },
  }),
  'Cache-Control': z.string().meta({
    description: 'How long browsers and shared caches may keep the answer, and serve it stale while revalidating or on errors.',
    example: 'public, max-age=60, stale-while-revalidate=60, stale-if-error=3600',
    header: { id: 'ContentCacheControl' },
  }),
});

const NoStore = z.object({
  'Cache-Control': z.literal('no-store').meta({
    description: 'Booking, status and availability answers are personal or change with every booking: never cached, by browsers or CDNs.',
    header: { id: 'NoStore' },
  }),
});

/** Answers shared by several operations, registered once under components.responses. */
const responses = {
  notModified: {
    description: 'Not modified: the copy with the ETag sent in If-None-Match is still current.',
    headers: CacheHeaders,
    id: 'NotModified',
  },
  rateLimited: {
    ...error('rate_limited: too many requests from this IP under a policy; wait Retry-After seconds.'),
    headers: RateLimitHeaders,
    id: 'RateLimited',
  },
  internalError: { ...error('internal_error: an unexpected failure, logged by the BFF.'), id: 'InternalError' },
  upstreamUnavailable: {
    ...error('upstream_unavailable: the clinic system failed, refused the BFF or could not be reached.'),
    headers: z.object({ 'Retry-After': RetryAfterHeader }),
    id: 'UpstreamUnavailable',
  },
  upstreamBusy: {
    ...error(
      'upstream_busy: the clinic system is busy (it answered 429 to this BFF), or the BFF has spent its budget of ' +
        'upstream reads for the minute and holds no copy to serve; try again after Retry-After seconds.',
    ),
    headers: z.object({ 'Retry-After': RetryAfterHeader }),
    id: 'UpstreamBusy',
  },
  upstreamTimeout: {
    ...error('upstream_timeout: the clinic system did not answer in time.'),
    headers: z.object({ 'Retry-After': RetryAfterHeader }),
    id: 'UpstreamTimeout',
  },
} satisfies Record<string, ZodOpenApiResponseObject>;

/** The answers every operation can give besides its own. */
const commonErrors = {
  '429': responses.rateLimited,
  '500': responses.internalError,
  '502': responses.upstreamUnavailable,
  '503': responses.upstreamBusy,
  '504': responses.upstreamTimeout,
};

/** What the deprecated GET status lookup adds to its answers. */
const DeprecationHeaders = z.object({
  Deprecation: z.string().meta({
    description: 'RFC 9745: this operation is deprecated (since the date, as @epoch-seconds); use POST /appointments/status.',
    example: '@1795305600',
    header: { id: 'Deprecation' },
  }),
  Sunset: z.string().meta({
    description: 'RFC 8594: after this date the operation may stop answering.',
    example: STATUS_GET_SUNSET_AT.toUTCString(),
    header: { id: 'Sunset' },
  }),
  Link: z.string().meta({
    description: 'The successor operation: rel="successor-version".',
    example: `</api${STATUS_LOOKUP_PATH}>; rel="successor-version"`,
    header: { id: 'SuccessorLink' },
  }),
});

const IfNoneMatch = z.object({
  'If-None-Match': z
    .string()
    .optional()
    .meta({ description: 'The ETag of a copy the client holds; answered 304 while it is current.' }),
});

/** Each content resource's operation, named for generated clients. */
const CONTENT_OPERATIONS: Record<ContentResourceName, { operationId: string; summary: string }> = {
  organization: { operationId: 'getOrganization', summary: 'The clinic profile with live statistics' },
  website: { operationId: 'getWebsite', summary: 'The website settings, HTML sanitised' },
  treatments: { operationId: 'listTreatments', summary: 'Active treatments of the clinic' },
  treatment: { operationId: 'getTreatment', summary: 'One active treatment' },
  dentists: { operationId: 'listDentists', summary: 'Dentists of the clinic' },
};

function contentOperation(name: ContentResourceName): ZodOpenApiOperationObject {
  const resource = CONTENT_RESOURCES[name];
  const byId = name === 'treatment';
  return {
    ...CONTENT_OPERATIONS[name],
    tags: ['Content'],
    description:
      'The clinic API answer, validated, with unsafe URLs blanked and HTML sanitised; cached by the BFF ' +
      'and served stale (within a bound) while the clinic system is down.',
    requestParams: byId ? { header: IfNoneMatch, path: TreatmentPathParams } : { header: IfNoneMatch },
    responses: {
      '200': { description: `The ${resource.name.toLowerCase()} answer.`, headers: CacheHeaders, ...json(resource.response) },
      '304': responses.notModified,
      ...(byId && {
        '404': { ...error('not_found: no active treatment of this clinic has that id.'), headers: CacheHeaders },
      }),
      ...commonErrors,
    },
  };
}

const contentPaths = Object.fromEntries(
  (Object.keys(CONTENT_RESOURCES) as ContentResourceName[]).map((name) => [
    CONTENT_RESOURCES[name].path,
    { get: contentOperation(name) },
  ]),
);

/** GET /content: the four content resources in one round trip. */
const contentBundleOperation: ZodOpenApiOperationObject = {
  operationId: 'getContent',
  tags: ['Content'],
  summary: 'The organization, website, treatments and dentists in one answer',
  description:
    'The four content answers in one round trip, under one ETag: each as its own operation answers it, unwrapped ' +
    "from its envelope (getOrganization's data, getWebsite's site, the lists' data). Built from the same cached " +
    'copies as those operations, so it costs no upstream call of its own and is never newer or older than they are.',
  requestParams: { header: IfNoneMatch },
  responses: {
    '200': { description: 'The clinic content.', headers: CacheHeaders, ...json(ContentBundleResponse) },
    '304': responses.notModified,
    '404': { ...error('not_found: the clinic system has no organization or website for this clinic.'), headers: CacheHeaders },
    ...commonErrors,
  },
};

/**
 * The server URL: an absolute URL with a variable, not one built from the
 * serving request, for the reasons given in server/docs/openapi.ts (a cached,
 * static document; no Host header trusted). Its default is where `npm start`
 * runs the BFF; the relative entry is the BFF that served this document.
 */
const servers = [
  {
    url: '{origin}/api',
    description: 'A clinic-booking BFF; by default the one `npm start` runs.',
    variables: {
      origin: { default: 'http://127.0.0.1:8080', description: 'Scheme, host and port of the BFF.' },
    },
  },
  { url: '/api', description: 'The BFF that served this document.' },
];

const document = {
  openapi: '3.1.0',
  info: {
    title: 'Clinic booking BFF API',
    version: '1.0.0',
    description:
      'The public API the <clinic-booking> widget calls: the clinic API v1 content, sanitised and cached, and booking ' +
      'with an opaque reference instead of the sequential appointment_id. Public: no credentials; CORS ' +
      'limits which sites may call it from a browser. Every error answer has the body ErrorBody.',
    license: { name: 'MIT', identifier: 'MIT' },
    contact: { name: 'clinic-booking maintainers' },
  },
  servers,
  tags: [
    { name: 'Content', description: 'Read-only clinic content, with ETag and Cache-Control.' },
    { name: 'Appointments', description: 'Book an appointment and follow it by its reference.' },
    { name: 'Availability', description: 'Which start times of a day are open, as best known to the BFF.' },
  ],
  // Public: the BFF holds the clinic API credentials, browsers send none.
  security: [],
  paths: {
    ...contentPaths,
    [CONTENT_BUNDLE_PATH]: { get: contentBundleOperation },
    [BOOKING_PATH]: {
      post: {
        operationId: 'bookAppointment',
        tags: ['Appointments'],
        summary: 'Book an appointment',
        description:
          `The clinic API booking body plus the honeypot field "${HONEYPOT_FIELD}", which must stay empty; ` +
          'the answer adds a reference to follow the booking by. An optional Idempotency-Key is passed on, ' +
          'so a retry with the same key and body replays the first answer.',
        requestParams: {
          header: z.object({
            'Idempotency-Key': BookingIdempotencyKey.optional().meta({
              description: 'Repeating a key with the same body replays the first answer; with another body it is 422.',
            }),
          }),
        },
        requestBody: { required: true, ...json(BrowserBookingRequest) },
        responses: {
          '200': {
            description: "Booked: the reference to follow it by and the dentist booked (never the clinic API's appointment_id).",
            headers: NoStore,
            ...json(BffBookingResponse),
          },
          '400': error('validation_error: the message names each bad field or broken rule.'),
          '409': error('slot_unavailable: the dentist is already booked then.'),
          '413': error(`payload_too_large: body over ${BROWSER_BOOKING_MAX_BYTES} bytes.`),
          '415': error('unsupported_media_type: not sent as application/json.'),
          '422': error('idempotency_key_reused: the key was used with another body.'),
          ...commonErrors,
          '504': {
            ...error(
              'booking_outcome_unknown: the booking was sent but the clinic system did not confirm it in time, so it ' +
                'may or may not have been made. Send the same body again with the same Idempotency-Key: the answer is ' +
                'then the first booking, never a second one.',
            ),
            headers: z.object({ 'Retry-After': RetryAfterHeader }),
          },
        },
      },
    },
    [STATUS_LOOKUP_PATH]: {
      post: {
        operationId: 'lookUpAppointmentStatus',
        tags: ['Appointments'],
        summary: 'The status of a booking by its reference',
        description:
          'The reference travels in the body, never in a URL, so no proxy, CDN or browser history records it. It is read ' +
          'in any case, with or without dashes or spaces, I and L as 1 and O as 0. A tampered or made-up reference is ' +
          '404 without asking the clinic system. Limited per client IP (STATUS_RATE_LIMIT, 30 in 10 minutes by default).',
        requestBody: { required: true, ...json(StatusLookupRequest) },
        responses: {
          '200': { description: 'The status view.', headers: NoStore, ...json(BffStatusResponse) },
          '400': error('validation_error: the body is not {reference} with a string.'),
          '404': error('not_found: no booking has that reference.'),
          '413': error(`payload_too_large: body over ${STATUS_LOOKUP_MAX_BYTES} bytes.`),
          '415': error('unsupported_media_type: not sent as application/json.'),
          ...commonErrors,
        },
      },
    },
    [`${STATUS_PATH}/{reference}`]: {
      get: {
        operationId: 'getAppointmentStatus',
        tags: ['Appointments'],
        summary: 'The status of a booking by its reference (deprecated)',
        description:
          `Deprecated: the reference in the URL is recorded by proxies, CDNs and browser history. Use POST ${STATUS_LOOKUP_PATH}; ` +
          `this answers until ${STATUS_GET_SUNSET_AT.toISOString().slice(0, 10)} (the Sunset header), under the same per-IP limit.`,
        deprecated: true,
        requestParams: { path: ReferencePathParams },
        responses: {
          '200': { description: 'The status view.', headers: NoStore.extend(DeprecationHeaders.shape), ...json(BffStatusResponse) },
          '404': { ...error('not_found: no booking has that reference.'), headers: DeprecationHeaders },
          ...commonErrors,
        },
      },
    },
    [AVAILABILITY_PATH]: {
      get: {
        operationId: 'getAvailability',
        tags: ['Availability'],
        summary: "A day's start times, each open or taken, as best known",
        description:
          "The day's candidate starts every 15 minutes, from opening to the last start that ends by closing (with the " +
          "treatment's duration, else 15 minutes), from the cached opening hours; on today's date only those still " +
          "ahead in the clinic's time zone (CLINIC_TIMEZONE). Best known, not the clinic diary: " +
          `${AVAILABILITY_NOTE} Without doctor_id a start is taken only when every dentist is known to be booked then; ` +
          'a booking without doctor_id gets the first dentist free. Never cached.',
        requestParams: { query: AvailabilityQuery },
        responses: {
          '200': { description: "The day's slots.", headers: NoStore, ...json(AvailabilityResponse) },
          '400': error(
            'validation_error: a date that is not YYYY-MM-DD, before today or more than 365 days ahead; a doctor_id that ' +
              'is not a dentist of the clinic; a treatment_id that is not an active treatment; an unknown query parameter.',
          ),
          ...commonErrors,
        },
      },
    },
  },
} satisfies ZodOpenApiObject;

/** The OpenAPI 3.1 document of the BFF's /api, generated from contract/bff.ts. */
export function buildBffOpenApiDocument() {
  return createDocument(document);
}
