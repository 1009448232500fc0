import { z } from 'zod';
import { LIMITS } from './rules/limits.js';
import { HEX_COLOUR_PATTERN, isCalendarDate, isHttpUrl, POSITIVE_ID_PATTERN, TIME_OF_DAY_PATTERN } from './rules/patterns.js';

/** Spec 2.7: the body of every error answer. */
export const ErrorBody = z
  .object({
    success: z.literal(false),
    message: z.string(),
    error_code: z.string(),
  })
  .strict()
  .meta({ id: 'ErrorBody', description: 'Body of every error answer (spec 2.7).' });
export type ErrorBody = z.infer<typeof ErrorBody>;

/** A calendar date, YYYY-MM-DD. */
export const CalendarDate = z
  .string()
  .refine(isCalendarDate, { message: 'must be a real calendar date in the form YYYY-MM-DD' })
  .meta({ format: 'date', example: '2026-12-01' });

/** A time of day, HH:MM on the 24-hour clock. */
export const TimeOfDay = z
  .string()
  .regex(TIME_OF_DAY_PATTERN, { message: 'must be a time in the form HH:MM (24-hour)' })
  .meta({ example: '09:30' });

/** Spec "String (Decimal)": a money amount carried as a string with two decimals. */
export const Decimal = z
  .string()
  .regex(/^\d{1,9}\.\d{2}$/, { message: 'must be a decimal amount such as "120.00"' })
  .meta({ example: '120.00' });

/** The message of a URL that is not http(s): consumers (the BFF) recognise it to blank such a field. */
export const NOT_HTTP_URL = 'must be an http(s) URL or empty';

/** Spec "String (URL)": an absolute http(s) URL, or empty where the clinic has none. */
export const Url = z
  .string()
  .max(LIMITS.url)
  .refine((value) => value === '' || isHttpUrl(value), { message: NOT_HTTP_URL })
  .meta({ format: 'uri', example: 'https://example.com/image.jpg' });

/** Spec "String (Hex)": a colour such as #0d9488. */
export const HexColour = z
  .string()
  .regex(HEX_COLOUR_PATTERN, { message: 'must be a hex colour such as #0d9488' })
  .meta({ example: '#0d9488' });

/** Spec "String (HTML)": markup written by the clinic; consumers must sanitise it. */
export const Html = z.string().max(LIMITS.html).meta({ description: 'HTML written by the clinic.' });

export const ShortText = z.string().max(LIMITS.shortText);
export const LongText = z.string().max(LIMITS.longText);

/**
 * A numeric identifier in a path: digits only, a safe positive integer.
 * It is parsed from text, but on the wire it is an integer's path form, so
 * the OpenAPI documents declare it as one (clients then pass numbers, not
 * strings); the override changes only the rendered schema, not parsing.
 */
export const IdParam = z
  .string()
  .regex(POSITIVE_ID_PATTERN)
  .transform(Number)
  .refine(Number.isSafeInteger)
  .meta({
    description: 'A positive integer identifier.',
    example: 1,
    override: ({ jsonSchema }: { jsonSchema: Record<string, unknown> }) => {
      delete jsonSchema.pattern;
      Object.assign(jsonSchema, { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER });
    },
  });
