import { z } from 'zod';
import type { ZodOpenApiResponseObject } from 'zod-openapi';
import { ErrorBody } from '../../contract/common.js';
import { RateLimitHeaders, RetryAfterHeader } from '../../contract/headers.js';

/** A JSON answer or body of `schema`, as an OpenAPI content object. */
export const json = <S extends z.ZodType>(schema: S) => ({ content: { 'application/json': { schema } } });

/** An error answer: the spec's error body (2.7), described by its codes. */
export const errorAnswer = (description: string): ZodOpenApiResponseObject => ({ description, ...json(ErrorBody) });

/** Answers shared by several operations, registered once under components.responses. */
export const sharedAnswers = {
  unauthorized: {
    ...errorAnswer('auth_failed: missing, wrong, expired or revoked credentials.'),
    id: 'Unauthorized',
  },
  rateLimited: {
    ...errorAnswer('rate_limited: too many requests under this policy; wait Retry-After seconds.'),
    headers: RateLimitHeaders,
    id: 'RateLimited',
  },
  internalError: { ...errorAnswer('internal_error: an unexpected failure, logged by the server.'), id: 'InternalError' },
  unavailable: {
    ...errorAnswer(
      'database_unavailable: the database cannot be reached or did not answer in time (a restart, a failover); try again after ' +
        'Retry-After seconds, a booking with the same Idempotency-Key. storage_full: the database has no room for new data.',
    ),
    headers: z.object({ 'Retry-After': RetryAfterHeader.optional() }),
    id: 'ServiceUnavailable',
  },
} satisfies Record<string, ZodOpenApiResponseObject>;

/** The answers every authenticated operation can give besides its own. */
export const authenticatedErrors = {
  '401': sharedAnswers.unauthorized,
  '429': sharedAnswers.rateLimited,
  '500': sharedAnswers.internalError,
  '503': sharedAnswers.unavailable,
};

/** Every operation but the token exchange needs both credentials (spec 5.3). */
export const credentials = [{ appKey: [], bearer: [] }];

/** The document's tags, one per resource of the spec; each operation names its own. */
export const TAGS = [
  { name: 'Auth', description: 'Exchange the application key and secret for a one-hour access token (spec 5).' },
  { name: 'Organization', description: 'The clinic profile with live statistics (spec 2.2).' },
  { name: 'Website', description: 'The website settings of the clinic (spec 2.3).' },
  { name: 'Treatments', description: 'The active treatments of the clinic (spec 2.4).' },
  { name: 'Dentists', description: 'The dentists of the clinic (spec 2.5).' },
  { name: 'Appointments', description: 'Book an appointment and read its status (spec 2.6, 4.1).' },
] as const;

/** The OpenAPI text every authenticated operation of `tag` starts from. */
export const authenticated = (tag: (typeof TAGS)[number]['name'], summary: string) => ({ tags: [tag], summary, security: credentials });
