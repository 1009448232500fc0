import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Dentist, DentistListResponse } from '../../../contract/index.js';
import type { ClinicFile } from '../../../server/clinics/clinic-file.js';
import { clinicFixture } from '../support/clinic-fixture.js';
import {
  AUTH_FAILED,
  authenticatedCaller,
  removeDb,
  seedClinic,
  startTestServer,
  type Caller,
  type SeededClinic,
  type TestServer,
} from '../support/test-server.js';

/** A second clinic with one dentist of its own. */
function otherClinicFile(): ClinicFile {
  return {
    ...clinicFixture('Other Dental'),
    dentists: [
      {
        doctor_name: 'Dr Lena Berg',
        specialization: 'Periodontics',
        qualification: 'DDS',
        experience_years: 20,
        consultation_fee: '99.90',
        signature_image_url: '',
      },
    ],
  };
}

let server: TestServer;
let clinic: SeededClinic;
let caller: Caller;
let otherClinic: SeededClinic;

beforeAll(async () => {
  server = await startTestServer();
  clinic = await seedClinic(server);
  otherClinic = await seedClinic(server, otherClinicFile());
  caller = await authenticatedCaller(server, clinic);
});
afterAll(async () => {
  await server.close();
  removeDb(server.dbPath);
});

const doctorIdsOf = async (careId: number) =>
  (await server.db.selectFrom('dentists').select('doctor_id').where('care_id', '=', careId).orderBy('doctor_id').execute()).map(
    (row) => row.doctor_id,
  );
const dentistsOf = async (who: Caller) => DentistListResponse.parse(await (await who.get('/dentists')).json()).data;

describe('GET /dentists', () => {
  it('answers {success: true, data} parsing with the contract without any extra field', async () => {
    const res = await caller.get('/dentists');
    expect(res.status).toBe(200);
    const body = (await res.json()) as DentistListResponse;
    expect(DentistListResponse.parse(body)).toEqual(body);
    expect(Object.keys(body).sort()).toEqual(['data', 'success']);
  });

  it('lists every dentist of the clinic with every field as provisioned', async () => {
    const [ann, raj] = await doctorIdsOf(clinic.careId);
    const [annFile, rajFile] = clinicFixture().dentists;
    expect(await dentistsOf(caller)).toStrictEqual([
      { doctor_id: ann, ...annFile },
      { doctor_id: raj, ...rajFile },
    ]);
  });

  it('answers each dentist parsing as a Dentist', async () => {
    const dentists = await dentistsOf(caller);
    expect(dentists).toHaveLength(2);
    for (const dentist of dentists) expect(Dentist.parse(dentist)).toEqual(dentist);
  });

  it('answers consultation_fee as a string with exactly two decimals', async () => {
    const dentists = await dentistsOf(caller);
    expect(dentists.map((d) => d.consultation_fee)).toEqual(['45.00', '80.00']);
    for (const dentist of dentists) expect(dentist.consultation_fee).toMatch(/^\d+\.\d{2}$/);
  });

  it('never lists a dentist of another clinic', async () => {
    const foreign = await doctorIdsOf(otherClinic.careId);
    const dentists = await dentistsOf(caller);
    expect(dentists.map((d) => d.doctor_id).filter((id) => foreign.includes(id))).toEqual([]);
    expect(dentists.map((d) => d.doctor_name)).not.toContain('Dr Lena Berg');
  });

  it('answers another clinic only its own dentists', async () => {
    const [lena] = await doctorIdsOf(otherClinic.careId);
    const other = await authenticatedCaller(server, otherClinic);
    expect(await dentistsOf(other)).toStrictEqual([{ doctor_id: lena, ...otherClinicFile().dentists[0] }]);
  });

  it('answers 401 auth_failed without credentials', async () => {
    const res = await fetch(`${server.api}/dentists`);
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual(AUTH_FAILED);
  });
});
