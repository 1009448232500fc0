import { errorCodeOf } from './error-code.js';

/**
 * A write the database refused because a unique index or key already holds
 * the value, from either engine. Stores that avoid the engine's error (an
 * insert with ON CONFLICT DO NOTHING, which keeps a PostgreSQL transaction
 * usable) throw this instead, so callers have one thing to recognise.
 */
export class UniqueViolation extends Error {
  readonly code = 'unique_violation';

  constructor(readonly constraint: string) {
    super(`unique constraint ${constraint} refused the write`);
  }
}

/** SQLite's extended result codes for a unique index and a primary key; PostgreSQL's SQLSTATE unique_violation. */
const UNIQUE_VIOLATION_CODES = new Set(['SQLITE_CONSTRAINT_UNIQUE', 'SQLITE_CONSTRAINT_PRIMARYKEY', '23505']);

/** True when `error` is a unique-constraint refusal from SQLite, PostgreSQL or a store (UniqueViolation). */
export function isUniqueViolation(error: unknown): boolean {
  if (error instanceof UniqueViolation) return true;
  const code = errorCodeOf(error);
  return code !== undefined && UNIQUE_VIOLATION_CODES.has(code);
}
