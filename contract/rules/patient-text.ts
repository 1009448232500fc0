/**
 * Patient text that cannot hurt whoever reads it. patient_name, patient_phone,
 * address and note end up in the status answer, the CLI listing, a clinic's
 * terminal and spreadsheets; one rule, shared by the server's and the BFF's
 * schema and the widget's inline validation, keeps out what could rewrite a
 * terminal, reorder what a reader sees, or fail to store as UTF-8.
 */

/** Why a patient text was refused; each tier puts it into its own words. */
export type PatientTextProblem = 'control_character' | 'bidi_control' | 'lone_surrogate' | 'blank';

export interface PatientTextOptions {
  /** The note alone may hold line breaks (LF); every other field is one line. */
  multiline?: boolean;
}

/** C0 controls (U+0000–U+001F), DEL and C1 controls (U+0080–U+009F): the Unicode category Cc. */
const CONTROL = /\p{Cc}/u;
/** The same, except LF, for the note. */
const CONTROL_BUT_LF = /(?!\n)\p{Cc}/u;
/** Bidi embeddings and overrides (U+202A–U+202E) and isolates (U+2066–U+2069); the marks LRM/RLM stay allowed. */
const BIDI_CONTROL = /[\u202a-\u202e\u2066-\u2069]/u;
/** A surrogate not part of a pair (with the u flag a pair reads as one code point): not storable as UTF-8. */
const LONE_SURROGATE = /\p{Cs}/u;
/** Nothing a reader would see: whitespace and default-ignorable code points (zero-width spaces and joiners, BOM, fillers). */
const INVISIBLE_ONLY = /^[\p{White_Space}\p{Default_Ignorable_Code_Point}]*$/u;

/**
 * The form every tier stores and compares: Unicode NFC, trimmed; in the note
 * CRLF and a lone CR become LF (CR alone moves a terminal's cursor back over
 * the line). A single-line field keeps its CR, which the check then refuses.
 */
export function normalisePatientText(text: string, { multiline = false }: PatientTextOptions = {}): string {
  // NFC treats a lone surrogate differently by engine (Firefox makes it U+FFFD; V8 and WebKit keep it), so such a
  // text is left as it is, for patientTextProblem to refuse in every browser as on the server.
  const composed = LONE_SURROGATE.test(text) ? text : text.normalize('NFC');
  return (multiline ? composed.replace(/\r\n?/g, '\n') : composed).trim();
}

/** True when `text` holds nothing a reader would see. */
export function isBlankPatientText(text: string): boolean {
  return INVISIBLE_ONLY.test(text);
}

/**
 * What is wrong with a patient text (as normalisePatientText left it), or
 * undefined when nothing is. 'blank' refuses a required field; an optional one
 * that is blank is absent.
 */
export function patientTextProblem(text: string, { multiline = false }: PatientTextOptions = {}): PatientTextProblem | undefined {
  if (LONE_SURROGATE.test(text)) return 'lone_surrogate';
  if ((multiline ? CONTROL_BUT_LF : CONTROL).test(text)) return 'control_character';
  if (BIDI_CONTROL.test(text)) return 'bidi_control';
  if (isBlankPatientText(text)) return 'blank';
  return undefined;
}
