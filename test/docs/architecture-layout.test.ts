import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/** docs/architecture.md's "The layout": the first map a newcomer opens, as a code block of folders and files. */
const page = readFileSync('docs/architecture.md', 'utf8');
const layout = page.slice(page.indexOf('## The layout'), page.indexOf('## Data flow'));

/** Every source folder below the five parts, as `part/child/grandchild`. */
function sourceFolders(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !['dist', 'node_modules'].includes(entry.name))
    .flatMap((entry) => [join(folder, entry.name), ...sourceFolders(join(folder, entry.name))]);
}

describe("docs/architecture.md's layout", () => {
  it('names every folder of the five parts, and of the WordPress plugin', () => {
    const folders = ['server', 'bff', 'widget', 'contract', 'platform', 'wordpress'].flatMap(sourceFolders);
    // The layout is indented by depth, so a folder appears as its own last name and a slash.
    const unnamed = folders.filter((folder) => !layout.includes(`${folder.split('/').pop()}/`));

    expect(unnamed).toEqual([]);
  });

  it("names every one of the widget's languages", () => {
    const languages = readdirSync('widget/i18n').filter((file) => /^[a-z]{2}\.ts$/.test(file));

    expect(languages.length).toBeGreaterThanOrEqual(6);
    // Named as a word of its own: "es.ts" inside "routes.ts" does not count.
    expect(languages.filter((file) => !new RegExp(`(?<![\\w.-])${file.replace('.', '\\.')}`).test(layout))).toEqual([]);
  });
});
