import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { settingsTable, withSettingsTables } from '../../platform/settings-doc.js';
import { settingsPage, SETTINGS_PAGE } from '../../scripts/support/settings-page.js';

describe('the settings tables of docs/operations.md', () => {
  it('are exactly what the config schemas give: npm run docs:settings rewrites them', () => {
    const page = readFileSync(SETTINGS_PAGE, 'utf8');

    expect(page).toBe(settingsPage(page));
  });

  it('name every setting of both services', () => {
    const page = readFileSync(SETTINGS_PAGE, 'utf8');

    for (const name of ['DATABASE_URL', 'SQLITE_SYNCHRONOUS', 'UPSTREAM_URL', 'BOOKING_REF_SECRET', 'REDIS_KEY_PREFIX', 'STATUS_RATE_WINDOW_MS']) {
      expect(page).toContain(`\`${name}\``);
    }
  });
});

describe('settingsTable', () => {
  const schema = z.object({
    NEEDED: z.string().describe('must be given'),
    PORTISH: z.coerce.number().default(8080).describe('a number with a default'),
    OPTIONAL: z.string().optional().describe('may be left out'),
    LIST: z.string().default('').transform((value) => value.split(',').filter(Boolean)).describe('a list, empty by default'),
    X_RATE_LIMIT: z.coerce.number().default(5).describe('things per window'),
    X_RATE_WINDOW_MS: z.coerce.number().default(60_000).describe('the window'),
  });

  it('gives each setting its default as the schema parses an unset variable, a rate limit and its window on one row', () => {
    expect(settingsTable(schema).split('\n')).toEqual([
      '| variable | default | meaning |',
      '|---|---|---|',
      '| `NEEDED` | *(required)* | must be given |',
      '| `PORTISH` | `8080` | a number with a default |',
      '| `OPTIONAL` | *(none)* | may be left out |',
      '| `LIST` | *(none)* | a list, empty by default |',
      '| `X_RATE_LIMIT` / `X_RATE_WINDOW_MS` | `5` / `60000` | things per window |',
    ]);
  });

  it('refuses a setting without a description, naming it', () => {
    expect(() => settingsTable(z.object({ SILENT: z.string() }))).toThrow(/SILENT has no description/);
  });

  it('replaces only the marked region, and refuses a page without it', () => {
    const page = 'before\n<!-- settings:a:start -->\nold\n<!-- settings:a:end -->\nafter';

    expect(withSettingsTables(page, { a: 'new' })).toBe('before\n<!-- settings:a:start -->\nnew\n<!-- settings:a:end -->\nafter');
    expect(() => withSettingsTables('no markers', { a: 'new' })).toThrow(/settings:a:start/);
  });
});
