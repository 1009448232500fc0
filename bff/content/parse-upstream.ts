import type { z } from 'zod';
import { NOT_HTTP_URL } from '../../contract/index.js';
import { DEFAULT_THEME, HEX_COLOUR_PATTERN, isHttpUrl } from '../../contract/rules/index.js';

/**
 * Checks an upstream body against the contract, repairing the fields an
 * upstream other than the reference server may get wrong, so that one bad
 * field never sinks a resource. Each kind of mismatch zod reports has one
 * repair, applied where zod says it is:
 *
 * | the field is                          | it becomes                                  |
 * |---------------------------------------|---------------------------------------------|
 * | a URL that is not http(s)             | `""` (the sanitiser then nulls a nullable one) |
 * | a theme colour that is not hex        | the default theme's colour (DEFAULT_THEME)  |
 * | a string over its limit               | cut to the limit (at a character boundary); a URL is blanked instead, since a cut URL points somewhere else |
 * | a list over its limit                 | its first entries, up to the limit          |
 * | a field the contract does not know    | dropped (so is a record entry with a refused key) |
 *
 * Anything else (not an object where one is required, a missing field, a
 * number that is text, a date or fee that is not one) cannot be repaired, and
 * the result is the failed parse: the resource is a 502.
 */
export function parseRepairingFields<S extends z.ZodType>(schema: S, body: unknown): z.ZodSafeParseResult<z.output<S>> {
  let result = schema.safeParse(body);
  let repaired: unknown;
  // Repairs can reveal checks zod skipped the first time (a refine over an object whose fields failed).
  for (let round = 0; round < MAX_ROUNDS && !result.success; round++) {
    const fixes = result.error.issues.map(repairFor);
    if (fixes.some((fix) => fix === undefined)) return result;
    repaired ??= structuredClone(body);
    result.error.issues.forEach((issue, index) => (repaired = applyAt(repaired, issue.path, fixes[index]!)));
    result = schema.safeParse(repaired);
  }
  return result;
}

const MAX_ROUNDS = 3;

type Issue = z.core.$ZodIssue;
/** Rewrites `parent[key]`, the field an issue names. */
type Fix = (parent: Record<PropertyKey, unknown>, key: PropertyKey) => void;

const HEX_COLOUR_SOURCE = String(HEX_COLOUR_PATTERN);

/** The one repair for this kind of issue, or undefined when it has none. */
function repairFor(issue: Issue): Fix | undefined {
  switch (issue.code) {
    case 'custom':
      return issue.message === NOT_HTTP_URL ? set(() => '') : undefined;
    case 'invalid_format':
      return issue.format === 'regex' && issue.pattern === HEX_COLOUR_SOURCE ? set((_value, key) => defaultColour(key)) : undefined;
    case 'too_big': {
      const limit = Number(issue.maximum) - (issue.inclusive === false ? 1 : 0);
      if (issue.origin === 'string') return set((value) => (typeof value !== 'string' || isHttpUrl(value) ? '' : cut(value, limit)));
      if (issue.origin === 'array') return set((value) => (Array.isArray(value) ? value.slice(0, limit) : value));
      return undefined;
    }
    case 'unrecognized_keys': {
      const { keys } = issue;
      return (parent, key) => {
        const object = parent[key] as Record<string, unknown>;
        for (const unknown of keys) delete object[unknown];
      };
    }
    case 'invalid_key':
      return (parent, key) => void delete parent[key];
    default:
      return undefined;
  }
}

const set =
  (value: (current: unknown, key: PropertyKey) => unknown): Fix =>
  (parent, key) => {
    parent[key] = value(parent[key], key);
  };

/** theme_primary -> DEFAULT_THEME.primary, and so on; the primary colour for any other colour field. */
function defaultColour(key: PropertyKey): string {
  const name = String(key).replace(/^theme_/, '');
  return name in DEFAULT_THEME ? DEFAULT_THEME[name as keyof typeof DEFAULT_THEME] : DEFAULT_THEME.primary;
}

/** The first `limit` UTF-16 units (zod's measure), never ending in half of a surrogate pair. */
function cut(text: string, limit: number): string {
  const head = text.slice(0, Math.max(limit, 0));
  return /[\uD800-\uDBFF]$/.test(head) ? head.slice(0, -1) : head;
}

/**
 * Applies `fix` to the field at `path` of `target` (for unrecognized_keys, the
 * object itself) and returns the target: the root is wrapped so that it has a
 * parent too, and could be replaced.
 */
function applyAt(target: unknown, path: readonly PropertyKey[], fix: Fix): unknown {
  const root = { body: target };
  let parent = root as Record<PropertyKey, unknown>;
  let key: PropertyKey = 'body';
  for (const step of path) {
    parent = parent[key] as Record<PropertyKey, unknown>;
    key = step;
  }
  fix(parent, key);
  return root.body;
}
