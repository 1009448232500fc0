import type { Logger } from 'pino';
import { UpstreamUnavailable } from './errors.js';

/**
 * How every upstream call is fetched: a 3xx is an answer, never followed.
 * fetch follows redirects by default, and a followed redirect would carry the
 * app secret (the token exchange), the bearer token and the patient's name and
 * phone (a booking) to wherever upstream, or whoever answers in its place,
 * points.
 */
export const NO_REDIRECTS = { redirect: 'manual' } as const satisfies RequestInit;

/**
 * Refuses an upstream 3xx as UpstreamUnavailable('redirect') (502
 * upstream_unavailable), after a warning with its status: nothing of its
 * headers (Location names where it pointed, which may carry anything) and
 * nothing of the request. Its body is dropped unread.
 */
export async function refuseRedirect(res: Response, logger: Logger | undefined, call: 'token exchange' | 'api call'): Promise<void> {
  if (res.status < 300 || res.status > 399) return;
  await res.body?.cancel();
  logger?.warn({ upstream: 'redirect', status: res.status, call }, 'upstream answered a redirect; not followed');
  throw new UpstreamUnavailable('redirect', `upstream answered ${res.status}`);
}
