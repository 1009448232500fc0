import { describe, expect, it } from 'vitest';
import { Dentist, DentistListResponse } from '../../../contract/index.js';
import type { ClinicFile } from '../../../server/clinics/clinic-file.js';
import { clinicFixture } from '../support/clinic-fixture.js';
import { authenticatedCaller, type Caller } from '../support/test-server.js';
import { twoClinics, useTestServer } from '../support/use-test-server.js';

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

const ctx = useTestServer({ setup: twoClinics(otherClinicFile()) });

const doctorIdsOf = async (careId: number) =>
  (await ctx.server.db.selectFrom('dentists').select('doctor_id').where('care_id', '=', careId).orderBy('doctor_id').execute()).map(
    (row) => row.doctor_id,
  );
const dentistsOf = async (who: Caller) => DentistListResponse.parse(await (await who.get('/dentists')).json()).data;

describe('GET /dentists', () => {
  it('lists every dentist of the clinic with every field as provisioned', async () => {
    const [ann, raj] = await doctorIdsOf(ctx.clinic.careId);
    const [annFile, rajFile] = clinicFixture().dentists;
    expect(await dentistsOf(ctx.caller)).toStrictEqual([
      { doctor_id: ann, ...annFile },
      { doctor_id: raj, ...rajFile },
    ]);
  });

  it('answers each dentist parsing as a Dentist', async () => {
    const dentists = await dentistsOf(ctx.caller);
    expect(dentists).toHaveLength(2);
    for (const dentist of dentists) expect(Dentist.parse(dentist)).toEqual(dentist);
  });

  it('answers consultation_fee as a string with exactly two decimals', async () => {
    const dentists = await dentistsOf(ctx.caller);
    expect(dentists.map((d) => d.consultation_fee)).toEqual(['45.00', '80.00']);
    for (const dentist of dentists) expect(dentist.consultation_fee).toMatch(/^\d+\.\d{2}$/);
  });

  it('never lists a dentist of another clinic', async () => {
    const foreign = await doctorIdsOf(ctx.otherClinic.careId);
    const dentists = await dentistsOf(ctx.caller);
    expect(dentists.map((d) => d.doctor_id).filter((id) => foreign.includes(id))).toEqual([]);
    expect(dentists.map((d) => d.doctor_name)).not.toContain('Dr Lena Berg');
  });

  it('answers another clinic only its own dentists', async () => {
    const [lena] = await doctorIdsOf(ctx.otherClinic.careId);
    const other = await authenticatedCaller(ctx.server, ctx.otherClinic);
    expect(await dentistsOf(other)).toStrictEqual([{ doctor_id: lena, ...otherClinicFile().dentists[0] }]);
  });
});
