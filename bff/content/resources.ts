import type { z } from 'zod';
import { CONTENT_RESOURCES, type ContentBundleResponse } from '../../contract/bff.js';
import type {
  DentistListResponse,
  OrganizationResponse,
  TreatmentListResponse,
  TreatmentResponse,
  WebsiteResponse,
} from '../../contract/index.js';
import { parseRepairingFields } from './parse-upstream.js';
import { sanitizeDentist, sanitizeOrganization, sanitizeSite, sanitizeTreatment } from './sanitize.js';

/** The outcome of preparing an upstream success body for browsers: the sanitised value. */
export type Prepared<T> = { ok: true; value: T } | { ok: false };

/**
 * A read-only resource a browser may fetch: its name for messages, its path
 * (the same under the BFF's /api and upstream's /api/v1, CONTENT_PATHS), the
 * schema of its answer, and how an upstream success body becomes what browsers get (checked against the
 * contract, then sanitised). The content cache keeps each resource under its
 * own path, so a path and a resource cannot be mismatched; the value types
 * meet only inside defineResource.
 */
export interface ContentResource<T = unknown> {
  readonly name: string;
  readonly path: string;
  /** The schema of its answer, as the contract gives it (for the OpenAPI document). */
  readonly response: z.ZodType;
  prepare(upstreamBody: unknown): Prepared<T>;
  /** A list's items by id, each its own answer's body (see defineResource); absent for a resource that is no list. */
  itemsOf?(value: T): ReadonlyMap<number, unknown>;
}

/** An answer made of several cached resources (GET /api/content): which, and how their values become one. */
export interface CombinedResource {
  /** Its key in the cache, apart from every resource's path. */
  readonly key: string;
  readonly parts: readonly ContentResource[];
  /** The combined value, from the parts' values in the order of `parts`. */
  combine(values: unknown[]): unknown;
}

/**
 * A resource whose sanitiser receives exactly what its schema parsed. A list
 * may name `itemsOf`: the answer body of each of its items by id, taken from
 * the sanitised list, so that an item is answered from the list's cached copy
 * and never asked upstream on its own.
 */
export function defineResource<S extends z.ZodType>(
  { name, path, response }: { name: string; path: string; response: S },
  sanitize: (body: z.output<S>) => z.output<S>,
  itemsOf?: (body: z.output<S>) => Iterable<readonly [number, unknown]>,
): ContentResource<z.output<S>> {
  return {
    name,
    path,
    response,
    prepare(upstreamBody) {
      const parsed = parseRepairingFields(response, upstreamBody);
      return parsed.success ? { ok: true, value: sanitize(parsed.data) } : { ok: false };
    },
    ...(itemsOf ? { itemsOf: (value: z.output<S>) => new Map(itemsOf(value)) } : {}),
  };
}

export const ORGANIZATION = defineResource(CONTENT_RESOURCES.organization, (body) => ({
  ...body,
  data: sanitizeOrganization(body.data),
}));
export const WEBSITE = defineResource(CONTENT_RESOURCES.website, (body) => ({ ...body, site: sanitizeSite(body.site) }));
/**
 * The treatments list, and each treatment by id as the spec's single answer
 * `{success, data}` (GET /api/treatments/:id). The list holds exactly the
 * treatments upstream answers by id (the active ones), so an id not in it is 404.
 */
export const TREATMENTS = defineResource(
  CONTENT_RESOURCES.treatments,
  (body) => ({ ...body, data: body.data.map(sanitizeTreatment) }),
  (body) => body.data.map((treatment) => [treatment.treatment_id, { success: true, data: treatment } satisfies TreatmentResponse] as const),
);
export const DENTISTS = defineResource(CONTENT_RESOURCES.dentists, (body) => ({ ...body, data: body.data.map(sanitizeDentist) }));

/** What a site's BFF offers its patients (ContentBundleResponse's `offers`): per site, from its settings. */
export type ContentOffers = ContentBundleResponse['offers'];

/**
 * GET /api/content (ContentBundleResponse): the four resources above in one
 * answer, from their own cached entries, and the site's offers. Their values
 * are the ones this BFF prepared, so they are what their types say. The offers
 * are the site's settings, fixed for its runtime (a database site's change
 * makes a new revision, so a new runtime): they are in the answer's key, so
 * that an answer built with other offers is never served for it.
 */
export function contentBundle(offers: ContentOffers): CombinedResource {
  return {
    key: `combined:content${offers.confirmation_email ? ':mail' : ''}`,
    parts: [ORGANIZATION, WEBSITE, TREATMENTS, DENTISTS],
    combine(values) {
      const [organization, website, treatments, dentists] = values as [
        OrganizationResponse,
        WebsiteResponse,
        TreatmentListResponse,
        DentistListResponse,
      ];
      return {
        success: true,
        data: { organization: organization.data, site: website.site, treatments: treatments.data, dentists: dentists.data },
        offers,
      } satisfies ContentBundleResponse;
    },
  };
}
