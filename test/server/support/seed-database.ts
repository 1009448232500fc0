import { ClinicStore } from '../../../server/clinics/clinic.store.js';
import { ClinicFile } from '../../../server/clinics/clinic-file.js';
import { AuthService } from '../../../server/auth/auth.service.js';
import { KeyStore } from '../../../server/auth/key.store.js';
import { TokenStore } from '../../../server/auth/token.store.js';
import { systemClock } from '../../../platform/clock.js';
import type { ClinicFile as ClinicFileInput } from '../../../server/clinics/clinic-file.js';
import { clinicFixture } from './clinic-fixture.js';
import { openTestDatabase } from './test-database.js';
import { SEED_SECRET_COST } from './seed-secret-cost.js';
import { SecretHasher } from '../../../server/auth/secret-hash.js';

export interface SeededKeys {
  careId: number;
  /** The clinic's dentists, in id order. */
  doctorIds: number[];
  /** The clinic's treatments, in the file's order. */
  treatmentIds: number[];
  app_key: string;
  app_secret_key: string;
}

/**
 * Creates a clinic (the fixture unless given) and a key pair in the database
 * at `databaseUrl` (migrating it first), for tests that run the server as a
 * process of its own.
 */
export async function seedDatabase(databaseUrl: string, file: ClinicFileInput = clinicFixture()): Promise<SeededKeys> {
  const db = (await openTestDatabase(databaseUrl)).kysely;
  try {
    const careId = await new ClinicStore(db).create(ClinicFile.parse(file), new Date());
    const keys = await new AuthService(new KeyStore(db), new TokenStore(db), systemClock, new SecretHasher(SEED_SECRET_COST)).createKeyPair(careId);
    const dentists = await db.selectFrom('dentists').select('doctor_id').where('care_id', '=', careId).orderBy('doctor_id').execute();
    const treatments = await db.selectFrom('treatments').select('treatment_id').where('care_id', '=', careId).orderBy('treatment_id').execute();
    return { careId, doctorIds: dentists.map((row) => row.doctor_id), treatmentIds: treatments.map((row) => row.treatment_id), ...keys };
  } finally {
    await db.destroy();
  }
}

/** The ids of every appointment in the database at `databaseUrl`, read through a connection of its own. */
export async function appointmentIdsIn(databaseUrl: string): Promise<Set<number>> {
  const db = (await openTestDatabase(databaseUrl)).kysely;
  try {
    return new Set((await db.selectFrom('appointments').select('appointment_id').execute()).map((row) => row.appointment_id));
  } finally {
    await db.destroy();
  }
}

/** POST /granttoken on `api`; the headers of an authenticated JSON request. */
export async function authHeaders(api: string, keys: Pick<SeededKeys, 'app_key' | 'app_secret_key'>): Promise<Record<string, string>> {
  const res = await fetch(`${api}/granttoken`, {
    method: 'POST',
    headers: { 'x-app-key': keys.app_key, 'x-app-secret-key': keys.app_secret_key },
  });
  if (res.status !== 200) throw new Error(`granttoken answered ${res.status}`);
  const { access_token } = (await res.json()) as { access_token: string };
  return { 'x-app-key': keys.app_key, authorization: `Bearer ${access_token}`, 'content-type': 'application/json' };
}
