import { describe, expect, it } from 'vitest';
import { ErrorBody, Treatment, TreatmentListResponse } from '../../../contract/index.js';
import { twoClinics, useTestServer } from '../support/use-test-server.js';

// twoClinics seeds this clinic first, so its treatments have the ids 1, 2 and 3.
const ctx = useTestServer({ setup: twoClinics() });

/** The clinic's treatment ids in id order: Check-up, Whitening (both active), Old treatment (inactive). */
const treatmentIdsOf = async (careId: number) =>
  (await ctx.server.db.selectFrom('treatments').select('treatment_id').where('care_id', '=', careId).orderBy('treatment_id').execute()).map(
    (row) => row.treatment_id,
  );

async function expectNotFound(res: Response): Promise<ErrorBody> {
  expect(res.status).toBe(404);
  const body = (await res.json()) as ErrorBody;
  expect(ErrorBody.parse(body)).toEqual(body);
  expect(body).toEqual({ success: false, message: expect.any(String), error_code: 'not_found' });
  return body;
}

describe('GET /treatments', () => {
  it('lists only the active treatments of the clinic, every field as provisioned', async () => {
    const [checkUp, whitening] = await treatmentIdsOf(ctx.clinic.careId);
    const { data } = TreatmentListResponse.parse(await (await ctx.caller.get('/treatments')).json());
    expect(data).toStrictEqual([
      { treatment_id: checkUp, treatment_name: 'Check-up', description: 'Exam', base_fee: '60.00', duration_minutes: 30, image_url: 'https://cdn.example.com/c.jpg' },
      { treatment_id: whitening, treatment_name: 'Whitening', description: 'Bleaching', base_fee: '350.50', duration_minutes: 90, image_url: '' },
    ]);
  });

  it('lists the treatments in treatment_id order, each parsing as a Treatment', async () => {
    const { data } = TreatmentListResponse.parse(await (await ctx.caller.get('/treatments')).json());
    for (const treatment of data) expect(Treatment.parse(treatment)).toEqual(treatment);
    const ids = data.map((t) => t.treatment_id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
  });

  it('answers base_fee as a string with exactly two decimals', async () => {
    const { data } = TreatmentListResponse.parse(await (await ctx.caller.get('/treatments')).json());
    expect(data.map((t) => t.base_fee)).toEqual(['60.00', '350.50']);
    for (const treatment of data) expect(treatment.base_fee).toMatch(/^\d+\.\d{2}$/);
  });

  it('never lists a treatment of another clinic', async () => {
    const foreign = await treatmentIdsOf(ctx.otherClinic.careId);
    const { data } = TreatmentListResponse.parse(await (await ctx.caller.get('/treatments')).json());
    expect(data.map((t) => t.treatment_id).filter((id) => foreign.includes(id))).toEqual([]);
  });
});

describe('GET /treatments/{id}', () => {
  it('answers {success: true, data} with the one active treatment, every field as provisioned', async () => {
    const [, whitening] = await treatmentIdsOf(ctx.clinic.careId);
    const res = await ctx.caller.get(`/treatments/${whitening}`);
    expect(res.status).toBe(200);
    expect(await res.json()).toStrictEqual({
      success: true,
      data: { treatment_id: whitening, treatment_name: 'Whitening', description: 'Bleaching', base_fee: '350.50', duration_minutes: 90, image_url: '' },
    });
  });

  it('answers 404 not_found for an inactive treatment of the clinic', async () => {
    const [, , inactive] = await treatmentIdsOf(ctx.clinic.careId);
    await expectNotFound(await ctx.caller.get(`/treatments/${inactive}`));
  });

  it('answers 404 not_found for an active treatment of another clinic', async () => {
    const [foreign] = await treatmentIdsOf(ctx.otherClinic.careId);
    await expectNotFound(await ctx.caller.get(`/treatments/${foreign}`));
  });

  it('answers 404 not_found for an id that does not exist', async () => {
    await expectNotFound(await ctx.caller.get('/treatments/999999'));
  });

  it.each([
    ['a non-numeric id', 'abc'],
    ['a fractional id', '1.5'],
    ['a negative id', '-1'],
    ['zero', '0'],
    ['an id in exponent notation', '1e0'],
    ['a hexadecimal id', '0x1'],
    ['a 30-digit id', '123456789012345678901234567890'],
    ['an id beyond the safe integers', '9999999999999999'],
    ['an SQL-looking id', '1%20OR%201=1'],
    ['an SQL-looking id with a quote', "1'%20OR%20'1'='1"],
  ])('answers 404 not_found for %s (%s)', async (_name, id) => {
    await expectNotFound(await ctx.caller.get(`/treatments/${id}`));
  });

  it('answers 404 not_found for "01" although treatment 1 is active and answered as "1"', async () => {
    const [checkUp] = await treatmentIdsOf(ctx.clinic.careId);
    expect(checkUp).toBe(1);
    expect((await ctx.caller.get('/treatments/1')).status).toBe(200);
    await expectNotFound(await ctx.caller.get('/treatments/01'));
  });

  it('answers the same 404 body for another clinic\'s or an inactive treatment as for one that does not exist', async () => {
    const [, , inactive] = await treatmentIdsOf(ctx.clinic.careId);
    const [foreign] = await treatmentIdsOf(ctx.otherClinic.careId);
    const missing = await expectNotFound(await ctx.caller.get('/treatments/999999'));
    expect(await expectNotFound(await ctx.caller.get(`/treatments/${foreign}`))).toEqual(missing);
    expect(await expectNotFound(await ctx.caller.get(`/treatments/${inactive}`))).toEqual(missing);
  });
});
