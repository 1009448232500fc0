import { describe, expect, it } from 'vitest';
import { patientHash } from '../../platform/patient-hash.js';

/** The patient of an audit line, as both services' `patients` commands write it (docs/privacy.md). */
describe('patientHash', () => {
  it('is the first 16 hex digits of the SHA-256 of the normalised phone', () => {
    // sha256('+447700900123'), computed apart: the lines of either service, and of past runs, stay comparable.
    expect(patientHash('+447700900123')).toBe('a8acc3a90a7b4e4d');
  });

  it('is the same for every spelling of one phone, and differs for the trunk-prefix form', () => {
    expect(patientHash('+44 (7700) 900-123')).toBe(patientHash('+447700900123'));
    expect(patientHash('07700 900123')).toBe('ef03a7ae0c135a3e');
  });
});
