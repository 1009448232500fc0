import type { Router } from 'express';
import type { OrganizationResponse } from '../../contract/index.js';
import { authenticatedClinic } from '../auth/authenticated-clinic.js';
import { notFound } from '../../contract/errors.js';
import type { OrganizationStore } from './organization.store.js';
import { sendJson } from '../../platform/send-json.js';

/** GET /organization (spec 2.2), on the API's router. */
export function addOrganizationRoutes(api: Router, organizations: OrganizationStore): void {
  api.get('/organization', async (_req, res) => {
    const data = await organizations.find(authenticatedClinic(res).careId);
    if (!data) throw notFound('Organization');
    const body: OrganizationResponse = { success: true, message: 'Organization retrieved successfully', data };
    sendJson(res, body);
  });
}
