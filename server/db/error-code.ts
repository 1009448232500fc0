/**
 * The driver's code of a database error (better-sqlite3's `SQLITE_…`, pg's
 * SQLSTATE), or undefined for anything else: what the checks of transient,
 * unique-violation and refused-commit errors read.
 */
export function errorCodeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}
