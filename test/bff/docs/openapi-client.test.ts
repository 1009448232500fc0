import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack } from '../support/bff-harness.js';
import { FakeClock, TEST_NOW } from '../../support/fake-clock.js';
import { generateClient, missingCalls, type GeneratedClient } from '../../server/docs/openapi-tools.js';
import { openSitesDatabase } from '../../../bff/sites/sites-database.js';
import { sitesTestDatabase } from '../sites/support/sites-test-database.js';

/**
 * What a browser app would write against the types openapi-typescript
 * generates from the BFF's document: every operation through openapi-fetch,
 * no credentials. The `@ts-expect-error` line proves a wrong call fails: it
 * would compile, and tsc report the unused directive, if the document
 * declared the treatment id as a string.
 */
const CLIENT = `import createClient from 'openapi-fetch';
import type { operations, paths } from './api.js';

/** Every operation is named, so generated clients get readable method names. */
export type NamedOperations = [
  operations['getOrganization'],
  operations['getWebsite'],
  operations['listTreatments'],
  operations['getTreatment'],
  operations['listDentists'],
  operations['getContent'],
  operations['bookAppointment'],
  operations['lookUpAppointmentStatus'],
  operations['getAppointmentStatus'],
  operations['getAvailability'],
  operations['getAvailabilityDays'],
  operations['getOpenApiDocument'],
  operations['getPicture'],
  operations['checkOrigin'],
  operations['requestAppointmentChange'],
];

export async function callEveryOperation(baseUrl: string) {
  const client = createClient<paths>({ baseUrl });
  const organization = await client.GET('/organization');
  const clinicName: string | undefined = organization.data?.data.name;
  const website = await client.GET('/website');
  const subtitle: string | undefined = website.data?.site.hero_subtitle;
  const treatments = await client.GET('/treatments');
  const etag: string | null = treatments.response.headers.get('etag');
  const firstTreatment: number = treatments.data?.data[0]?.treatment_id ?? 1;
  const treatment = await client.GET('/treatments/{id}', { params: { path: { id: firstTreatment } } });
  // @ts-expect-error a treatment id is an integer, not a string
  await client.GET('/treatments/{id}', { params: { path: { id: '1' } } });
  const dentists = await client.GET('/dentists');
  const content = await client.GET('/content');
  const bundled = content.data?.data;
  const sameContent =
    bundled?.organization.name === clinicName &&
    bundled?.site.hero_subtitle === subtitle &&
    bundled?.treatments.length === treatments.data?.data.length &&
    bundled?.dentists[0]?.doctor_id === dentists.data?.data[0]?.doctor_id;
  const firstDentist: number | undefined = dentists.data?.data[0]?.doctor_id;
  const availability = await client.GET('/availability', {
    params: { query: { date: '2026-11-24', doctor_id: firstDentist, treatment_id: firstTreatment } },
  });
  const slotStatus: 'open' | 'taken' | undefined = availability.data?.data.slots.find((slot) => slot.time === '11:00')?.status;
  const bestKnown: true | undefined = availability.data?.best_known;
  const month = await client.GET('/availability/days', { params: { query: { month: '2026-11', doctor_id: firstDentist } } });
  const openOnTuesday: number | undefined = month.data?.data.days.find((day) => day.date === '2026-11-24')?.open;
  const booked = await client.POST('/appointments/book', {
    params: { header: { 'Idempotency-Key': 'generated-bff-client-1' } },
    body: {
      patient_name: 'Jane Doe',
      patient_phone: '+44 7700 900123',
      appointment_date: '2026-11-24',
      appointment_time: '11:00',
      doctor_id: firstDentist,
      treatment_id: firstTreatment,
      website: '',
    },
  });
  if (!booked.data) throw new Error(booked.error?.message ?? 'not booked');
  const reference: string = booked.data.data.reference;
  const bookedDentist: number | null = booked.data.data.doctor_id;
  const status = await client.POST('/appointments/status', { body: { reference } });
  const cancelOpen: boolean | undefined = status.data?.data.changes?.can_request_cancel;
  const change = await client.POST('/appointments/change-requests', { body: { reference, kind: 'cancel' } });
  const changeKind: 'cancel' | 'move' | undefined = change.data?.data.kind;
  const deprecated = await client.GET('/appointments/status/{reference}', { params: { path: { reference } } });
  const unknown = await client.POST('/appointments/status', { body: { reference: 'not-a-reference' } });
  const unknownCode: string | undefined = unknown.error?.error_code;
  const after = await client.GET('/availability', { params: { query: { date: '2026-11-24', doctor_id: firstDentist } } });
  const described = await client.GET('/openapi.json');
  const documentVersion: string | undefined = described.data?.openapi;
  // A picture the content does not name (https://nope.example/x.png): 404, never fetched.
  const picture = await client.GET('/pictures/{key}', { params: { path: { key: 'aHR0cHM6Ly9ub3BlLmV4YW1wbGUveC5wbmc' } } });
  // Node's fetch sends no Origin: nothing for CORS to refuse.
  const originCheck = await client.GET('/origin-check');
  const originAllowed: boolean | undefined = originCheck.data?.data.allowed;

  return {
    clinicName,
    subtitle,
    etag: typeof etag,
    treatment: treatment.data?.data.treatment_name,
    booked: Object.keys(booked.data.data).sort(),
    status: status.data?.data.status,
    change: [cancelOpen, change.response.status, changeKind, change.data?.data.already_requested],
    deprecated: [deprecated.data?.data.status, deprecated.response.headers.has('deprecation')],
    unknown: [unknown.response.status, unknownCode],
    availability: [bestKnown, slotStatus, after.data?.data.slots.find((slot) => slot.time === '11:00')?.status],
    days: [month.data?.data.days.length, openOnTuesday],
    namesTheDentist: bookedDentist === firstDentist,
    sameContent,
    documentVersion,
    picture: [picture.response.status, picture.error?.error_code],
    originAllowed,
  };
}
`;

