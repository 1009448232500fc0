import type { Router } from 'express';
import type { WebsiteResponse } from '../../contract/index.js';
import { authenticatedClinic } from '../auth/authenticated-clinic.js';
import { notFound } from '../../contract/errors.js';
import type { WebsiteStore } from './website.store.js';
import { sendJson } from '../../platform/send-json.js';

/** GET /website (spec 2.3), on the API's router: answers `site`, not `data`, as the spec says. */
export function addWebsiteRoutes(api: Router, websites: WebsiteStore): void {
  api.get('/website', async (_req, res) => {
    const site = await websites.site(authenticatedClinic(res).careId);
    if (!site) throw notFound('Website');
    const body: WebsiteResponse = { success: true, site };
    sendJson(res, body);
  });
}
