import { Router, type RequestHandler } from 'express';
import type { AuthService } from './auth.service.js';

/** POST /granttoken (spec 5.2), behind its own rate limits (tokenRateLimits). */
export function authRoutes(auth: AuthService, tokenRateLimits: RequestHandler[]): Router {
  const router = Router();
  router.post('/granttoken', ...tokenRateLimits, async (req, res) => {
    res.set('Cache-Control', 'no-store');
    res.json(await auth.grantToken(req.get('x-app-key'), req.get('x-app-secret-key')));
  });
  return router;
}
