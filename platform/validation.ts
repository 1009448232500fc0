import type { z } from 'zod';
import { ApiError } from '../contract/errors.js';

/**
 * Turns zod issues into one sentence that names each bad field once,
 * e.g. "patient_name is required; appointment_time must be a time in the form HH:MM (24-hour)".
 */
export function describeIssues(issues: readonly z.core.$ZodIssue[]): string {
  const byField = new Map<string, string>();
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) byField.set(key, 'is not a known field');
      continue;
    }
    const field = issue.path.map(String).join('.');
    if (field === '') {
      byField.set('body', 'must be a JSON object');
      continue;
    }
    if (!byField.has(field)) byField.set(field, issue.message);
  }
  return [...byField].map(([field, problem]) => `${field} ${problem}`).join('; ');
}

/** Parses a request body; failures are 400 validation_error naming each field. */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const result = schema.safeParse(body);
  if (!result.success) throw new ApiError('validation_error', `Invalid request: ${describeIssues(result.error.issues)}`);
  return result.data;
}

/** Parses path parameters; a malformed identifier names nothing that exists, so it is 404. */
export function parseParams<S extends z.ZodType>(schema: S, params: unknown, what: string): z.output<S> {
  const result = schema.safeParse(params);
  if (!result.success) throw new ApiError('not_found', `${what} not found`);
  return result.data;
}

/** Parses query parameters; failures are 400 validation_error naming each bad parameter. */
export function parseQuery<S extends z.ZodType>(schema: S, query: unknown): z.output<S> {
  return parseBody(schema, { ...(query as object) });
}
