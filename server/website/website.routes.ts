import { WebsiteResponse } from '../../contract/index.js';
import { notFound } from '../../contract/errors.js';
import { operation } from '../../platform/operation.js';
import { authenticatedClinic } from '../auth/authenticated-clinic.js';
import { authenticated, authenticatedErrors, json } from '../http/answers.js';
import type { WebsiteStore } from './website.store.js';

/** GET /website (spec 2.3): answers `site`, not `data`, as the spec says. */
export function websiteOperations(websites: WebsiteStore) {
  return [
    operation({
      id: 'getWebsite',
      method: 'get',
      path: '/website',
      docs: authenticated('Website', 'The website settings'),
      responses: { '200': { description: 'The site object.', ...json(WebsiteResponse) }, ...authenticatedErrors },
      async handle(_input, _req, res) {
        const site = await websites.site(authenticatedClinic(res).careId);
        if (!site) throw notFound('Website');
        const body: WebsiteResponse = { success: true, site };
        res.json(body);
      },
    }),
  ];
}
