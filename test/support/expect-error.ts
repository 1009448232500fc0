import { expect } from 'vitest';
import { BffErrorBody } from '../../contract/bff.js';
import type { RefusalReason } from '../../contract/rules/bff-api.js';

/** The error code alone, or with the reason code of a booking the BFF refused itself. */
export type ExpectedError = string | { error_code: string; reason: RefusalReason };

/**
 * Asserts an error answer of the server or the BFF: its status, a body with
 * nothing on it but the spec's `{ success: false, message, error_code }` (so no
 * upstream detail rides along), the code, and a message that mentions each of
 * `mentions`. The BFF's `reason` must be there when expected and is refused
 * otherwise. Returns the body for further checks.
 */
export async function expectError(res: Response, status: number, expected: ExpectedError, ...mentions: string[]): Promise<BffErrorBody> {
  const { error_code, reason } = typeof expected === 'string' ? { error_code: expected, reason: undefined } : expected;
  expect(res.status).toBe(status);
  const body = BffErrorBody.parse(await res.json());
  expect(body).toEqual({ success: false, message: expect.any(String), error_code, ...(reason && { reason }) });
  for (const mention of mentions) expect(body.message).toContain(mention);
  return body;
}
