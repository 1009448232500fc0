import { DentistListResponse, type Dentist } from '../../contract/index.js';
import { operation } from '../../platform/operation.js';
import { jsonSentOnce } from '../../platform/fast-http/send-json.js';
import { authenticatedClinic } from '../auth/authenticated-clinic.js';
import { authenticated, authenticatedErrors, json } from '../http/answers.js';
import type { DentistStore } from './dentist.store.js';

/** GET /dentists (spec 2.5). */
export function dentistOperations(dentists: DentistStore) {
  // The list is kept while the database is unchanged, so its answer is serialised once.
  const sendList = jsonSentOnce((data: Dentist[]): DentistListResponse => ({ success: true, data }));
  return [
    operation({
      id: 'listDentists',
      method: 'get',
      path: '/dentists',
      docs: authenticated('Dentists', 'Dentists of the clinic'),
      responses: { '200': { description: 'Dentists.', ...json(DentistListResponse) }, ...authenticatedErrors },
      async handle(_input, _req, res) {
        sendList(res, await dentists.list(authenticatedClinic(res).careId));
      },
    }),
  ];
}
