import { z } from 'zod';

/** Retry-After on a 429, 502, 503 or 504: whole seconds to wait before trying again. */
export const RetryAfterHeader = z
  .int()
  .min(0)
  .meta({ description: 'Seconds to wait before trying again.', example: 5, header: { id: 'RetryAfter' } });

/**
 * The headers every 429 of both APIs carries: express-rate-limit's
 * standardHeaders 'draft-8' (IETF draft-ietf-httpapi-ratelimit-headers-08) and Retry-After.
 */
export const RateLimitHeaders = z.object({
  'Retry-After': RetryAfterHeader,
  RateLimit: z.string().meta({
    description: 'The quota left under the named policy: r = requests remaining, t = seconds until the window resets.',
    example: '"api"; r=0; t=42',
    header: { id: 'RateLimit' },
  }),
  'RateLimit-Policy': z.string().meta({
    description: 'The named policy: q = requests allowed per window, w = window in seconds, pk = partition key.',
    example: '"api"; q=600; w=60; pk=:Zjk0YTRjZjIyYjMx:',
    header: { id: 'RateLimitPolicy' },
  }),
});
