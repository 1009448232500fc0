import type { Generated, Insertable, Kysely, Selectable } from 'kysely';
import type { AppointmentStatus } from '../../contract/index.js';

/** Table shapes as Kysely sees them. Money is stored as integer cents. */
export interface Tables {
  clinics: ClinicsTable;
  websites: WebsitesTable;
  treatments: TreatmentsTable;
  dentists: DentistsTable;
  appointments: AppointmentsTable;
  api_keys: ApiKeysTable;
  access_tokens: AccessTokensTable;
  idempotency_keys: IdempotencyKeysTable;
}

/** Queries on the database, or within one of its transactions. */
export type Db = Kysely<Tables>;

export interface ClinicsTable {
  care_id: Generated<number>;
  timezone: string;
  name: string;
  short_name: string;
  tooth_system: string;
  currency: string;
  currency_symbol: string;
  logo: string | null;
  address: string;
  city: string;
  state: string;
  region: string;
  postal_code: string;
  country: string;
  phone: string;
  email: string;
  website: string;
  fax: string | null;
  established_date: string;
  created_at: number;
  /** The clinic's booking rules (contract/rules/booking-rules.ts). */
  min_notice_minutes: number;
  horizon_days: number;
  default_duration_minutes: number;
}

export interface WebsitesTable {
  care_id: number;
  /** The WebsiteSettings object as JSON, validated by the contract on write. */
  settings_json: string;
  updated_at: number;
}

export interface TreatmentsTable {
  treatment_id: Generated<number>;
  care_id: number;
  treatment_name: string;
  description: string;
  base_fee_cents: number;
  duration_minutes: number;
  image_url: string;
  active: number;
}

export interface DentistsTable {
  doctor_id: Generated<number>;
  care_id: number;
  doctor_name: string;
  specialization: string;
  qualification: string;
  experience_years: number;
  consultation_fee_cents: number;
  signature_image_url: string;
}

export interface AppointmentsTable {
  appointment_id: Generated<number>;
  care_id: number;
  patient_name: string;
  patient_phone: string;
  address: string | null;
  appointment_date: string;
  appointment_time: string;
  /** When the appointment stops holding its dentist, HH:MM (at most 24:00), the end excluded. */
  end_time: string;
  doctor_id: number | null;
  treatment_id: number | null;
  note: string | null;
  status: AppointmentStatus;
  created_at: number;
}

export interface ApiKeysTable {
  app_key: string;
  care_id: number;
  /** scrypt$N$r$p$salt$hash, base64url parts; the secret itself is never stored. */
  secret_hash: string;
  created_at: number;
  revoked_at: number | null;
}

export interface AccessTokensTable {
  /** SHA-256 of the token, base64url; the token itself is never stored. */
  token_hash: string;
  app_key: string;
  expires_at: number;
}

export interface IdempotencyKeysTable {
  care_id: number;
  idempotency_key: string;
  request_hash: string;
  status_code: number;
  response_json: string;
  created_at: number;
}

export type ClinicRow = Selectable<ClinicsTable>;
export type NewClinicRow = Insertable<ClinicsTable>;
export type TreatmentRow = Selectable<TreatmentsTable>;
export type DentistRow = Selectable<DentistsTable>;
export type AppointmentRow = Selectable<AppointmentsTable>;
