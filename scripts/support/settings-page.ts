import { BffConfigSchema } from '../../bff/config.js';
import { settingsTable, withSettingsTables } from '../../platform/settings-doc.js';
import { ServerConfigSchema } from '../../server/config.js';

/** The page whose settings tables are written from the config schemas. */
export const SETTINGS_PAGE = 'docs/operations.md';

/** `page` with its server and BFF settings tables as the schemas give them now. */
export function settingsPage(page: string): string {
  return withSettingsTables(page, { server: settingsTable(ServerConfigSchema), bff: settingsTable(BffConfigSchema) });
}
