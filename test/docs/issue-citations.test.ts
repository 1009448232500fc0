import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The tracker the project was planned in is not in the repository, so a comment that gives an issue's number
 * as its reason sends the reader nowhere: the code says why in its own words. Checked over the source, the tests, the
 * benchmarks, the scripts and CI, the configuration files at the top and the mutants register.
 */
const FOLDERS = ['server', 'bff', 'widget', 'platform', 'contract', 'wordpress', 'scripts', 'bench', 'test', '.ci'];
const TOP_FILES = /^(?:[\w.-]+\.config\.(?:ts|js|mjs)|stryker\.equivalent-mutants\.md)$/;
/** What a folder holds that a person writes: code, pages and scripts without an ending. */
const WRITTEN = /(?:\.(?:ts|mts|js|mjs|cjs|md|php|txt|sh)|^[^.]+)$/;
/** An issue's number after the word (issue, issues, Issue), with or without a `#`. */
const ISSUE_CITATION = /\bissues? #?\d{1,3}\b/i;

function writtenFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return ['node_modules', 'dist'].includes(entry.name) ? [] : writtenFiles(path);
    return entry.isFile() && WRITTEN.test(entry.name) ? [path] : [];
  });
}

/** Each line that cites an issue by its number, as `path:line: text`. */
function citations(paths: string[]): string[] {
  return paths.flatMap((path) =>
    readFileSync(path, 'utf8')
      .split('\n')
      .flatMap((line, index) => (ISSUE_CITATION.test(line) ? [`${path}:${index + 1}: ${line.trim()}`] : [])),
  );
}

describe('issue numbers', () => {
  const files = [...FOLDERS.flatMap(writtenFiles), ...readdirSync('.').filter((name) => TOP_FILES.test(name))];

  it('reads the source, the tests and the configuration', () => {
    expect(files).toEqual(expect.arrayContaining(['bff/app.ts', 'test/docs/issue-citations.test.ts', 'vitest.config.ts', 'eslint.config.js', 'stryker.config.mjs', 'stryker.equivalent-mutants.md', '.ci/run']));
  });

  it('are cited by no comment or text of them: each says why in its own words', () => {
    expect(citations(files)).toEqual([]);
  });

  it('are found in each spelling a citation takes', () => {
    // Spelt apart here, so that this file's own lines cite nothing.
    const [word, words] = ['issue', 'issues'];
    const cited = [`// ${word} 24: sites`, ` * (${word.toUpperCase()} 21 item 4)`, `(${words} 21 and 22)`, `see ${word} #13`];
    const not = ['each repair removes its issue and yields one valid', 'issue.pattern === HEX', 'issued 24 tokens'];

    expect(cited.filter((line) => !ISSUE_CITATION.test(line))).toEqual([]);
    expect(not.filter((line) => ISSUE_CITATION.test(line))).toEqual([]);
  });
});
