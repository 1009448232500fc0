/**
 * What a log line may say of an error of the BFF's database: its class and
 * code (SQLITE_BUSY, ECONNREFUSED, a PostgreSQL SQLSTATE), never its message
 * or detail, which may quote a value written (a patient's phone).
 */
export function databaseErrorOf(error: unknown): { type: string; code?: string } {
  if (!(error instanceof Error)) return { type: typeof error };
  const code = (error as { code?: unknown }).code;
  return { type: error.name, ...(typeof code === 'string' ? { code } : {}) };
}
