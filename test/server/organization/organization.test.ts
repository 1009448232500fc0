import { describe, expect, it } from 'vitest';
import { OrganizationResponse } from '../../../contract/index.js';
import { AuthService } from '../../../server/auth/auth.service.js';
import { KeyStore } from '../../../server/auth/key.store.js';
import { TokenStore } from '../../../server/auth/token.store.js';
import { FakeClock, TEST_NOW } from '../../support/fake-clock.js';
import { clinicFixture } from '../support/clinic-fixture.js';
import { authenticatedCaller, seedClinic, validBooking, type Caller } from '../support/test-server.js';
import { twoClinics, useTestServer } from '../support/use-test-server.js';

const clock = new FakeClock(TEST_NOW);
const ctx = useTestServer({ clock, setup: twoClinics() });

const organizationOf = async (who: Caller) => OrganizationResponse.parse(await (await who.get('/organization')).json()).data;
const statisticsOf = async (who: Caller) => (await organizationOf(who)).statistics;

const createKeyPair = (careId: number) =>
  new AuthService(new KeyStore(ctx.server.db), new TokenStore(ctx.server.db), clock).createKeyPair(careId);

/** Bookings need distinct start times only when a dentist is named; these name none. */
const bookingFor = (who: Caller, phone: string, time: string) =>
  who.post('/appointments/book', validBooking({ patient_phone: phone, appointment_date: '2026-11-25', appointment_time: time }));

describe('GET /organization', () => {
  describe('the answer', () => {
    it('carries every organization field of the clinic exactly as provisioned, with its care_id', async () => {
      const data = await organizationOf(ctx.caller);
      const { statistics, ...profile } = data;
      expect(profile).toStrictEqual({ care_id: ctx.clinic.careId, ...clinicFixture().organization });
      expect(statistics).toEqual(expect.any(Object));
    });

    it('answers null, not an empty string or a missing field, for a fax the clinic does not have', async () => {
      const data = await organizationOf(ctx.caller);
      expect(data).toHaveProperty('fax', null);
    });

    it('answers each clinic its own profile', async () => {
      const data = await organizationOf(ctx.otherCaller);
      expect(data.care_id).toBe(ctx.otherClinic.careId);
      expect(data.name).toBe('Other Dental');
    });
  });

  describe('statistics', () => {
    it('of a new clinic are its one API key, no patients, no appointments and its two dentists', async () => {
      const fresh = await authenticatedCaller(ctx.server, await seedClinic(ctx.server, clinicFixture('Fresh Dental')));
      expect(await statisticsOf(fresh)).toStrictEqual({ total_users: 1, total_patients: 0, total_appointments: 0, total_doctors: 2 });
    });

    it('count the two dentists of the clinic as total_doctors', async () => {
      expect((await statisticsOf(ctx.caller)).total_doctors).toBe(2);
    });

    it('count one more user when another API key is created for the clinic', async () => {
      const before = (await statisticsOf(ctx.caller)).total_users;
      await createKeyPair(ctx.clinic.careId);
      expect((await statisticsOf(ctx.caller)).total_users).toBe(before + 1);
    });

    it('count one user fewer when an API key of the clinic is revoked', async () => {
      const { app_key } = await createKeyPair(ctx.clinic.careId);
      const before = (await statisticsOf(ctx.caller)).total_users;
      await new KeyStore(ctx.server.db).revoke(app_key, clock.now());
      expect((await statisticsOf(ctx.caller)).total_users).toBe(before - 1);
    });

    it('count every booking in total_appointments', async () => {
      const before = (await statisticsOf(ctx.caller)).total_appointments;
      expect((await bookingFor(ctx.caller, '+44 7700 900001', '10:00')).status).toBe(200);
      expect((await bookingFor(ctx.caller, '+44 7700 900002', '10:30')).status).toBe(200);
      expect((await statisticsOf(ctx.caller)).total_appointments).toBe(before + 2);
    });

    it('count two bookings with the same phone as one patient', async () => {
      const before = await statisticsOf(ctx.caller);
      expect((await bookingFor(ctx.caller, '+44 7700 900010', '11:00')).status).toBe(200);
      expect((await bookingFor(ctx.caller, '+44 7700 900010', '11:30')).status).toBe(200);
      const after = await statisticsOf(ctx.caller);
      expect(after.total_patients).toBe(before.total_patients + 1);
      expect(after.total_appointments).toBe(before.total_appointments + 2);
    });

    it('count the same phone typed with other spacing and punctuation as one patient', async () => {
      const before = (await statisticsOf(ctx.caller)).total_patients;
      expect((await bookingFor(ctx.caller, '+44 7700 900030', '13:00')).status).toBe(200);
      expect((await bookingFor(ctx.caller, '+44(7700)900-030', '13:30')).status).toBe(200);
      expect((await statisticsOf(ctx.caller)).total_patients).toBe(before + 1);
    });

    it('count a booking with a new phone as one more patient', async () => {
      expect((await bookingFor(ctx.caller, '+44 7700 900020', '12:00')).status).toBe(200);
      const before = (await statisticsOf(ctx.caller)).total_patients;
      expect((await bookingFor(ctx.caller, '+44 7700 900021', '12:30')).status).toBe(200);
      expect((await statisticsOf(ctx.caller)).total_patients).toBe(before + 1);
    });

    it('are not changed by another clinic\'s bookings', async () => {
      const before = await statisticsOf(ctx.caller);
      expect((await bookingFor(ctx.otherCaller, '+44 7700 900040', '14:00')).status).toBe(200);
      expect((await bookingFor(ctx.otherCaller, '+44 7700 900041', '14:30')).status).toBe(200);
      expect(await statisticsOf(ctx.caller)).toEqual(before);
    });

    it('are not changed by another clinic\'s API keys', async () => {
      const before = await statisticsOf(ctx.caller);
      await createKeyPair(ctx.otherClinic.careId);
      expect(await statisticsOf(ctx.caller)).toEqual(before);
    });
  });
});
