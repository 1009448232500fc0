import { ApiError, AppointmentStatusResponse, ErrorBody, type ErrorCode } from '../../contract/index.js';
import { notFound } from '../../contract/errors.js';
import { STATUS_PATH } from '../../contract/rules/bff-api.js';
import type { UpstreamAnswer, UpstreamClient } from '../upstream/upstream-client.js';
import { UpstreamUnavailable } from '../upstream/errors.js';

/**
 * The status view of an appointment, as upstream answers it now (never
 * cached): what the status lookup shows and a change request is checked
 * against. Throws not_found when upstream knows no such appointment, the
 * refusal to relay (upstreamRefusal) for another answer, and
 * UpstreamUnavailable for one that does not match the contract.
 */
export async function readStatusView(upstream: UpstreamClient, appointmentId: number): Promise<AppointmentStatusResponse> {
  const answer = await upstream.call({ method: 'GET', path: `${STATUS_PATH}/${appointmentId}` });
  if (answer.status === 404) throw notFound('Booking');
  if (answer.status !== 200) throw upstreamRefusal(answer);
  const status = AppointmentStatusResponse.safeParse(answer.body);
  if (!status.success) throw new UpstreamUnavailable('server_error', 'upstream status answer did not match the contract');
  return status.data;
}

/**
 * Status codes whose upstream message helps the patient (it names the field or
 * rule). Not 429: upstream's rate limit is on the clinic's key, not on this
 * patient, so the client raises it as UpstreamBusy (503 upstream_busy).
 */
const RELAYED: Record<number, ErrorCode> = {
  400: 'validation_error',
  409: 'slot_unavailable',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  422: 'idempotency_key_reused',
};

/**
 * An upstream refusal rebuilt as a fresh spec error, with upstream's status:
 * only a known code and a bounded message pass, never the raw upstream body.
 * Anything else (an upstream 401 after the retry, 404 of a route) is a 502
 * (UpstreamUnavailable).
 */
export function upstreamRefusal(answer: UpstreamAnswer): ApiError | UpstreamUnavailable {
  const code = RELAYED[answer.status];
  const parsed = ErrorBody.safeParse(answer.body);
  if (!code || !parsed.success) return new UpstreamUnavailable('server_error', `upstream answered ${answer.status}`);
  return new ApiError(code, parsed.data.message.slice(0, 500));
}