// The BFF's clock at the server's TEST_NOW, so 2026-11-24 stays a day ahead for availability (and for
// a change request: 26 hours ahead, outside the 24-hour change window). Its own database takes the request.
const bffDatabase = await sitesTestDatabase('sqlite');
const database = await openSitesDatabase(bffDatabase.url);
const stack = await startStack({ clock: new FakeClock(TEST_NOW), database });
let client: GeneratedClient;

beforeAll(async () => {
  client = await generateClient('bff', `${stack.bff.api}/openapi.json`, CLIENT);
});
afterAll(async () => {
  await client?.remove();
  await stack.close();
  await database.close();
  await bffDatabase.remove();
});

describe('a client generated from GET /api/openapi.json', () => {
  it('is written to call every operation of the document', async () => {
    const document = (await (await fetch(`${stack.bff.api}/openapi.json`)).json()) as Parameters<typeof missingCalls>[0];

    expect(missingCalls(document, CLIENT)).toEqual([]);
  });

  it('type-checks under strict tsc, with the wrong call refused', async () => {
    const { code, stdout, stderr } = await client.typecheck();

    expect(`${stdout}${stderr}`.trim()).toBe('');
    expect(code).toBe(0);
  }, 90_000);

  it('works against the running BFF', async () => {
    const { callEveryOperation } = (await import(pathToFileURL(client.clientFile).href)) as {
      callEveryOperation: (baseUrl: string) => Promise<Record<string, unknown>>;
    };

    const result = await callEveryOperation(stack.bff.api);

    expect(result).toEqual({
      clinicName: 'Test Dental',
      subtitle: expect.any(String),
      etag: 'string',
      treatment: expect.any(String),
      booked: ['doctor_id', 'reference'],
      status: 'Scheduled',
      change: [true, 201, 'cancel', false],
      deprecated: ['Scheduled', true],
      unknown: [404, 'not_found'],
      availability: [true, 'open', 'taken'],
      // Every day of November; Tuesday's 40 starts of 15 minutes, 08:00 to 17:45, all open before the booking.
      days: [30, 40],
      namesTheDentist: true,
      sameContent: true,
      documentVersion: '3.1.0',
      picture: [404, 'not_found'],
      originAllowed: true,
    });
  });
});
