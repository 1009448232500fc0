import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeDb, startTestServer, type TestServer } from '../support/test-server.js';
import { knownPaths } from '../../../server/http/allowed-methods.js';
import { openApiPath } from '../../../platform/operation.js';
import { operationsOf } from './openapi-tools.js';

interface Schema {
  type?: string;
  format?: string;
  pattern?: string;
  description?: string;
  minimum?: number;
  required?: string[];
  additionalProperties?: unknown;
  properties?: Record<string, Schema>;
}
interface Operation {
  operationId?: string;
  tags?: string[];
  security?: unknown[];
  parameters?: { name: string; in: string; schema?: Schema }[];
  responses: Record<string, { $ref?: string }>;
}
interface OpenApiDocument {
  openapi: string;
  tags: { name: string }[];
  info: { license?: Record<string, string>; contact?: Record<string, string> };
  servers: { url: string; variables?: Record<string, { default: string }> }[];
  security?: unknown[];
  paths: Record<string, Record<string, Operation>>;
  components: {
    schemas: Record<string, Schema>;
    securitySchemes: Record<string, Record<string, string>>;
    responses: Record<string, { headers?: Record<string, unknown> }>;
  };
}

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
  removeDb(server.dbPath);
});

const openApiUrl = () => `${server.api}/openapi.json`;
const docsUrl = () => `${server.api}/docs`;

async function openApiDocument(): Promise<OpenApiDocument> {
  const res = await fetch(openApiUrl());
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  return (await res.json()) as OpenApiDocument;
}

/** The docs page's own routes under /api/v1: they serve the document, it does not describe them. */
const DOCS_PAGE_PATHS = ['/openapi.json', '/docs', '/docs/init.js'];

/**
 * Every operation the app really serves under /api/v1, read from its router
 * (as the 405 check reads it), as `METHOD /path` in the document's form
 * (`/treatments/{id}`), without the HEAD that Express answers for each GET.
 */
function servedOperations(): string[] {
  return [...knownPaths(server.app.router)]
    .filter(([path]) => path.startsWith('/api/v1/'))
    .map(([path, methods]) => [path.slice('/api/v1'.length), methods] as const)
    .filter(([path]) => !DOCS_PAGE_PATHS.includes(path))
    .flatMap(([path, methods]) => methods.filter((method) => method !== 'HEAD').map((method) => `${method} ${openApiPath(path)}`))
    .sort();
}

/** Every src and href attribute value of an HTML page. */
function linkedUrls(html: string): string[] {
  return [...html.matchAll(/\b(?:src|href)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/gi)].map((m) => m[1] ?? m[2] ?? m[3] ?? '');
}

describe('GET /api/v1/openapi.json', () => {
  it('is an OpenAPI 3.1.0 document', async () => {
    const document = await openApiDocument();

    expect(document).toEqual(expect.objectContaining({ openapi: '3.1.0' }));
  });

  it('describes exactly the operations the app serves', async () => {
    const document = await openApiDocument();

    const described = operationsOf(document).map(([method, path]) => `${method} ${path}`);

    expect(servedOperations()).toContain('GET /treatments/{id}');
    expect(described.sort()).toEqual(servedOperations());
  });

  it('names the error, resource and booking schemas in components', async () => {
    const { components } = await openApiDocument();

    expect(Object.keys(components.schemas)).toEqual(
      expect.arrayContaining(['ErrorBody', 'Treatment', 'Dentist', 'Organization', 'WebsiteSite', 'BookAppointmentRequest']),
    );
  });

  it('requires the four booking fields and refuses unknown ones in BookAppointmentRequest', async () => {
    const { components } = await openApiDocument();

    const schema = components.schemas.BookAppointmentRequest;

    expect(schema?.required?.slice().sort()).toEqual(['appointment_date', 'appointment_time', 'patient_name', 'patient_phone']);
    expect(schema?.additionalProperties).toBe(false);
  });

  it('declares security on every operation except POST /granttoken', async () => {
    const { paths } = await openApiDocument();

    const operations = Object.entries(paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, operation]) => ({ path, method, secured: (operation.security?.length ?? 0) > 0 })),
    );

    expect(operations.filter((o) => !o.secured).map((o) => `${o.method} ${o.path}`)).toEqual(['post /granttoken']);
  });
});

