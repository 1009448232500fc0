import { describe, expect, it } from 'vitest';
import {
  AVAILABILITY_PATH,
  BOOKING_PATH,
  BROWSER_BOOKING_MAX_BYTES,
  CONTENT_BUNDLE_PATH,
  CONTENT_PATHS,
  formatReference,
  HONEYPOT_FIELD,
  LEGACY_REFERENCE_PATTERN,
  normaliseReference,
  REFERENCE_PATTERN,
  STATUS_LOOKUP_PATH,
  STATUS_PATH,
} from '../../../contract/rules/bff-api.js';

/** A short reference as issued (20 Crockford symbols in five groups) and a legacy one (54 base64url characters). */
const SHORT = 'K7QF-2M9X-PA4T-Z3RW-8HNC';
const LEGACY = 'aB3_-x'.repeat(9);

describe("the BFF's public API facts", () => {
  // A widget bundle stays cached on clinic sites long after a BFF upgrade: these are
  // the paths and names docs/bff.md documents, and changing one breaks those widgets.
  it('keeps the documented paths under /api', () => {
    expect({ CONTENT_PATHS, CONTENT_BUNDLE_PATH, BOOKING_PATH, STATUS_PATH, STATUS_LOOKUP_PATH, AVAILABILITY_PATH }).toEqual({
      CONTENT_PATHS: { organization: '/organization', website: '/website', treatments: '/treatments', dentists: '/dentists' },
      CONTENT_BUNDLE_PATH: '/content',
      BOOKING_PATH: '/appointments/book',
      STATUS_PATH: '/appointments/status',
      STATUS_LOOKUP_PATH: '/appointments/status',
      AVAILABILITY_PATH: '/availability',
    });
  });

  it('names the honeypot field "website" and takes booking bodies of up to 8 KiB', () => {
    expect(HONEYPOT_FIELD).toBe('website');
    expect(BROWSER_BOOKING_MAX_BYTES).toBe(8192);
  });
});

describe('REFERENCE_PATTERN', () => {
  it('matches a reference as issued', () => {
    expect(REFERENCE_PATTERN.test(SHORT)).toBe(true);
  });

  it.each([
    ['a character before it', `x${SHORT}`],
    ['a character after it', `${SHORT}X`],
    ['four groups', 'K7QF-2M9X-PA4T-Z3RW'],
    ['a short first group', 'K7Q-2M9X-PA4T-Z3RW-8HNC'],
    ['a short last group', 'K7QF-2M9X-PA4T-Z3RW-8HN'],
    ['no dashes', 'K7QF2M9XPA4TZ3RW8HNC'],
    ['lower case', SHORT.toLowerCase()],
    ['an I, which Crockford leaves out', 'I7QF-2M9X-PA4T-Z3RW-8HNC'],
    ['a U in a later group', 'K7QF-2M9X-PA4T-Z3RW-8HNU'],
  ])('does not match a reference with %s', (_case, reference) => {
    expect(REFERENCE_PATTERN.test(reference)).toBe(false);
  });
});

describe('LEGACY_REFERENCE_PATTERN', () => {
  it('matches 54 base64url characters', () => {
    expect(LEGACY_REFERENCE_PATTERN.test(LEGACY)).toBe(true);
  });

  it.each([
    ['53 characters', LEGACY.slice(1)],
    ['55 characters', `${LEGACY}A`],
    ['a character outside base64url', `${LEGACY.slice(1)}+`],
    ['a short reference', SHORT],
  ])('does not match %s', (_case, reference) => {
    expect(LEGACY_REFERENCE_PATTERN.test(reference)).toBe(false);
  });
});

describe('normaliseReference', () => {
  it('upper-cases a reference and removes its spaces and dashes of any kind', () => {
    expect(normaliseReference(' k7qf 2m9x-pa4t\u2010z3rw\u2014 8hnc ')).toBe('K7QF2M9XPA4TZ3RW8HNC');
  });

  it("reads Crockford's look-alikes I and L as 1 and O as 0, and leaves U", () => {
    expect(normaliseReference('iLoO-U')).toBe('1100U');
  });

  it('keeps a legacy reference as it is (case-sensitive), only trimmed', () => {
    expect(normaliseReference(`  ${LEGACY}\n`)).toBe(LEGACY);
  });
});

describe('formatReference', () => {
  it('groups symbols in fours separated by dashes', () => {
    expect(formatReference('K7QF2M9XPA4TZ3RW8HNC')).toBe(SHORT);
  });

  it('leaves a shorter last group as it is', () => {
    expect(formatReference('K7QF2M')).toBe('K7QF-2M');
  });

  it('leaves a legacy reference as it is', () => {
    expect(formatReference(LEGACY)).toBe(LEGACY);
  });

  it('answers an empty string for no symbols', () => {
    expect(formatReference('')).toBe('');
  });
});
