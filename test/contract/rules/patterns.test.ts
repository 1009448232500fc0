import { describe, expect, it } from 'vitest';
import {
  HEX_COLOUR_PATTERN,
  httpUrlOrUndefined,
  isCalendarDate,
  isHttpUrl,
  isPhoneNumber,
  normalisePhone,
  parsePositiveId,
  TIME_OF_DAY_PATTERN,
} from '../../../contract/rules/patterns.js';

/** The text rules every tier shares (server schema, BFF sanitiser, widget validation). */
describe('isPhoneNumber', () => {
  it.each(['+44 7700 900123', '07700 900123', '(020) 7946-0958', '12345', '+1.555/123'])('accepts %s', (phone) => {
    expect(isPhoneNumber(phone)).toBe(true);
  });

  it.each([
    ['letters before the number', 'call 12345'],
    ['letters after the number', '12345x'],
    ['a plus sign inside the number', '12+345'],
    ['fewer than five characters', '1234'],
    ['five phone characters but only four digits', '+(12) 3-4'],
    ['no digits at all', '(((((--'],
    ['an empty string', ''],
  ])('refuses %s', (_case, phone) => {
    expect(isPhoneNumber(phone)).toBe(false);
  });
});

describe('normalisePhone', () => {
  it.each(['+44 7700 900123', '+44 (7700) 900-123', '+447700900123', ' +44.7700/900123', '+44-7700-900 123'])('reduces %s to +447700900123', (phone) => {
    expect(normalisePhone(phone)).toBe('+447700900123');
  });

  it('keeps a number written with its trunk prefix apart from the international one', () => {
    expect(normalisePhone('07700 900123')).toBe('07700900123');
  });

  it('keeps the + only in front: one inside is punctuation', () => {
    expect(normalisePhone('44 +7700 900123')).toBe('447700900123');
  });
});

describe('HEX_COLOUR_PATTERN', () => {
  it.each(['#abc', '#ABC', '#0f766e', '#B45309'])('matches %s', (colour) => {
    expect(HEX_COLOUR_PATTERN.test(colour)).toBe(true);
  });

  it.each(['abc', 'x#abc', '#abcd', '#0f766e0', '#ab', '#ggg', '#12345', 'red'])('does not match %s', (colour) => {
    expect(HEX_COLOUR_PATTERN.test(colour)).toBe(false);
  });
});

describe('parsePositiveId', () => {
  it.each([
    ['1', 1],
    ['7', 7],
    ['42', 42],
    ['123', 123],
    ['9007199254740991', Number.MAX_SAFE_INTEGER],
  ])('reads %s as %d', (text, id) => {
    expect(parsePositiveId(text)).toBe(id);
  });

  it.each([
    ['zero', '0'],
    ['a leading zero', '012'],
    ['a sign', '+12'],
    ['a space', ' 12'],
    ['letters before', 'x12'],
    ['letters after', '12x'],
    ['a trailing space', '12 '],
    ['an exponent', '1e3'],
    ['a fraction', '1.5'],
    ['more than 16 digits', '12345678901234567'],
    ['16 digits beyond the safe integers', '9007199254740993'],
    ['nothing', ''],
  ])('refuses %s', (_case, text) => {
    expect(parsePositiveId(text)).toBeUndefined();
  });
});

describe('TIME_OF_DAY_PATTERN', () => {
  it.each(['00:00', '09:30', '19:05', '20:00', '23:59'])('matches %s', (time) => {
    expect(TIME_OF_DAY_PATTERN.test(time)).toBe(true);
  });

  it.each(['24:00', '9:30', '09:60', 'x09:30', '09:30x', '09:3', 'ab:cd', '09-30'])('does not match %s', (time) => {
    expect(TIME_OF_DAY_PATTERN.test(time)).toBe(false);
  });
});

describe('isCalendarDate', () => {
  it.each(['2026-11-24', '2024-02-29', '2026-12-31', '2027-01-01'])('accepts %s', (date) => {
    expect(isCalendarDate(date)).toBe(true);
  });

  it.each([
    ['a day past the end of the month', '2025-02-30'],
    ['29 February of a common year', '2025-02-29'],
    ['month 13', '2026-13-01'],
    ['month 00', '2026-00-10'],
    ['day 00', '2026-11-00'],
    ['a one-digit month', '2026-1-24'],
    ['a leading space', ' 2026-11-24'],
    ['a trailing space', '2026-11-24 '],
    ['a time after the date', '2026-11-24T10:00'],
    ['a two-digit year', '26-11-24'],
    // Date.UTC reads years 0-99 as 1900-1999: such a date is refused rather than moved.
    ['a year below 100', '0050-01-01'],
    ['no date at all', 'tomorrow'],
  ])('refuses %s', (_case, date) => {
    expect(isCalendarDate(date)).toBe(false);
  });
});

describe('isHttpUrl and httpUrlOrUndefined', () => {
  it.each(['https://clinic.example/a', 'http://clinic.example'])('accept %s', (url) => {
    expect(isHttpUrl(url)).toBe(true);
    expect(httpUrlOrUndefined(url)).toBe(new URL(url).href);
  });

  it('answer the normalised form of a URL', () => {
    expect(httpUrlOrUndefined('HTTPS://Clinic.Example')).toBe('https://clinic.example/');
  });

  it.each(['ftp://clinic.example/a', 'javascript:alert(1)', 'mailto:a@b.example', '/relative/path', 'not a url', ''])('refuse %s', (url) => {
    expect(isHttpUrl(url)).toBe(false);
    expect(httpUrlOrUndefined(url)).toBeUndefined();
  });

  it.each([null, undefined])('httpUrlOrUndefined answers undefined for %s', (value) => {
    expect(httpUrlOrUndefined(value)).toBeUndefined();
  });
});
