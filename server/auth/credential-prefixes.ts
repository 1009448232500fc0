import type { AnyOperation } from '../../platform/operation.js';

/** Whether an operation needs x-app-key and a token: its document's security, the document's own (both credentials) when it names none. */
const needsCredentials = (op: AnyOperation): boolean => op.docs.security === undefined || op.docs.security.length > 0;

/** `/appointments/status/:id` -> `/appointments`. */
const prefixOf = (path: string): string => `/${path.split('/')[1] ?? ''}`;

/**
 * The resource prefixes that authentication and the per-key limit guard: the
 * first path segment of every operation that needs credentials, as the
 * OpenAPI document says (so the document and the server cannot disagree).
 * One layer each for all of them, rather than one per operation: and under a
 * prefix, a path no operation answers is 401 without credentials, not 404, so
 * an unauthenticated client learns nothing of what exists.
 *
 * Throws when an operation without credentials (POST /granttoken) shares a
 * prefix with one that needs them: it would then be refused for want of them.
 */
export function credentialPrefixes(operations: readonly AnyOperation[]): string[] {
  const guarded = new Set(operations.filter(needsCredentials).map((op) => prefixOf(op.path)));
  const open = operations.filter((op) => !needsCredentials(op) && guarded.has(prefixOf(op.path)));
  if (open.length > 0) {
    throw new Error(`${open.map((op) => op.id).join(', ')} needs no credentials but shares its prefix with operations that do`);
  }
  return [...guarded];
}
