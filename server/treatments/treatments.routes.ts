import type { Router } from 'express';
import { TreatmentPathParams, type Treatment, type TreatmentListResponse, type TreatmentResponse } from '../../contract/index.js';
import { authenticatedClinic } from '../auth/authenticated-clinic.js';
import { notFound } from '../../contract/errors.js';
import { parseParams } from '../../platform/validation.js';
import { jsonSentOnce, sendJson } from '../../platform/send-json.js';
import type { TreatmentStore } from './treatment.store.js';

/** GET /treatments and GET /treatments/{id} (spec 2.4), on the API's router. */
export function addTreatmentRoutes(api: Router, treatments: TreatmentStore): void {
  // The list is kept while the database is unchanged, so its answer is serialised once.
  const sendList = jsonSentOnce((data: Treatment[]): TreatmentListResponse => ({ success: true, data }));
  api.get('/treatments', async (_req, res) => {
    sendList(res, await treatments.listActive(authenticatedClinic(res).careId));
  });
  api.get('/treatments/:id', async (req, res) => {
    const { id } = parseParams(TreatmentPathParams, req.params, 'Treatment');
    const treatment = await treatments.findActive(authenticatedClinic(res).careId, id);
    if (!treatment) throw notFound('Treatment');
    const body: TreatmentResponse = { success: true, data: treatment };
    sendJson(res, body);
  });
}
