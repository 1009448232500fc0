import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeDb, seedClinic, startTestServer, type SeededClinic, type TestServer } from '../support/test-server.js';
import { generateClient, missingCalls, type GeneratedClient } from './openapi-tools.js';

/**
 * A client written against the types openapi-typescript generates from the
 * served document, calling every operation with openapi-fetch. The one
 * `@ts-expect-error` proves a wrong call fails: if the document declared path
 * ids as strings, that line would compile and tsc would report the unused
 * directive.
 */
const CLIENT = `import createClient from 'openapi-fetch';
import type { operations, paths } from './api.js';

/** Every operation is named, so generated clients get readable method names. */
export type NamedOperations = [
  operations['grantToken'],
  operations['getOrganization'],
  operations['getWebsite'],
  operations['listTreatments'],
  operations['getTreatment'],
  operations['listDentists'],
  operations['bookAppointment'],
  operations['getAppointmentStatus'],
];

export async function callEveryOperation(baseUrl: string, appKey: string, secret: string) {
  const anonymous = createClient<paths>({ baseUrl });
  const granted = await anonymous.POST('/granttoken', { params: { header: { 'x-app-key': appKey, 'x-app-secret-key': secret } } });
  if (!granted.data) throw new Error(granted.error?.message ?? 'no token');
  const expiresIn: number = granted.data.expires_in;

  // x-app-key and the token are set once, for every later call.
  const client = createClient<paths>({
    baseUrl,
    headers: { 'x-app-key': appKey, authorization: \`Bearer \${granted.data.access_token}\` },
  });
  const organization = await client.GET('/organization');
  const doctors: number | undefined = organization.data?.data.statistics.total_doctors;
  const website = await client.GET('/website');
  const themePrimary: string | undefined = website.data?.site.theme_primary;
  const treatments = await client.GET('/treatments');
  const firstTreatment: number = treatments.data?.data[0]?.treatment_id ?? 1;
  const treatment = await client.GET('/treatments/{id}', { params: { path: { id: firstTreatment } } });
  // @ts-expect-error a path id is an integer, not a string
  await client.GET('/treatments/{id}', { params: { path: { id: '1' } } });
  const missing = await client.GET('/treatments/{id}', { params: { path: { id: 999_999 } } });
  const missingCode: string | undefined = missing.error?.error_code;
  const dentists = await client.GET('/dentists');
  const firstDentist: number | undefined = dentists.data?.data[0]?.doctor_id;
  const booked = await client.POST('/appointments/book', {
    params: { header: { 'idempotency-key': 'generated-client-1' } },
    body: {
      patient_name: 'Jane Doe',
      patient_phone: '+44 7700 900123',
      appointment_date: '2026-11-24',
      appointment_time: '10:00',
      doctor_id: firstDentist,
      treatment_id: firstTreatment,
    },
  });
  if (!booked.data) throw new Error(booked.error?.message ?? 'not booked');
  const appointmentId: number = booked.data.data.appointment_id;
  const status = await client.GET('/appointments/status/{id}', { params: { path: { id: appointmentId } } });
  const view: { status: string; date: string; time: string } | undefined = status.data?.data;

  return {
    expiresIn,
    doctors,
    themePrimary,
    treatment: treatment.data?.data.treatment_name,
    missing: [missing.response.status, missingCode],
    appointmentId,
    status: view,
  };
}
`;

let server: TestServer;
let clinic: SeededClinic;
let client: GeneratedClient;

beforeAll(async () => {
  server = await startTestServer();
  clinic = await seedClinic(server);
  client = await generateClient('api-v1', `${server.api}/openapi.json`, CLIENT);
});
afterAll(async () => {
  await client?.remove();
  await server.close();
  removeDb(server.dbPath);
});

describe('a client generated from GET /api/v1/openapi.json', () => {
  it('is written to call every operation of the document', async () => {
    const document = (await (await fetch(`${server.api}/openapi.json`)).json()) as Parameters<typeof missingCalls>[0];

    expect(missingCalls(document, CLIENT)).toEqual([]);
  });

  it('type-checks under strict tsc, with the wrong call refused', async () => {
    const { code, stdout, stderr } = await client.typecheck();

    expect(`${stdout}${stderr}`.trim()).toBe('');
    expect(code).toBe(0);
  }, 90_000);

  it('works against the running server', async () => {
    const { callEveryOperation } = (await import(pathToFileURL(client.clientFile).href)) as {
      callEveryOperation: (baseUrl: string, appKey: string, secret: string) => Promise<Record<string, unknown>>;
    };

    const result = await callEveryOperation(server.api, clinic.appKey, clinic.secret);

    expect(result).toEqual({
      expiresIn: 3600,
      doctors: 2,
      themePrimary: '#0f766e',
      treatment: expect.any(String),
      missing: [404, 'not_found'],
      appointmentId: expect.any(Number),
      status: { status: 'Scheduled', name: 'Jane Doe', date: '2026-11-24', time: '10:00' },
    });
  });
});
