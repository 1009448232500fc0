import type { Response } from 'express';
import type { TokenOwner } from './token.store.js';

/** The clinic (and key) the current request was authenticated for, set by requireAuth. */
export function authenticatedClinic(res: Response): TokenOwner {
  const owner = res.locals.auth as TokenOwner | undefined;
  if (!owner) throw new Error('authenticatedClinic() used on a route without requireAuth');
  return owner;
}
