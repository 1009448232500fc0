import { clinicFixture } from '../../server/support/clinic-fixture.js';

export type Json = Record<string, unknown>;

/**
 * Contract-valid upstream bodies for every content path of the fixture clinic
 * named `name`, made afresh on each call, for a test to spoil one field of and
 * serve from a stub upstream.
 */
export function validUpstreamBodies(name: string): Record<string, Json> {
  const clinic = clinicFixture(name);
  const treatments = clinic.treatments.filter((t) => t.active !== false).map(({ active: _active, ...t }, i) => ({ treatment_id: i + 1, ...t }));
  return {
    '/api/v1/website': { success: true, site: { care_id: 1, ...clinic.website } },
    '/api/v1/organization': {
      success: true,
      message: 'Organization retrieved',
      data: { care_id: 1, ...clinic.organization, statistics: { total_users: 1, total_patients: 0, total_appointments: 0, total_doctors: 2 } },
    },
    '/api/v1/treatments': { success: true, data: treatments },
    '/api/v1/treatments/1': { success: true, data: treatments[0]! },
    '/api/v1/dentists': { success: true, data: clinic.dentists.map((d, i) => ({ doctor_id: i + 1, ...d })) },
  };
}
