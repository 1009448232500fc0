import type { ChangeRequestBody, ChangeRequestResponse, ChangeRequestResult } from '../../contract/bff-changes.js';
import { CHANGE_REQUEST_PATH, normaliseReference } from '../../contract/rules/bff-api.js';
import { request } from '../api.js';

/**
 * POST /api/appointments/change-requests: a cancellation, or another time among up to three wished
 * starts. The reference goes in the body as the status lookup sends it (normalised), never in a URL.
 * A request of a kind already taken is answered as taken (`already_requested`), not refused.
 */
export async function requestChange(apiBase: string, body: ChangeRequestBody): Promise<ChangeRequestResult> {
  const answer = await request<ChangeRequestResponse>(`${apiBase}${CHANGE_REQUEST_PATH}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...body, reference: normaliseReference(body.reference) }),
  });
  return answer.data;
}
