import type { z } from 'zod';
import { NOT_HTTP_URL } from '../../contract/index.js';

/**
 * Checks an upstream body against the contract. An upstream other than the
 * reference server may carry URL fields that are not http(s) (`javascript:`,
 * `www.example.com`); rather than refuse the whole resource, exactly those
 * fields are blanked and the body checked again. Any other mismatch fails.
 */
export function parseBlankingUnsafeUrls<S extends z.ZodType>(schema: S, body: unknown): z.ZodSafeParseResult<z.output<S>> {
  const first = schema.safeParse(body);
  if (first.success || !first.error.issues.every((issue) => issue.message === NOT_HTTP_URL)) return first;
  const repaired: unknown = structuredClone(body);
  for (const { path } of first.error.issues) setAt(repaired, path, '');
  return schema.safeParse(repaired);
}

function setAt(target: unknown, path: readonly PropertyKey[], value: unknown): void {
  let node = target as Record<PropertyKey, unknown>;
  for (const key of path.slice(0, -1)) node = node[key] as Record<PropertyKey, unknown>;
  node[path[path.length - 1]!] = value;
}
