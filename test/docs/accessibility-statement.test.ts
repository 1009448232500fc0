import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * docs/accessibility.md is a statement clinics publish, so what it says is tested must stay true. Its table
 * "How it was tested" says, per check, whether a test does it; for the checks a test would recognisably
 * emulate, a test that starts doing so (or stops) must move the statement with it.
 */
const statement = readFileSync('docs/accessibility.md', 'utf8');

/** What a browser test has to write to emulate each check the statement may call untested. */
const EMULATION: Record<string, RegExp> = {
  'Forced colours': /forced-colors|forcedColors/,
  'Reduced motion': /prefers-reduced-motion|reducedMotion/,
  '200 % zoom, text spacing': /\bzoom\b|letter-spacing|word-spacing/i,
};

/** The statement's answer in the "automated" column for a check: 'yes', 'no', or undefined when it has no row. */
function automated(page: string, check: string): string | undefined {
  const row = page.split('\n').find((line) => line.startsWith(`| ${check} |`));
  return row
    ?.split('|')
    .map((cell) => cell.trim())
    .filter(Boolean)
    .pop();
}

/** The test files that emulate a check, among `files` (path and text). */
const emulating = (files: [string, string][], pattern: RegExp) => files.filter(([, text]) => pattern.test(text)).map(([path]) => path);

/** Untrue sentences of the statement about the checks of EMULATION, given the browser tests' files. */
function untrue(page: string, files: [string, string][]): string[] {
  return Object.entries(EMULATION).flatMap(([check, pattern]) => {
    const says = automated(page, check);
    const found = emulating(files, pattern);
    if (says === 'no' && found.length) return [`"${check}" is said untested, but ${found.join(', ')} tests it`];
    if (says !== 'no' && !found.length) return [`"${check}" is said "${says}", but no browser test emulates it`];
    return [];
  });
}

function testFiles(folder: string): [string, string][] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry): [string, string][] => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return testFiles(path);
    return entry.name.endsWith('.ts') ? [[path, readFileSync(path, 'utf8')]] : [];
  });
}

describe('docs/accessibility.md', () => {
  it('is linked from the README and from embedding.md', () => {
    expect(readFileSync('README.md', 'utf8')).toContain('](docs/accessibility.md)');
    expect(readFileSync('docs/embedding.md', 'utf8')).toContain('](accessibility.md)');
  });

  it('says truthfully which checks the browser tests make', () => {
    const files = [...testFiles('test/widget'), ...testFiles('test/e2e')];

    expect(untrue(statement, files)).toEqual([]);
  });

  it('would be caught calling a check untested that a test makes, or tested that none makes', () => {
    const page = '| Forced colours | not tested | no |\n| Reduced motion | by hand | yes |\n| 200 % zoom, text spacing | not tested | no |';
    const files: [string, string][] = [['test/widget/contrast.test.ts', "await emulateMedia({ forcedColors: 'active' })"]];

    expect(untrue(page, files)).toEqual([
      '"Forced colours" is said untested, but test/widget/contrast.test.ts tests it',
      '"Reduced motion" is said "yes", but no browser test emulates it',
    ]);
  });
});
