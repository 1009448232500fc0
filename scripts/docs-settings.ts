// `npm run docs:settings`: writes the settings tables of docs/operations.md from
// the services' config schemas (platform/settings-doc.ts). With --check it only
// says whether the page is current, and exits 1 when it is not.
import { readFileSync, writeFileSync } from 'node:fs';
import { settingsPage, SETTINGS_PAGE } from './support/settings-page.js';

const current = readFileSync(SETTINGS_PAGE, 'utf8');
const written = settingsPage(current);
if (process.argv.includes('--check')) {
  if (written !== current) {
    console.error(`${SETTINGS_PAGE}: the settings tables differ from the config schemas; run npm run docs:settings`);
    process.exit(1);
  }
  console.log(`${SETTINGS_PAGE}: settings tables current`);
} else if (written !== current) {
  writeFileSync(SETTINGS_PAGE, written);
  console.log(`${SETTINGS_PAGE}: settings tables written`);
} else {
  console.log(`${SETTINGS_PAGE}: settings tables already current`);
}
