import { OrganizationResponse } from '../../contract/index.js';
import { notFound } from '../../contract/errors.js';
import { operation } from '../../platform/operation.js';
import { authenticatedClinic } from '../auth/authenticated-clinic.js';
import { authenticated, authenticatedErrors, json } from '../http/answers.js';
import type { OrganizationStore } from './organization.store.js';

/** GET /organization (spec 2.2). */
export function organizationOperations(organizations: OrganizationStore) {
  return [
    operation({
      id: 'getOrganization',
      method: 'get',
      path: '/organization',
      docs: authenticated('Organization', 'The clinic profile with live statistics'),
      responses: { '200': { description: 'The organization.', ...json(OrganizationResponse) }, ...authenticatedErrors },
      async handle(_input, _req, res) {
        const data = await organizations.find(authenticatedClinic(res).careId);
        if (!data) throw notFound('Organization');
        const body: OrganizationResponse = { success: true, message: 'Organization retrieved successfully', data };
        res.json(body);
      },
    }),
  ];
}
