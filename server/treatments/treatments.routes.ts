import {
  TreatmentListResponse,
  TreatmentPathParams,
  TreatmentResponse,
  type Treatment,
} from '../../contract/index.js';
import { notFound } from '../../contract/errors.js';
import { operation } from '../../platform/operation.js';
import { jsonSentOnce } from '../../platform/fast-http/send-json.js';
import { authenticatedClinic } from '../auth/authenticated-clinic.js';
import { authenticated, authenticatedErrors, errorAnswer, json } from '../http/answers.js';
import type { TreatmentStore } from './treatment.store.js';

/** GET /treatments and GET /treatments/{id} (spec 2.4). */
export function treatmentOperations(treatments: TreatmentStore) {
  // The list is kept while the database is unchanged, so its answer is serialised once.
  const sendList = jsonSentOnce((data: Treatment[]): TreatmentListResponse => ({ success: true, data }));
  return [
    operation({
      id: 'listTreatments',
      method: 'get',
      path: '/treatments',
      docs: authenticated('Treatments', 'Active treatments of the clinic'),
      responses: { '200': { description: 'Active treatments.', ...json(TreatmentListResponse) }, ...authenticatedErrors },
      async handle(_input, _req, res) {
        sendList(res, await treatments.listActive(authenticatedClinic(res).careId));
      },
    }),
    operation({
      id: 'getTreatment',
      method: 'get',
      path: '/treatments/:id',
      docs: authenticated('Treatments', 'One active treatment'),
      request: { params: TreatmentPathParams, notFound: 'Treatment' },
      responses: {
        '200': { description: 'The treatment.', ...json(TreatmentResponse) },
        '404': errorAnswer('not_found: no active treatment of this clinic has that id.'),
        ...authenticatedErrors,
      },
      async handle({ params }, _req, res) {
        const treatment = await treatments.findActive(authenticatedClinic(res).careId, params.id);
        if (!treatment) throw notFound('Treatment');
        const body: TreatmentResponse = { success: true, data: treatment };
        res.json(body);
      },
    }),
  ];
}
