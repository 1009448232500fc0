import { Router } from 'express';
import { TreatmentPathParams, type TreatmentListResponse, type TreatmentResponse } from '../../contract/index.js';
import { authenticatedClinic } from '../auth/authenticated-clinic.js';
import { notFound } from '../../contract/errors.js';
import { parseParams } from '../../platform/validation.js';
import { sendJson } from '../../platform/send-json.js';
import type { TreatmentStore } from './treatment.store.js';

/** GET /treatments and GET /treatments/{id} (spec 2.4). */
export function treatmentRoutes(treatments: TreatmentStore): Router {
  const router = Router();
  router.get('/', async (_req, res) => {
    const body: TreatmentListResponse = {
      success: true,
      data: await treatments.listActive(authenticatedClinic(res).careId),
    };
    sendJson(res, body);
  });
  router.get('/:id', async (req, res) => {
    const { id } = parseParams(TreatmentPathParams, req.params, 'Treatment');
    const treatment = await treatments.findActive(authenticatedClinic(res).careId, id);
    if (!treatment) throw notFound('Treatment');
    const body: TreatmentResponse = { success: true, data: treatment };
    sendJson(res, body);
  });
  return router;
}
