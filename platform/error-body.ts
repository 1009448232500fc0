import type { Response } from 'express';
import type { ErrorBody, ErrorCode } from '../contract/index.js';
import { ERROR_STATUS } from '../contract/index.js';

/** Sends the spec's error body (2.7) with the status that belongs to its code. */
export function sendError(res: Response, code: ErrorCode, message: string): void {
  const body: ErrorBody = { success: false, message, error_code: code };
  res.status(ERROR_STATUS[code]).json(body);
}
