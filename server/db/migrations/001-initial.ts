import { sql, type Kysely, type Migration } from 'kysely';
import type { Engine } from '../engine.js';
import { generatedId } from './generated-id.js';

/**
 * The first schema. Written once with Kysely's schema builder, not in either
 * engine's SQL, so SQLite and PostgreSQL run the same migration; only the
 * generated ids differ (`generatedId`).
 */
export const initial = (engine: Engine): Migration => ({
  async up(db: Kysely<unknown>) {
    const id = generatedId(engine);

    await db.schema
      .createTable('clinics')
      .addColumn('care_id', 'integer', id)
      .addColumn('timezone', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('short_name', 'text', (c) => c.notNull())
      .addColumn('tooth_system', 'text', (c) => c.notNull())
      .addColumn('currency', 'text', (c) => c.notNull())
      .addColumn('currency_symbol', 'text', (c) => c.notNull())
      .addColumn('logo', 'text')
      .addColumn('address', 'text', (c) => c.notNull())
      .addColumn('city', 'text', (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('region', 'text', (c) => c.notNull())
      .addColumn('postal_code', 'text', (c) => c.notNull())
      .addColumn('country', 'text', (c) => c.notNull())
      .addColumn('phone', 'text', (c) => c.notNull())
      .addColumn('email', 'text', (c) => c.notNull())
      .addColumn('website', 'text', (c) => c.notNull())
      .addColumn('fax', 'text')
      .addColumn('established_date', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('websites')
      .addColumn('care_id', 'integer', (c) => c.primaryKey().references('clinics.care_id').onDelete('cascade'))
      .addColumn('settings_json', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('treatments')
      .addColumn('treatment_id', 'integer', id)
      .addColumn('care_id', 'integer', (c) => c.notNull().references('clinics.care_id').onDelete('cascade'))
      .addColumn('treatment_name', 'text', (c) => c.notNull())
      .addColumn('description', 'text', (c) => c.notNull())
      .addColumn('base_fee_cents', 'bigint', (c) => c.notNull())
      .addColumn('duration_minutes', 'integer', (c) => c.notNull())
      .addColumn('image_url', 'text', (c) => c.notNull())
      .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
      .execute();
    await db.schema.createIndex('treatments_by_clinic').on('treatments').columns(['care_id', 'active']).execute();

    await db.schema
      .createTable('dentists')
      .addColumn('doctor_id', 'integer', id)
      .addColumn('care_id', 'integer', (c) => c.notNull().references('clinics.care_id').onDelete('cascade'))
      .addColumn('doctor_name', 'text', (c) => c.notNull())
      .addColumn('specialization', 'text', (c) => c.notNull())
      .addColumn('qualification', 'text', (c) => c.notNull())
      .addColumn('experience_years', 'integer', (c) => c.notNull())
      .addColumn('consultation_fee_cents', 'bigint', (c) => c.notNull())
      .addColumn('signature_image_url', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('dentists_by_clinic').on('dentists').column('care_id').execute();

    await db.schema
      .createTable('appointments')
      .addColumn('appointment_id', 'integer', id)
      .addColumn('care_id', 'integer', (c) => c.notNull().references('clinics.care_id').onDelete('cascade'))
      .addColumn('patient_name', 'text', (c) => c.notNull())
      .addColumn('patient_phone', 'text', (c) => c.notNull())
      .addColumn('address', 'text')
      .addColumn('appointment_date', 'text', (c) => c.notNull())
      .addColumn('appointment_time', 'text', (c) => c.notNull())
      .addColumn('doctor_id', 'integer', (c) => c.references('dentists.doctor_id'))
      .addColumn('treatment_id', 'integer', (c) => c.references('treatments.treatment_id'))
      .addColumn('note', 'text')
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('appointments_by_clinic').on('appointments').column('care_id').execute();
    // The database itself refuses a second Scheduled booking of one dentist at one
    // date and time, so two concurrent requests cannot both win the slot.
    await db.schema
      .createIndex('one_scheduled_booking_per_dentist_slot')
      .on('appointments')
      .columns(['doctor_id', 'appointment_date', 'appointment_time'])
      .unique()
      .where(sql.ref('status'), '=', 'Scheduled')
      .where(sql.ref('doctor_id'), 'is not', null)
      .execute();

    await db.schema
      .createTable('api_keys')
      .addColumn('app_key', 'text', (c) => c.primaryKey())
      .addColumn('care_id', 'integer', (c) => c.notNull().references('clinics.care_id').onDelete('cascade'))
      .addColumn('secret_hash', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('revoked_at', 'bigint')
      .execute();

    await db.schema
      .createTable('access_tokens')
      .addColumn('token_hash', 'text', (c) => c.primaryKey())
      .addColumn('app_key', 'text', (c) => c.notNull().references('api_keys.app_key').onDelete('cascade'))
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('access_tokens_by_expiry').on('access_tokens').column('expires_at').execute();

    await db.schema
      .createTable('idempotency_keys')
      .addColumn('care_id', 'integer', (c) => c.notNull().references('clinics.care_id').onDelete('cascade'))
      .addColumn('idempotency_key', 'text', (c) => c.notNull())
      .addColumn('request_hash', 'text', (c) => c.notNull())
      .addColumn('status_code', 'integer', (c) => c.notNull())
      .addColumn('response_json', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('idempotency_keys_pk', ['care_id', 'idempotency_key'])
      .execute();
    await db.schema.createIndex('idempotency_keys_by_age').on('idempotency_keys').column('created_at').execute();
  },
});
