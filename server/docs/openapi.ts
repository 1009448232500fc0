import { createDocument } from 'zod-openapi';
import { z } from 'zod';
import { AccessTokenResponse, AuthenticatedHeaders, GrantTokenHeaders } from '../../contract/auth.js';
import { ErrorBody } from '../../contract/common.js';
import { LIMITS } from '../../contract/rules/limits.js';
import { OrganizationResponse } from '../../contract/organization.js';
import { WebsiteResponse } from '../../contract/website.js';
import { TreatmentListResponse, TreatmentPathParams, TreatmentResponse } from '../../contract/treatments.js';
import { DentistListResponse } from '../../contract/dentists.js';
import {
  AppointmentPathParams,
  AppointmentStatusResponse,
  BookAppointmentRequest,
  BookAppointmentResponse,
  IdempotencyKeyHeader,
} from '../../contract/appointments.js';

const json = <S extends z.ZodType>(schema: S) => ({ content: { 'application/json': { schema } } });
const error = (description: string) => ({ description, ...json(ErrorBody) });

const authErrors = {
  '401': error('auth_failed: missing, wrong, expired or revoked credentials.'),
  '429': error('rate_limited: too many requests for this app key; see Retry-After.'),
  '500': error('internal_error.'),
};
const secured = [{ appKey: [], bearer: [] }];
const idPath = (schema: z.ZodObject) => ({ path: schema.extend({ id: z.string().meta({ description: 'A positive integer.' }) }) });

/** The OpenAPI 3.1 document of /api/v1, generated from the contract's zod schemas. */
export function buildOpenApiDocument() {
  return createDocument({
    openapi: '3.1.0',
    info: {
      title: 'Clinic Integration REST API',
      version: '1.0.0',
      description:
        'Reference implementation of the Clinic Integration REST API v1. Exchange an app key and secret for a ' +
        'one-hour token at POST /granttoken, then send x-app-key and Authorization: Bearer <token> with every request.',
    },
    servers: [{ url: '/api/v1' }],
    components: {
      securitySchemes: {
        appKey: { type: 'apiKey', in: 'header', name: 'x-app-key' },
        bearer: { type: 'http', scheme: 'bearer' },
      },
    },
    paths: {
      '/granttoken': {
        post: {
          summary: 'Exchange an app key and secret for an access token',
          requestParams: { header: GrantTokenHeaders },
          responses: {
            '200': { description: 'A token valid for expires_in seconds.', ...json(AccessTokenResponse) },
            '401': error('auth_failed: unknown key, wrong secret or revoked key.'),
            '429': error('rate_limited: too many exchanges from this IP; see Retry-After.'),
          },
        },
      },
      '/organization': {
        get: {
          summary: 'The clinic profile with live statistics',
          security: secured,
          requestParams: { header: AuthenticatedHeaders },
          responses: { '200': { description: 'The organization.', ...json(OrganizationResponse) }, ...authErrors },
        },
      },
      '/website': {
        get: {
          summary: 'The website settings',
          security: secured,
          requestParams: { header: AuthenticatedHeaders },
          responses: { '200': { description: 'The site object.', ...json(WebsiteResponse) }, ...authErrors },
        },
      },
      '/treatments': {
        get: {
          summary: 'Active treatments of the clinic',
          security: secured,
          requestParams: { header: AuthenticatedHeaders },
          responses: { '200': { description: 'Active treatments.', ...json(TreatmentListResponse) }, ...authErrors },
        },
      },
      '/treatments/{id}': {
        get: {
          summary: 'One active treatment',
          security: secured,
          requestParams: { header: AuthenticatedHeaders, ...idPath(TreatmentPathParams) },
          responses: {
            '200': { description: 'The treatment.', ...json(TreatmentResponse) },
            '404': error('not_found: no active treatment of this clinic has that id.'),
            ...authErrors,
          },
        },
      },
      '/dentists': {
        get: {
          summary: 'Dentists of the clinic',
          security: secured,
          requestParams: { header: AuthenticatedHeaders },
          responses: { '200': { description: 'Dentists.', ...json(DentistListResponse) }, ...authErrors },
        },
      },
      '/appointments/book': {
        post: {
          summary: 'Book an appointment',
          description:
            'Creates a Scheduled appointment. The date and time are clinic-local and must be in the future, ' +
            `within ${LIMITS.bookingHorizonDays} days, and inside that day's opening hours. ` +
            'An optional Idempotency-Key makes retries safe for 24 hours.',
          security: secured,
          requestParams: {
            header: AuthenticatedHeaders.extend({
              'idempotency-key': IdempotencyKeyHeader.optional().meta({
                description: 'Repeating a key with the same body replays the first answer; with another body it is 422.',
              }),
            }),
          },
          requestBody: { required: true, ...json(BookAppointmentRequest) },
          responses: {
            '200': { description: 'Booked.', ...json(BookAppointmentResponse) },
            '400': error('validation_error: the message names each bad field or broken rule.'),
            '409': error('slot_unavailable: the dentist is already booked then.'),
            '413': error(`payload_too_large: body over ${LIMITS.requestBodyBytes} bytes.`),
            '415': error('unsupported_media_type: not sent as application/json.'),
            '422': error('idempotency_key_reused: the key was used with another body.'),
            ...authErrors,
          },
        },
      },
      '/appointments/status/{id}': {
        get: {
          summary: 'The status of an appointment',
          security: secured,
          requestParams: { header: AuthenticatedHeaders, ...idPath(AppointmentPathParams) },
          responses: {
            '200': { description: 'The status view.', ...json(AppointmentStatusResponse) },
            '404': error('not_found: no appointment of this clinic has that id.'),
            ...authErrors,
          },
        },
      },
    },
  });
}
