import { describe, expect, it } from 'vitest';
import {
  AppointmentStatusResponse,
  BookAppointmentResponse,
  DentistListResponse,
  OrganizationResponse,
  TreatmentListResponse,
  TreatmentResponse,
  WebsiteResponse,
} from '../../../contract/index.js';
import { MISSING_TOKEN, authenticatedCaller, seedClinic, validBooking } from '../support/test-server.js';
import { useTestServer } from '../support/use-test-server.js';

const ctx = useTestServer({
  setup: async (server) => {
    const clinic = await seedClinic(server);
    const caller = await authenticatedCaller(server, clinic);
    const treatment = await server.db
      .selectFrom('treatments')
      .select('treatment_id')
      .where('care_id', '=', clinic.careId)
      .where('active', '=', 1)
      .orderBy('treatment_id')
      .executeTakeFirstOrThrow();
    const booked = BookAppointmentResponse.parse(await (await caller.post('/appointments/book', validBooking())).json());
    return { caller, treatmentId: treatment.treatment_id, appointmentId: booked.data.appointment_id };
  },
});

interface Endpoint {
  /** The path below /api/v1, of a resource that exists for the clinic. */
  path: () => string;
  schema: { parse(body: unknown): unknown };
  /** The whole body as the spec gives it: exactly these keys, no more. */
  envelope: Record<string, unknown>;
}

const message = expect.any(String);
const object = expect.any(Object);
const list = expect.any(Array);

const endpoints: [string, Endpoint][] = [
  ['GET /organization', { path: () => '/organization', schema: OrganizationResponse, envelope: { success: true, message, data: object } }],
  ['GET /website', { path: () => '/website', schema: WebsiteResponse, envelope: { success: true, site: object } }],
  ['GET /treatments', { path: () => '/treatments', schema: TreatmentListResponse, envelope: { success: true, data: list } }],
  ['GET /treatments/{id}', { path: () => `/treatments/${ctx.treatmentId}`, schema: TreatmentResponse, envelope: { success: true, data: object } }],
  ['GET /dentists', { path: () => '/dentists', schema: DentistListResponse, envelope: { success: true, data: list } }],
  ['GET /appointments/status/{id}', { path: () => `/appointments/status/${ctx.appointmentId}`, schema: AppointmentStatusResponse, envelope: { success: true, message, data: object } }],
];

describe.each(endpoints)('%s', (_endpoint, { path, schema, envelope }) => {
  it(`answers 200 {${Object.keys(envelope).join(', ')}}, parsing with the contract without any extra field`, async () => {
    const res = await ctx.caller.get(path());
    expect(res.status).toBe(200);
    const body: unknown = await res.json();
    expect(schema.parse(body)).toEqual(body);
    expect(body).toStrictEqual(envelope);
  });

  it('answers 401 auth_failed without credentials, even for a resource that exists', async () => {
    const res = await fetch(`${ctx.server.api}${path()}`);
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual(MISSING_TOKEN);
  });
});
