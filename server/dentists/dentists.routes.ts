import type { Router } from 'express';
import type { Dentist, DentistListResponse } from '../../contract/index.js';
import { authenticatedClinic } from '../auth/authenticated-clinic.js';
import type { DentistStore } from './dentist.store.js';
import { jsonSentOnce } from '../../platform/send-json.js';

/** GET /dentists (spec 2.5), on the API's router. */
export function addDentistRoutes(api: Router, dentists: DentistStore): void {
  // The list is kept while the database is unchanged, so its answer is serialised once.
  const sendList = jsonSentOnce((data: Dentist[]): DentistListResponse => ({ success: true, data }));
  api.get('/dentists', async (_req, res) => {
    sendList(res, await dentists.list(authenticatedClinic(res).careId));
  });
}
