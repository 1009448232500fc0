import type { Express } from 'express';
import { describe, expect, it } from 'vitest';
import { openApiPath, type AnyOperation } from '../../../platform/operation.js';
import { REFUSAL_REASONS } from '../../../contract/rules/bff-api.js';
import { startStack } from '../support/bff-harness.js';
import { operationsOf, type OpenApiOperation } from '../../server/docs/openapi-tools.js';

interface Schema {
  type?: string;
  required?: string[];
  additionalProperties?: unknown;
  properties?: Record<string, Schema>;
}
interface BffOpenApiDocument {
  openapi: string;
  info: { license?: Record<string, string>; contact?: Record<string, string> };
  servers: { url: string; variables?: Record<string, { default: string }> }[];
  security?: unknown[];
  paths: Record<string, Record<string, OpenApiOperation & { requestBody?: unknown }>>;
  components: {
    schemas: Record<string, Schema>;
    securitySchemes?: unknown;
    responses: Record<string, { headers?: Record<string, unknown> }>;
  };
}

const stack = await startStack();

const openApiUrl = () => `${stack.bff.api}/openapi.json`;

async function openApiDocument(): Promise<BffOpenApiDocument> {
  const res = await fetch(openApiUrl());
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  return (await res.json()) as BffOpenApiDocument;
}

/**
 * Every route of the BFF's /api, as its Express router holds them: each route
 * (method and path) and each operation of an operation table, written as
 * OpenAPI writes paths. Read from the router itself (router 2's layers: the
 * /api mount, its routes and handlers), so a route added outside the
 * operations shows too.
 */
function servedRoutes(app: Express): string[] {
  interface Layer {
    rawPath?: unknown;
    route?: { path: string; methods: Record<string, boolean> };
    handle: { stack?: Layer[]; operations?: readonly AnyOperation[] };
  }
  const mounts = (app as unknown as { router: { stack: Layer[] } }).router.stack;
  const api = mounts.find((layer) => layer.rawPath === '/api' && Array.isArray(layer.handle.stack));
  if (!api?.handle.stack) throw new Error('no router mounted at /api');
  return api.handle.stack.flatMap((layer) => {
    if (layer.route) {
      const { path, methods } = layer.route;
      return Object.keys(methods).filter((method) => methods[method]).map((method) => `${method.toUpperCase()} ${openApiPath(path)}`);
    }
    return (layer.handle.operations ?? []).map((op) => `${op.method.toUpperCase()} ${openApiPath(op.path)}`);
  });
}

const operation = (document: BffOpenApiDocument, method: string, path: string) => {
  const found = document.paths[path]?.[method];
  if (!found) throw new Error(`no ${method} ${path} in the document`);
  return found;
};
const statuses = (o: OpenApiOperation) => Object.keys(o.responses).sort();
const headerNames = (response: { headers?: Record<string, unknown> } | undefined) => Object.keys(response?.headers ?? {});

