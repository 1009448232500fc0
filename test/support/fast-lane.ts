import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The fast lane (`npm run test:fast`): every vitest file under `dirs` that
 * starts nothing that listens or runs beside it. A file is in it unless it
 * imports one of these: the server's or the BFF's test harness, a PostgreSQL
 * or Redis helper, node:http(s), node:net, node:child_process. Unit tests of
 * the rules, the contract, parsers and stores on a SQLite file qualify; an
 * HTTP test never does. Adding such an import moves a file out by itself.
 */
const STARTS_SOMETHING =
  /from '[^']*(?:test-server|bff-harness|test-database|support\/redis|support\/services)\.js'|from 'node:(?:http|https|net|child_process)'/;

export function fastTestFiles(dirs: string[]): string[] {
  return dirs
    .flatMap((dir) => readdirSync(dir, { recursive: true, encoding: 'utf8' }).map((file) => join(dir, file)))
    .filter((file) => file.endsWith('.test.ts') && !STARTS_SOMETHING.test(readFileSync(file, 'utf8')))
    .sort();
}
