import type { z } from 'zod';

/**
 * The settings tables of docs/operations.md, written from the services'
 * config schemas: each setting's variable, its default as the schema gives it,
 * and its `.describe()` text. The docs cannot drift from the code: a test
 * compares the page with what this writes (test/docs/settings-tables.test.ts),
 * and `npm run docs:settings` rewrites the page.
 */

const RATE_LIMIT = /^(.*)_RATE_LIMIT$/;

/** What a setting's schema gives when the variable is unset, for the table: its default, "none" or "required". */
function defaultOf(setting: z.ZodType): string {
  const unset = setting.safeParse(undefined);
  if (!unset.success) return '*(required)*';
  const value: unknown = unset.data;
  if (value === undefined || value === '' || (Array.isArray(value) && value.length === 0)) return '*(none)*';
  return `\`${String(value)}\``;
}

function describedBy(name: string, setting: z.ZodType): string {
  const text = setting.description;
  if (!text) throw new Error(`setting ${name} has no description: give it one with .describe() in its config schema`);
  return text.replace(/\s*\n\s*/g, ' ');
}

/**
 * A markdown table of a config schema's settings, in the schema's order. A
 * `X_RATE_LIMIT` and its `X_RATE_WINDOW_MS` share one row, the limit's
 * description saying what both mean.
 */
export function settingsTable(schema: z.ZodObject): string {
  const shape = schema.shape as Record<string, z.ZodType>;
  const rows = ['| variable | default | meaning |', '|---|---|---|'];
  for (const [name, setting] of Object.entries(shape)) {
    const window = RATE_LIMIT.exec(name) && `${RATE_LIMIT.exec(name)![1]}_RATE_WINDOW_MS`;
    if (name.endsWith('_RATE_WINDOW_MS') && name.replace(/_WINDOW_MS$/, '_LIMIT') in shape) continue;
    if (window && shape[window]) {
      rows.push(`| \`${name}\` / \`${window}\` | ${defaultOf(setting)} / ${defaultOf(shape[window])} | ${describedBy(name, setting)} |`);
      continue;
    }
    rows.push(`| \`${name}\` | ${defaultOf(setting)} | ${describedBy(name, setting)} |`);
  }
  return rows.join('\n');
}

/**
 * `markdown` with the region between `<!-- settings:NAME:start -->` and
 * `<!-- settings:NAME:end -->` replaced by each table; a region missing from the
 * page is an error, so a renamed marker cannot silently stop the checks.
 */
export function withSettingsTables(markdown: string, tables: Record<string, string>): string {
  let page = markdown;
  for (const [name, table] of Object.entries(tables)) {
    const start = `<!-- settings:${name}:start -->`;
    const end = `<!-- settings:${name}:end -->`;
    const from = page.indexOf(start);
    const to = page.indexOf(end);
    if (from < 0 || to < from) throw new Error(`the page has no ${start} … ${end} region`);
    page = `${page.slice(0, from + start.length)}\n${table}\n${page.slice(to)}`;
  }
  return page;
}
