import { Router } from 'express';
import type { DentistListResponse } from '../../contract/index.js';
import { authenticatedClinic } from '../auth/authenticated-clinic.js';
import type { DentistStore } from './dentist.store.js';
import { sendJson } from '../../platform/send-json.js';

/** GET /dentists (spec 2.5). */
export function dentistRoutes(dentists: DentistStore): Router {
  const router = Router();
  router.get('/', async (_req, res) => {
    const body: DentistListResponse = { success: true, data: await dentists.list(authenticatedClinic(res).careId) };
    sendJson(res, body);
  });
  return router;
}
