import { createDocument, type ZodOpenApiObject } from 'zod-openapi';
import { z } from 'zod';
import { openApiPaths, type AnyOperation } from '../../platform/operation.js';
import { authenticatedErrors, credentials, errorAnswer, json, sharedAnswers, TAGS } from '../http/answers.js';
import { AccessTokenResponse, GrantTokenHeaders } from '../../contract/auth.js';
import { LIMITS } from '../../contract/rules/limits.js';
import { DEFAULT_BOOKING_RULES } from '../../contract/rules/booking-rules.js';
import { OrganizationResponse } from '../../contract/organization.js';
import { WebsiteResponse } from '../../contract/website.js';
import { DentistListResponse } from '../../contract/dentists.js';
import {
  AppointmentPathParams,
  AppointmentStatusResponse,
  BookAppointmentRequest,
  BookAppointmentResponse,
  IdempotencyKeyHeader,
} from '../../contract/appointments.js';

const responses = sharedAnswers;
const security = credentials;
const error = errorAnswer;
const tags = TAGS;
type Tag = (typeof tags)[number]['name'];
const tagged = (tag: Tag) => ({ tags: [tag] });

/**
 * The server URL. An absolute URL with a variable rather than one built from
 * the serving request: the document is generated once and sent with
 * `Cache-Control: public`, so a Host-derived URL would let a forged Host header
 * poison shared caches, and behind a proxy (trust proxy off) would name the wrong
 * scheme. Tools that need an absolute base (Prism, openapi-typescript, code
 * generators) resolve the variable's default, the address `npm start` listens on;
 * Swagger UI lets a reader edit it. The relative entry is the server that served
 * this document, for readers of the docs page on a deployment.
 */
const servers = [
  {
    url: '{origin}/api/v1',
    description: 'A Clinic Integration API server; by default the one `npm start` runs.',
    variables: {
      origin: {
        default: 'http://127.0.0.1:4000',
        description: 'Scheme, host and port of the server (its PUBLIC_URL).',
      },
    },
  },
  { url: '/api/v1', description: 'The server that served this document.' },
];

const document = {
  openapi: '3.1.0',
  info: {
    title: 'Clinic Integration REST API',
    version: '1.0.0',
    description:
      'Reference implementation of the Clinic Integration REST API v1. Exchange an app key and secret for a one-hour token at POST /granttoken, then send x-app-key and ' +
      'Authorization: Bearer <token> with every other request. Every error answer has the body ErrorBody.',
    license: { name: 'MIT', identifier: 'MIT' },
    contact: { name: 'clinic-booking maintainers' },
  },
  servers,
  tags: [...tags],
  // Every operation needs both headers; /granttoken alone opts out. Operations
  // restate it so each is self-describing in the UI and in generated clients.
  security,
  components: {
    securitySchemes: {
      appKey: {
        type: 'apiKey',
        in: 'header',
        name: 'x-app-key',
        description: 'The application key the access token was issued to (spec 5).',
      },
      bearer: {
        type: 'http',
        scheme: 'bearer',
        description: 'The access_token from POST /granttoken; it lives expires_in seconds (3600).',
      },
    },
  },
  paths: {
    '/granttoken': {
      post: {
        operationId: 'grantToken',
        ...tagged('Auth'),
        summary: 'Exchange an app key and secret for an access token',
        security: [],
        requestParams: { header: GrantTokenHeaders },
        responses: {
          '200': { description: 'A token valid for expires_in seconds.', ...json(AccessTokenResponse) },
          '401': error('auth_failed: unknown key, wrong secret or revoked key.'),
          '429': responses.rateLimited,
          '500': responses.internalError,
          '503': responses.unavailable,
        },
      },
    },
    '/organization': {
      get: {
        operationId: 'getOrganization',
        ...tagged('Organization'),
        summary: 'The clinic profile with live statistics',
        security,
        responses: { '200': { description: 'The organization.', ...json(OrganizationResponse) }, ...authenticatedErrors },
      },
    },
    '/website': {
      get: {
        operationId: 'getWebsite',
        ...tagged('Website'),
        summary: 'The website settings',
        security,
        responses: { '200': { description: 'The site object.', ...json(WebsiteResponse) }, ...authenticatedErrors },
      },
    },
    '/dentists': {
      get: {
        operationId: 'listDentists',
        ...tagged('Dentists'),
        summary: 'Dentists of the clinic',
        security,
        responses: { '200': { description: 'Dentists.', ...json(DentistListResponse) }, ...authenticatedErrors },
      },
    },
    '/appointments/book': {
      post: {
        operationId: 'bookAppointment',
        ...tagged('Appointments'),
        summary: 'Book an appointment',
        description:
          'Creates a Scheduled appointment. The date and time are clinic-local and must be in the future, ' +
          `at least the clinic's minimum notice ahead (min_notice_minutes, ${DEFAULT_BOOKING_RULES.minNoticeMinutes} unless set), ` +
          `within its horizon (horizon_days, ${DEFAULT_BOOKING_RULES.horizonDays} unless set), and inside that day's opening hours. ` +
          "The appointment holds its dentist for the treatment's duration_minutes, or without a treatment the clinic's " +
          `default length (${DEFAULT_BOOKING_RULES.defaultDurationMinutes} minutes unless set). ` +
          'An optional Idempotency-Key makes retries safe for 24 hours.',
        security,
        requestParams: {
          header: z.object({
            'idempotency-key': IdempotencyKeyHeader.optional().meta({
              description: 'Repeating a key with the same body replays the first answer; with another body it is 422.',
            }),
          }),
        },
        requestBody: { required: true, ...json(BookAppointmentRequest) },
        responses: {
          '200': { description: 'Booked.', ...json(BookAppointmentResponse) },
          '400': error('validation_error: the message names each bad field or broken rule.'),
          '409': error('slot_unavailable: the appointment would overlap a Scheduled appointment of that dentist.'),
          '413': error(`payload_too_large: body over ${LIMITS.requestBodyBytes} bytes.`),
          '415': error('unsupported_media_type: not sent as application/json.'),
          '422': error('idempotency_key_reused: the key was used with another body.'),
          ...authenticatedErrors,
        },
      },
    },
    '/appointments/status/{id}': {
      get: {
        operationId: 'getAppointmentStatus',
        ...tagged('Appointments'),
        summary: 'The status of an appointment',
        security,
        requestParams: { path: AppointmentPathParams },
        responses: {
          '200': { description: 'The status view.', ...json(AppointmentStatusResponse) },
          '404': error('not_found: no appointment of this clinic has that id.'),
          ...authenticatedErrors,
        },
      },
    },
  },
} satisfies ZodOpenApiObject;

/** The OpenAPI 3.1 document of /api/v1, generated from the contract's zod schemas. */
export function buildOpenApiDocument(operations: readonly AnyOperation[]) {
  return createDocument({ ...document, paths: { ...document.paths, ...openApiPaths(operations) } });
}
