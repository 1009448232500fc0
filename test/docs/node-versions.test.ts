import { readFileSync } from 'node:fs';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

/** What package.json and its lockfile say, and the releases CI runs the suite on. */
const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as { engines: { node: string } };
const lockfile = JSON.parse(readFileSync('package-lock.json', 'utf8')) as {
  packages: Record<string, { dev?: boolean; devOptional?: boolean; optional?: boolean; engines?: { node?: string } | string[] }>;
};
const ciReleases = readFileSync('.ci/node-versions', 'utf8')
  .split('\n')
  .map((line) => line.trim())
  .filter((line) => line !== '' && !line.startsWith('#'));

/** The lowest release package.json's engines range admits: what every production dependency must run on. */
const floor = semver.minVersion(manifest.engines.node)!.version;

describe('the Node.js versions the project supports', () => {
  it('are LTS lines 22 and 24 in CI, each admitted by engines', () => {
    expect(ciReleases.map((release) => semver.major(release))).toEqual([22, 24]);
    for (const release of ciReleases) expect(semver.satisfies(release, manifest.engines.node)).toBe(true);
  });

  it('start at 22.12, the floor README and docs/operations.md name', () => {
    expect(floor).toBe('22.12.0');
    expect(readFileSync('README.md', 'utf8')).toContain('Node 22.12 or newer; CI tests Node 22 and 24');
    expect(readFileSync('docs/operations.md', 'utf8')).toContain('Node.js 22.12 or newer');
  });

  it('hold for every production dependency: each one installed declares engines that admit the floor', () => {
    const refused = Object.entries(lockfile.packages)
      .filter(([path, entry]) => path !== '' && !entry.dev && !entry.devOptional)
      .filter(([, entry]) => {
        const range = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
        return range !== undefined && !semver.satisfies(floor, range, { includePrerelease: true });
      })
      .map(([path, entry]) => `${path} (${JSON.stringify(entry.engines)})`);

    expect(refused).toEqual([]);
  });
});
