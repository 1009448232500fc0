import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeDb, startTestServer, type TestServer } from '../support/test-server.js';

interface Operation {
  security?: unknown[];
}
interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, { required?: string[]; additionalProperties?: unknown }> };
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

/** Every src and href attribute value of an HTML page. */
function linkedUrls(html: string): string[] {
  return [...html.matchAll(/\b(?:src|href)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/gi)].map((m) => m[1] ?? m[2] ?? m[3] ?? '');
}

describe('GET /api/v1/openapi.json', () => {
  it('is an OpenAPI 3.1.0 document', async () => {
    const document = await openApiDocument();

    expect(document).toEqual(expect.objectContaining({ openapi: '3.1.0' }));
  });

  it('describes exactly the eight operations of the API', async () => {
    const { paths } = await openApiDocument();

    const operations = Object.fromEntries(Object.entries(paths).map(([path, item]) => [path, Object.keys(item).sort()]));

    expect(operations).toEqual({
      '/granttoken': ['post'],
      '/organization': ['get'],
      '/website': ['get'],
      '/treatments': ['get'],
      '/treatments/{id}': ['get'],
      '/dentists': ['get'],
      '/appointments/book': ['post'],
      '/appointments/status/{id}': ['get'],
    });
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
