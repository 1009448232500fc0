import { Router } from 'express';
import type { Dentist, DentistListResponse } from '../../contract/index.js';
import { authenticatedClinic } from '../auth/authenticated-clinic.js';
import type { DentistStore } from './dentist.store.js';
import { jsonSentOnce } from '../../platform/send-json.js';

/** GET /dentists (spec 2.5). */
export function dentistRoutes(dentists: DentistStore): Router {
  const router = Router();
  // The list is kept while the database is unchanged, so its answer is serialised once.
  const sendList = jsonSentOnce((data: Dentist[]): DentistListResponse => ({ success: true, data }));
  router.get('/', async (_req, res) => {
    sendList(res, await dentists.list(authenticatedClinic(res).careId));
  });
  return router;
}
