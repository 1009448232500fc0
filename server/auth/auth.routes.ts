import type { RequestHandler } from 'express';
import { AccessTokenResponse, GrantTokenHeaders } from '../../contract/index.js';
import { operation } from '../../platform/operation.js';
import { errorAnswer, json, sharedAnswers } from '../http/answers.js';
import type { AuthService } from './auth.service.js';

/** POST /granttoken (spec 5.2), behind its own rate limits (tokenRateLimits), without credentials of course. */
export function authOperations(auth: AuthService, tokenRateLimits: RequestHandler[]) {
  return [
    operation({
      id: 'grantToken',
      method: 'post',
      path: '/granttoken',
      docs: { tags: ['Auth'], summary: 'Exchange an app key and secret for an access token', security: [] },
      request: { headers: GrantTokenHeaders },
      responses: {
        '200': { description: 'A token valid for expires_in seconds.', ...json(AccessTokenResponse) },
        '401': errorAnswer('auth_failed: unknown key, wrong secret or revoked key.'),
        '429': sharedAnswers.rateLimited,
        '500': sharedAnswers.internalError,
        '503': sharedAnswers.unavailable,
      },
      before: tokenRateLimits,
      async handle(_input, req, res) {
        res.set('Cache-Control', 'no-store');
        res.json(await auth.grantToken(req.get('x-app-key'), req.get('x-app-secret-key')));
      },
    }),
  ];
}
