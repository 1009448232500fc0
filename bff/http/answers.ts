import { z } from 'zod';
import type { ZodOpenApiResponseObject } from 'zod-openapi';
import { BffErrorBody } from '../../contract/bff.js';
import { RateLimitHeaders, RetryAfterHeader } from '../../contract/headers.js';

/**
 * What the BFF's operations (content, booking, availability, docs) declare in
 * common for its OpenAPI document: the JSON content, the error body, the
 * answers many of them give, the headers they carry, and the tags. One object
 * each, since zod-openapi registers a shared answer or header by identity.
 */

/** A JSON answer or body of `schema`, as an OpenAPI content object. */
export const json = <S extends z.ZodType>(schema: S) => ({ content: { 'application/json': { schema } } });

/** An error answer: the BFF's error body, described by its codes. */
export const errorAnswer = (description: string): ZodOpenApiResponseObject => ({ description, ...json(BffErrorBody) });

/** What every content answer carries, so browsers and CDNs can cache and revalidate it. */
export const CacheHeaders = z.object({
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

/** What booking, status and availability answers carry. */
export const NoStore = z.object({
  'Cache-Control': z.literal('no-store').meta({
    description: 'Booking, status and availability answers are personal or change with every booking: never cached, by browsers or CDNs.',
    header: { id: 'NoStore' },
  }),
});

/** The request header of a content operation. */
export const IfNoneMatch = z.object({
  'If-None-Match': z
    .string()
    .optional()
    .meta({ description: 'The ETag of a copy the client holds; answered 304 while it is current.' }),
});

/** Answers shared by several operations, registered once under components.responses. */
export const sharedAnswers = {
  notModified: {
    description: 'Not modified: the copy with the ETag sent in If-None-Match is still current.',
    headers: CacheHeaders,
    id: 'NotModified',
  },
  rateLimited: {
    ...errorAnswer('rate_limited: too many requests from this IP under a policy; wait Retry-After seconds.'),
    headers: RateLimitHeaders,
    id: 'RateLimited',
  },
  internalError: { ...errorAnswer('internal_error: an unexpected failure, logged by the BFF.'), id: 'InternalError' },
  upstreamUnavailable: {
    ...errorAnswer('upstream_unavailable: the clinic system failed, refused the BFF or could not be reached.'),
    headers: z.object({ 'Retry-After': RetryAfterHeader }),
    id: 'UpstreamUnavailable',
  },
  upstreamBusy: {
    ...errorAnswer(
      'upstream_busy: the clinic system is busy (it answered 429 to this BFF), or the BFF has spent its budget of ' +
        'upstream reads for the minute and holds no copy to serve; try again after Retry-After seconds.',
    ),
    headers: z.object({ 'Retry-After': RetryAfterHeader }),
    id: 'UpstreamBusy',
  },
  upstreamTimeout: {
    ...errorAnswer('upstream_timeout: the clinic system did not answer in time.'),
    headers: z.object({ 'Retry-After': RetryAfterHeader }),
    id: 'UpstreamTimeout',
  },
} satisfies Record<string, ZodOpenApiResponseObject>;

/** The answers every operation that may ask the clinic system can give besides its own. */
export const commonErrors = {
  '429': sharedAnswers.rateLimited,
  '500': sharedAnswers.internalError,
  '502': sharedAnswers.upstreamUnavailable,
  '503': sharedAnswers.upstreamBusy,
  '504': sharedAnswers.upstreamTimeout,
};

/** The document's tags; each operation names its own. */
export const TAGS = [
  { name: 'Content', description: 'Read-only clinic content, with ETag and Cache-Control.' },
  { name: 'Appointments', description: 'Book an appointment and follow it by its reference.' },
  { name: 'Availability', description: 'Which start times of a day are open, as best known to the BFF.' },
  { name: 'Documentation', description: 'This document.' },
  { name: 'Embedding', description: 'Help for the page that embeds the widget.' },
] as const;

/** An operation's tag, by name. */
export const tagged = (tag: (typeof TAGS)[number]['name']) => ({ tags: [tag] });
