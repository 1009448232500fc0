import type { RequestHandler } from 'express';
import type { AuthService } from './auth.service.js';

/** Spec 5.3: every endpoint but /granttoken needs x-app-key and a Bearer token of that key. */
export function requireAuth(auth: AuthService): RequestHandler {
  return async (req, res, next) => {
    res.locals.auth = await auth.authenticate(req.get('x-app-key'), req.get('authorization'));
    next();
  };
}
