import { describe, expect, it } from 'vitest';
import { isBlankPatientText, normalisePatientText, patientTextProblem } from '../../../contract/rules/patient-text.js';

describe('normalisePatientText', () => {
  it('composes to NFC and trims', () => {
    expect(normalisePatientText('  Zoe\u0308 \n')).toBe('Zo\u00eb');
  });

  it('turns CRLF and a lone CR into LF in a multi-line note', () => {
    expect(normalisePatientText('one\r\ntwo\rthree', { multiline: true })).toBe('one\ntwo\nthree');
  });

  it('keeps a CR in a single-line field, for the check to refuse', () => {
    expect(normalisePatientText('one\r\ntwo')).toBe('one\r\ntwo');
  });
});

describe('isBlankPatientText', () => {
  it.each([
    ['nothing', ''],
    ['spaces', '   '],
    ['a tab and a line break', '\t\n'],
    ['zero-width spaces and joiners', '\u200b\u200d'],
    ['a byte order mark and a no-break space', '\ufeff\u00a0'],
  ])('is true for %s', (_case, text) => {
    expect(isBlankPatientText(text)).toBe(true);
  });

  it.each(['Jane', ' a ', '\u200bJ', 'J\u200b'])('is false for %j', (text) => {
    expect(isBlankPatientText(text)).toBe(false);
  });
});

describe('patientTextProblem', () => {
  it.each(['Jane Doe', 'Zoë O’Brien', '+44 7700 900123', 'مرحبا', 'left\u200eright'])('finds nothing wrong with %j', (text) => {
    expect(patientTextProblem(text)).toBeUndefined();
  });

  it.each([
    ['an escape (C0)', 'a\u001b[2Jb', 'control_character'],
    ['a tab', 'a\tb', 'control_character'],
    ['a line break in a single-line field', 'a\nb', 'control_character'],
    ['DEL', 'a\u007fb', 'control_character'],
    ['a C1 control', 'a\u0085b', 'control_character'],
    ['a right-to-left override', 'a\u202eb', 'bidi_control'],
    ['a first-strong isolate', 'a\u2068b', 'bidi_control'],
    ['a lone high surrogate', 'a\ud800b', 'lone_surrogate'],
    ['a lone low surrogate', 'a\udc00', 'lone_surrogate'],
    ['only spaces', '   ', 'blank'],
    ['only zero-width spaces', '\u200b\u200b', 'blank'],
  ])('finds %s', (_case, text, problem) => {
    expect(patientTextProblem(text)).toBe(problem);
  });

  it('names a lone surrogate before a control character in the same text', () => {
    expect(patientTextProblem('\u001b\ud800')).toBe('lone_surrogate');
  });

  it('allows line breaks in a multi-line note, but no other control character', () => {
    expect(patientTextProblem('first line\nsecond line', { multiline: true })).toBeUndefined();
    expect(patientTextProblem('first line\tsecond', { multiline: true })).toBe('control_character');
    expect(patientTextProblem('first\r\nsecond', { multiline: true })).toBe('control_character');
  });

  it('accepts a surrogate pair (an emoji)', () => {
    expect(patientTextProblem('Jane 😀')).toBeUndefined();
  });
});
