import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Every page a reader opens to find their way: README, CONTRIBUTING, CHANGELOG, the mutants register, docs/
 * and the README of any folder. A page that names a file of the repository that is not there sends the reader
 * to nothing, so each name must stand for a file or folder that exists.
 */
const SOURCE_FOLDERS = ['server', 'bff', 'widget', 'contract', 'platform', 'wordpress', 'test', 'bench', 'scripts', 'docs', '.ci'];

function markdownPages(): string[] {
  const pages = ['README.md', 'CONTRIBUTING.md', 'CHANGELOG.md', 'stryker.equivalent-mutants.md'];
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory() && entry.name !== 'node_modules' && entry.name !== 'dist') walk(path);
      else if (entry.isFile() && (folder === 'docs' || folder.startsWith('docs/') ? entry.name.endsWith('.md') : entry.name === 'README.md')) {
        pages.push(path);
      }
    }
  };
  for (const folder of SOURCE_FOLDERS) if (existsSync(folder)) walk(folder);
  return pages;
}

/** `server/appointments/booking.service.ts`, `test/e2e/`: a path from the repository's top, as pages write them. */
const REPOSITORY_PATH = new RegExp(`(?<![\\w/.-])((?:${SOURCE_FOLDERS.map((f) => f.replace('.', '\\.')).join('|')})/[\\w./-]*\\w)`, 'g');

/** A path with a pattern in it (`test/**`, `docs/decisions/NNNN-title.md`, `<lang>.ts`) names no one file. */
const isPattern = (path: string) => /[*{}<>]|NNNN/.test(path);

/** Output of a build, which a clean clone has only after `npm run build`. */
const isBuilt = (path: string) => /(^|\/)dist(\/|$)/.test(path);

/** Every name of a missing file on a page: repository paths in its text and relative links. */
function missingNames(page: string, text: string, exists: (path: string) => boolean = existsSync): string[] {
  const missing: string[] = [];
  for (const [, path] of text.matchAll(REPOSITORY_PATH)) {
    if (!isPattern(path!) && !isBuilt(path!) && !exists(path!)) missing.push(path!);
  }
  for (const [, link] of text.matchAll(/\]\(([^)#\s]+)/g)) {
    if (/^[a-z]+:/.test(link!)) continue;
    const path = normalize(join(dirname(page), link!));
    if (!isBuilt(path) && !exists(path)) missing.push(link!);
  }
  return missing;
}

describe('the documentation', () => {
  it('names only files and folders that exist', () => {
    const missing = markdownPages().flatMap((page) => missingNames(page, readFileSync(page, 'utf8')).map((name) => `${page}: ${name}`));

    expect(missing).toEqual([]);
  });

  it('would be caught naming a file that is gone, as a path or as a link', () => {
    const text = 'See `server/gone/nowhere.ts` and [the page](../missing.md); `test/**` and `widget/dist/x.js` are fine.';

    expect(missingNames('docs/page.md', text)).toEqual(['server/gone/nowhere.ts', '../missing.md']);
  });
});
