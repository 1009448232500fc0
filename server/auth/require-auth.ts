import type { RequestHandler } from 'express';
import type { AuthService } from './auth.service.js';

/** A repeated header Node keeps as a list (x-app-key is joined with ", ", as req.get() gives it). */
const header = (value: string | string[] | undefined) => (Array.isArray(value) ? value.join(', ') : value);

/** Spec 5.3: every endpoint but /granttoken needs x-app-key and a Bearer token of that key. */
export function requireAuth(auth: AuthService): RequestHandler {
  return async (req, res, next) => {
    // The headers as Node parsed them (req.get() would look them up case-insensitively again).
    res.locals.auth = await auth.authenticate(header(req.headers['x-app-key']), req.headers.authorization);
    next();
  };
}
