import type { z } from 'zod';
import {
  DentistListResponse,
  OrganizationResponse,
  TreatmentListResponse,
  TreatmentResponse,
  WebsiteResponse,
} from '../../contract/index.js';
import { sanitizeDentist, sanitizeOrganization, sanitizeSite, sanitizeTreatment } from './sanitize.js';

/**
 * The read-only resources a browser may fetch: the upstream path, the schema
 * an upstream success must match, and how its body is made safe.
 */
export interface ContentResource {
  name: string;
  schema: z.ZodType;
  sanitize: (body: never) => unknown;
}

const resource = <S extends z.ZodType>(name: string, schema: S, sanitize: (body: z.output<S>) => z.output<S>) =>
  ({ name, schema, sanitize }) as ContentResource;

export const ORGANIZATION = resource('Organization', OrganizationResponse, (body) => ({
  ...body,
  data: sanitizeOrganization(body.data),
}));
export const WEBSITE = resource('Website', WebsiteResponse, (body) => ({ ...body, site: sanitizeSite(body.site) }));
export const TREATMENTS = resource('Treatments', TreatmentListResponse, (body) => ({
  ...body,
  data: body.data.map(sanitizeTreatment),
}));
export const TREATMENT = resource('Treatment', TreatmentResponse, (body) => ({ ...body, data: sanitizeTreatment(body.data) }));
export const DENTISTS = resource('Dentists', DentistListResponse, (body) => ({ ...body, data: body.data.map(sanitizeDentist) }));
