import { sql } from 'kysely';
import type { Organization } from '../../contract/index.js';
import type { Db } from '../db/database.js';

/** The phone number without the formatting people type: '+44 7700 900123' and '+447700900123' are one patient. */
const phoneDigits = sql`replace(replace(replace(replace(replace(replace(patient_phone, ' ', ''), '-', ''), '.', ''), '(', ''), ')', ''), '/', '')`;

/** Spec 2.2: the clinic profile, with statistics counted live. */
export class OrganizationStore {
  constructor(private readonly db: Db) {}

  async find(careId: number): Promise<Organization | undefined> {
    const clinic = await this.db
      .selectFrom('clinics')
      .select([
        'care_id', 'name', 'short_name', 'tooth_system', 'currency', 'currency_symbol', 'logo', 'address', 'city',
        'state', 'region', 'postal_code', 'country', 'phone', 'email', 'website', 'fax', 'established_date',
      ])
      .where('care_id', '=', careId)
      .executeTakeFirst();
    if (!clinic) return undefined;
    return { ...clinic, statistics: await this.statistics(careId) };
  }

  /**
   * total_users: active API keys (the accounts that use this clinic's data);
   * total_patients: distinct patient phone numbers (ignoring spaces and punctuation) among its appointments;
   * total_appointments: all its appointments, whatever their status;
   * total_doctors: its dentists.
   */
  private async statistics(careId: number): Promise<Organization['statistics']> {
    const row = await this.db
      .selectNoFrom((eb) => [
        eb.selectFrom('api_keys').select((sub) => sub.fn.countAll<number>().as('n'))
          .where('care_id', '=', careId).where('revoked_at', 'is', null).as('total_users'),
        eb.selectFrom('appointments').select(sql<number>`count(distinct ${phoneDigits})`.as('n'))
          .where('care_id', '=', careId).as('total_patients'),
        eb.selectFrom('appointments').select((sub) => sub.fn.countAll<number>().as('n'))
          .where('care_id', '=', careId).as('total_appointments'),
        eb.selectFrom('dentists').select((sub) => sub.fn.countAll<number>().as('n'))
          .where('care_id', '=', careId).as('total_doctors'),
      ])
      .executeTakeFirstOrThrow();
    return {
      total_users: Number(row.total_users),
      total_patients: Number(row.total_patients),
      total_appointments: Number(row.total_appointments),
      total_doctors: Number(row.total_doctors),
    };
  }
}