describe('GET /api/v1/openapi.json for client generators', () => {
  it('names and tags every operation', async () => {
    const document = await openApiDocument();
    const tags = document.tags.map((tag) => tag.name);

    const named = operationsOf(document).map(([method, path, o]) => ({ operation: `${method} ${path}`, id: o.operationId, tags: o.tags }));

    expect(named.map((o) => o.operation).sort()).toEqual(servedOperations());
    for (const { operation, id, tags: tagged } of named) {
      expect(id, operation).toMatch(/^[a-z][A-Za-z]+$/);
      expect(tagged, operation).toEqual([expect.toSatisfy((tag: string) => tags.includes(tag))]);
    }
    expect(new Set(named.map((o) => o.id)).size).toBe(named.length);
  });

  it('requires x-app-key and the bearer token together by default, and nothing on /granttoken', async () => {
    const document = await openApiDocument();

    expect(document.security).toEqual([{ appKey: [], bearer: [] }]);
    expect(document.components.securitySchemes.appKey).toEqual(
      expect.objectContaining({ type: 'apiKey', in: 'header', name: 'x-app-key' }),
    );
    expect(document.components.securitySchemes.bearer).toEqual(expect.objectContaining({ type: 'http', scheme: 'bearer' }));
    expect(document.paths['/granttoken']?.post?.security).toEqual([]);
  });

  it('declares x-app-key as a parameter only on POST /granttoken, where it goes with the secret', async () => {
    const document = await openApiDocument();

    const withAppKey = operationsOf(document)
      .filter(([, , o]) => o.parameters?.some((p) => p.in === 'header' && p.name.toLowerCase() === 'x-app-key'))
      .map(([method, path]) => `${method} ${path}`);

    expect(withAppKey).toEqual(['POST /granttoken']);
  });

  it('declares path ids as integers from 1', async () => {
    const document = await openApiDocument();

    const ids = operationsOf(document).flatMap(([, , o]) => (o.parameters ?? []).filter((p) => p.in === 'path'));

    // One for each {id} of the paths served.
    expect(ids).toHaveLength(servedOperations().reduce((count, operation) => count + operation.split('{').length - 1, 0));
    expect(ids.length).toBeGreaterThan(0);
    for (const id of ids) expect(id.schema).toEqual(expect.objectContaining({ type: 'integer', minimum: 1 }));
  });

  it('describes appointment_date as a date and appointment_time as HH:MM', async () => {
    const { components } = await openApiDocument();

    const { appointment_date, appointment_time } = components.schemas.BookAppointmentRequest?.properties ?? {};

    expect(appointment_date).toEqual(expect.objectContaining({ type: 'string', format: 'date', description: expect.any(String) }));
    expect(appointment_time).toEqual(expect.objectContaining({ type: 'string', description: expect.any(String) }));
    const time = new RegExp(appointment_time?.pattern ?? '(?!)');
    expect(['00:00', '09:30', '23:59'].filter((t) => !time.test(t))).toEqual([]);
    expect(['24:00', '9:30', '09:60', '09:30:00'].filter((t) => time.test(t))).toEqual([]);
  });

  it('gives no integer a negative minimum', async () => {
    const text = await (await fetch(openApiUrl())).text();

    expect(text).not.toMatch(/"minimum":\s*-/);
  });

  it('starts ids at 1 and counts at 0', async () => {
    const { components } = await openApiDocument();
    const minimum = (schema: string, field: string) => components.schemas[schema]?.properties?.[field]?.minimum;

    expect(minimum('Treatment', 'treatment_id')).toBe(1);
    expect(minimum('Dentist', 'doctor_id')).toBe(1);
    expect(minimum('Organization', 'care_id')).toBe(1);
    expect(minimum('OrganizationStatistics', 'total_patients')).toBe(0);
  });

  it('answers 500 and a 429 with Retry-After, RateLimit and RateLimit-Policy on every operation', async () => {
    const document = await openApiDocument();

    for (const [method, path, operation] of operationsOf(document)) {
      expect(Object.keys(operation.responses), `${method} ${path}`).toEqual(expect.arrayContaining(['429', '500']));
      expect(operation.responses['429']?.$ref, `${method} ${path}`).toBe('#/components/responses/RateLimited');
    }
    expect(Object.keys(document.components.responses.RateLimited?.headers ?? {})).toEqual([
      'Retry-After',
      'RateLimit',
      'RateLimit-Policy',
    ]);
  });

  it('declares the 429 headers the server really sends', async () => {
    const limited = await startTestServer({ tokenFailureRateLimit: { limit: 1, windowMs: 60_000 } });
    try {
      const exchange = () => fetch(`${limited.api}/granttoken`, { method: 'POST' });
      await exchange();

      const res = await exchange();

      expect(res.status).toBe(429);
      const { components } = await openApiDocument();
      for (const name of Object.keys(components.responses.RateLimited?.headers ?? {})) {
        expect(res.headers.get(name), name).toEqual(expect.any(String));
      }
    } finally {
      await limited.close();
      removeDb(limited.dbPath);
    }
  });

  it('names an MIT licence and a contact', async () => {
    const { info } = await openApiDocument();

    expect(info.license).toEqual(expect.objectContaining({ name: 'MIT', identifier: 'MIT' }));
    expect(info.contact?.name).toEqual(expect.any(String));
  });

  it('lists first a server whose URL resolves to an absolute /api/v1 address', async () => {
    const { servers } = await openApiDocument();

    const [first] = servers;
    const url = (first?.url ?? '').replace(/\{(\w+)\}/g, (_m, name: string) => first?.variables?.[name]?.default ?? '');

    expect(new URL(url).href).toBe('http://127.0.0.1:4000/api/v1');
  });
});

describe('GET /api/v1/docs', () => {
  it('answers an HTML page', async () => {
    const res = await fetch(docsUrl());

    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await res.text()).toMatch(/<script\b[^>]*\bsrc=/i);
  });

  it('links scripts and stylesheets only by relative or same-origin URLs', async () => {
    const html = await (await fetch(docsUrl())).text();

    const urls = linkedUrls(html);

    expect(urls.length).toBeGreaterThan(0);
    expect(urls.filter((url) => /^(?:[a-z][a-z\d+.-]*:|\/\/)/i.test(url))).toEqual([]);
    for (const url of urls) expect(new URL(url, docsUrl()).origin).toBe(server.baseUrl);
  });

  it('serves every asset it links from this server with a non-empty body', async () => {
    const html = await (await fetch(docsUrl())).text();

    for (const url of linkedUrls(html)) {
      const res = await fetch(new URL(url, docsUrl()));
      expect(res.status, url).toBe(200);
      expect((await res.arrayBuffer()).byteLength, url).toBeGreaterThan(0);
    }
  });
});

describe('security headers', () => {
  it.each([
    ['the docs page', () => docsUrl()],
    ['openapi.json', () => openApiUrl()],
  ])('are set by helmet on %s', async (_name, url) => {
    const res = await fetch(url());

    expect(res.status).toBe(200);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toEqual(expect.stringContaining("default-src 'self'"));
    expect(res.headers.get('x-frame-options')).toBe('SAMEORIGIN');
  });
});
