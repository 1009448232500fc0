/**
 * An Error as it is logged: class, message and stack, nothing else. An error's
 * other fields may hold what must not be logged (body-parser's raw body, which
 * can quote a patient's name), so they are left out wherever an error is
 * logged.
 */
export function loggedError(error: Error): { type: string; message: string; stack?: string } {
  return { type: error.name, message: error.message, stack: error.stack };
}
