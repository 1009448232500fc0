import type { z } from 'zod';
import { CONTENT_RESOURCES } from '../../contract/bff.js';
import { parseBlankingUnsafeUrls } from './parse-upstream.js';
import { sanitizeDentist, sanitizeOrganization, sanitizeSite, sanitizeTreatment } from './sanitize.js';

/** The outcome of preparing an upstream success body for browsers. */
export type Prepared = { ok: true; body: unknown } | { ok: false };

/**
 * A read-only resource a browser may fetch: its name for messages, and how an
 * upstream success body becomes what browsers get (checked against the
 * contract, then sanitised). The cache holds resources of every type behind
 * this one interface; the types meet only inside defineResource.
 */
export interface ContentResource {
  readonly name: string;
  prepare(upstreamBody: unknown): Prepared;
}

/** A resource whose sanitiser receives exactly what its schema parsed. */
export function defineResource<S extends z.ZodType>(
  { name, response }: { name: string; response: S },
  sanitize: (body: z.output<S>) => z.output<S>,
): ContentResource {
  return {
    name,
    prepare(upstreamBody) {
      const parsed = parseBlankingUnsafeUrls(response, upstreamBody);
      return parsed.success ? { ok: true, body: sanitize(parsed.data) } : { ok: false };
    },
  };
}

export const ORGANIZATION = defineResource(CONTENT_RESOURCES.organization, (body) => ({
  ...body,
  data: sanitizeOrganization(body.data),
}));
export const WEBSITE = defineResource(CONTENT_RESOURCES.website, (body) => ({ ...body, site: sanitizeSite(body.site) }));
export const TREATMENTS = defineResource(CONTENT_RESOURCES.treatments, (body) => ({
  ...body,
  data: body.data.map(sanitizeTreatment),
}));
export const TREATMENT = defineResource(CONTENT_RESOURCES.treatment, (body) => ({ ...body, data: sanitizeTreatment(body.data) }));
export const DENTISTS = defineResource(CONTENT_RESOURCES.dentists, (body) => ({ ...body, data: body.data.map(sanitizeDentist) }));