describe('GET /api/openapi.json', () => {
  it('is an OpenAPI 3.1.0 document', async () => {
    const document = await openApiDocument();

    expect(document.openapi).toBe('3.1.0');
  });

  it('describes exactly the routes the BFF serves under /api, as its router holds them', async () => {
    const document = await openApiDocument();

    const described = operationsOf(document).map(([method, path]) => `${method} ${path}`);

    expect(described.sort()).toEqual(servedRoutes(stack.bff.app).sort());
  });

  it('names every operation uniquely and tags it once', async () => {
    const document = await openApiDocument();

    const ids = operationsOf(document).map(([, , o]) => o.operationId);

    expect(ids.every((id) => typeof id === 'string' && id !== '')).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect(operationsOf(document).filter(([, , o]) => o.tags?.length !== 1)).toEqual([]);
  });

  it('describes only operations that answer: none is an unknown route to the running BFF', async () => {
    const document = await openApiDocument();

    const answers = await Promise.all(
      operationsOf(document).map(async ([method, path]) => {
        // Path parameters filled in with a value of their kind; a POST with an empty JSON object.
        const url = `${stack.bff.api}${path.replace('{id}', '1').replace('{reference}', 'K7QF-2M9X-PA4T-Z3RW-8HNC')}`;
        const res = await fetch(url, method === 'POST' ? { method, headers: { 'content-type': 'application/json' }, body: '{}' } : { method });
        const body = (await res.json()) as { message?: string };
        return [`${method} ${path}`, body.message === 'Route not found' ? 'unknown route' : 'answered'];
      }),
    );

    expect(answers.filter(([, outcome]) => outcome !== 'answered')).toEqual([]);
  });

  it('requires no credentials anywhere', async () => {
    const document = await openApiDocument();

    expect(document.security).toEqual([]);
    expect(document.components.securitySchemes).toBeUndefined();
    expect(operationsOf(document).filter(([, , o]) => o.security !== undefined)).toEqual([]);
  });

  it('declares ETag and Cache-Control on content answers, and their 304', async () => {
    const document = await openApiDocument();

    for (const path of ['/organization', '/website', '/treatments', '/treatments/{id}', '/dentists', '/content']) {
      const get = operation(document, 'get', path);
      expect(headerNames(get.responses['200']), path).toEqual(['ETag', 'Cache-Control']);
      expect(get.responses['304']?.$ref, path).toBe('#/components/responses/NotModified');
      expect(get.responses['503']?.$ref, path).toBe('#/components/responses/UpstreamBusy');
      expect(get.parameters?.map((p) => p.name), path).toContain('If-None-Match');
    }
    expect(headerNames(document.components.responses.NotModified)).toEqual(['ETag', 'Cache-Control']);
  });

  it('declares the id of /treatments/{id} as an integer from 1', async () => {
    const document = await openApiDocument();

    const [id] = operation(document, 'get', '/treatments/{id}').parameters?.filter((p) => p.in === 'path') ?? [];

    expect(id?.schema).toEqual(expect.objectContaining({ type: 'integer', minimum: 1 }));
  });

  it('declares the booking body, its optional Idempotency-Key and every answer', async () => {
    const document = await openApiDocument();

    const book = operation(document, 'post', '/appointments/book');

    expect(statuses(book)).toEqual(['200', '400', '409', '413', '415', '422', '429', '500', '502', '503', '504']);
    expect(JSON.stringify(book.responses['504'])).toContain('booking_outcome_unknown');
    expect(book.parameters).toEqual([expect.objectContaining({ in: 'header', name: 'Idempotency-Key' })]);
    expect(book.parameters?.[0]).not.toHaveProperty('required', true);
    const body = document.components.schemas.BrowserBookingRequest;
    expect(body?.required?.slice().sort()).toEqual(['appointment_date', 'appointment_time', 'patient_name', 'patient_phone']);
    expect(body?.additionalProperties).toBe(false);
    expect(Object.keys(body?.properties ?? {})).toContain('website');
    expect(Object.keys(document.components.schemas.BookingResult?.properties ?? {})).toEqual(['reference', 'doctor_id', 'booking_page_url']);
    expect(document.components.schemas.BookingResult?.required?.slice().sort()).toEqual(['doctor_id', 'reference']);
  });

  it('declares the change request: its body, its two successes, its refusals and its limits', async () => {
    const document = await openApiDocument();

    const change = operation(document, 'post', '/appointments/change-requests');

    expect(change.operationId).toBe('requestAppointmentChange');
    expect(change.tags).toEqual(['Appointments']);
    expect(statuses(change)).toEqual(['200', '201', '400', '404', '413', '415', '429', '500', '502', '503', '504']);
    expect(JSON.stringify(change.responses['400'])).toContain('inside_change_window');
    expect(JSON.stringify(change.responses['503'])).toContain('database_unavailable');
    expect(JSON.stringify(change)).toContain('CHANGE_RATE_LIMIT');
    const body = document.components.schemas.ChangeRequestBody;
    expect(body?.required?.slice().sort()).toEqual(['kind', 'reference']);
    expect(body?.additionalProperties).toBe(false);
    expect(Object.keys(body?.properties ?? {}).sort()).toEqual(['kind', 'message', 'preferred_starts', 'reference']);
    expect(Object.keys(document.components.schemas.ChangeRequestResult?.properties ?? {})).toEqual(['kind', 'requested_at', 'already_requested']);
    expect(Object.keys(document.components.schemas.BffStatusView?.properties ?? {})).toContain('changes');
  });

  it("answers every error with BffErrorBody, whose optional reason is one of the BFF's refusal codes", async () => {
    const document = await openApiDocument();

    const errorBody = document.components.schemas.BffErrorBody as Schema & { properties: Record<string, Schema & { enum?: unknown }> };
    const errorSchemas = operationsOf(document).flatMap(([, , o]) =>
      Object.entries(o.responses)
        .filter(([status]) => Number(status) >= 400)
        .map(([status, answer]) => [status, JSON.stringify(answer.$ref ? document.components.responses[answer.$ref.split('/').pop()!] : answer)]),
    );

    expect(errorBody.required?.slice().sort()).toEqual(['error_code', 'message', 'success']);
    expect(errorBody.properties.reason?.enum).toEqual([...REFUSAL_REASONS]);
    expect(errorSchemas.filter(([, answer]) => !answer!.includes('#/components/schemas/BffErrorBody'))).toEqual([]);
  });

  it('declares the status lookup with the reference in the body, never in the URL', async () => {
    const document = await openApiDocument();

    const lookUp = operation(document, 'post', '/appointments/status');

    expect(statuses(lookUp)).toEqual(['200', '400', '404', '413', '415', '429', '500', '502', '503', '504']);
    expect(lookUp.parameters ?? []).toEqual([]);
    expect(document.components.schemas.StatusLookupRequest?.required).toEqual(['reference']);
    expect(headerNames(lookUp.responses['200'])).toEqual(['Cache-Control']);
  });

  it('declares the GET status by reference deprecated, with its Deprecation, Sunset and Link headers', async () => {
    const document = await openApiDocument();

    const status = operation(document, 'get', '/appointments/status/{reference}') as OpenApiOperation & { deprecated?: boolean };

    expect(status.deprecated).toBe(true);
    expect(statuses(status)).toEqual(['200', '404', '429', '500', '502', '503', '504']);
    expect(status.parameters).toEqual([expect.objectContaining({ in: 'path', name: 'reference', required: true })]);
    expect(headerNames(status.responses['200'])).toEqual(['Cache-Control', 'Deprecation', 'Sunset', 'Link']);
  });

  it('declares availability as best known, never cached, with its query and 400', async () => {
    const document = await openApiDocument();

    const availability = operation(document, 'get', '/availability') as OpenApiOperation & { description?: string };

    expect(statuses(availability)).toEqual(['200', '400', '429', '500', '502', '503', '504']);
    expect(availability.parameters?.map((p) => [p.in, p.name, p.required ?? false])).toEqual([
      ['query', 'date', true],
      ['query', 'doctor_id', false],
      ['query', 'treatment_id', false],
    ]);
    expect(availability.description).toContain('by phone');
    expect(headerNames(availability.responses['200'])).toEqual(['Cache-Control']);
    expect(document.components.schemas.AvailabilityResponse?.required).toEqual(['success', 'best_known', 'note', 'data']);
  });

  it('declares the days at a glance as best known, never cached, with its query and 400', async () => {
    const document = await openApiDocument();

    const days = operation(document, 'get', '/availability/days') as OpenApiOperation & { description?: string };

    expect(statuses(days)).toEqual(['200', '400', '429', '500', '502', '503', '504']);
    expect(days.parameters?.map((p) => [p.in, p.name, p.required ?? false])).toEqual([
      ['query', 'month', true],
      ['query', 'doctor_id', false],
      ['query', 'treatment_id', false],
    ]);
    expect(days.description).toContain('no call to the clinic system');
    expect(headerNames(days.responses['200'])).toEqual(['Cache-Control']);
    expect(document.components.schemas.AvailabilityDaysResponse?.required).toEqual(['success', 'best_known', 'note', 'data']);
  });

  it('answers a 429 with Retry-After, RateLimit and RateLimit-Policy, and 500 on every operation', async () => {
    const document = await openApiDocument();

    for (const [method, path, o] of operationsOf(document)) {
      expect(o.responses['429']?.$ref, `${method} ${path}`).toBe('#/components/responses/RateLimited');
      expect(o.responses['500'], `${method} ${path}`).toBeDefined();
    }
    expect(headerNames(document.components.responses.RateLimited)).toEqual(['Retry-After', 'RateLimit', 'RateLimit-Policy']);
  });

  it('names an MIT licence, a contact, and an absolute server URL first', async () => {
    const { info, servers } = await openApiDocument();

    const [first] = servers;
    const url = (first?.url ?? '').replace(/\{(\w+)\}/g, (_m, name: string) => first?.variables?.[name]?.default ?? '');

    expect(info.license).toEqual(expect.objectContaining({ name: 'MIT', identifier: 'MIT' }));
    expect(info.contact?.name).toEqual(expect.any(String));
    expect(new URL(url).href).toBe('http://127.0.0.1:8080/api');
  });
});
