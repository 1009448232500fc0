import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPluginZip } from '../../scripts/wordpress/build-zip.mjs';
import { makePot, POT } from '../../scripts/wordpress/make-pot.mjs';
import { REPO_ROOT } from '../e2e/support/stack.js';
import { WORDPRESS, wordPressLaneRuns } from './support/wordpress.js';

const run = promisify(execFile);
const PLUGIN_DIR = join(REPO_ROOT, 'wordpress', 'clinic-booking');
const lane = await wordPressLaneRuns();

/** Every file of the plugin ending in `extension`, relative to its folder. */
function pluginFiles(extension: string, dir = PLUGIN_DIR): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => (entry.isDirectory() ? pluginFiles(extension, join(dir, entry.name)).map((file) => join(entry.name, file)) : entry.name.endsWith(extension) ? [entry.name] : []))
    .sort();
}

/** The plugin's files as they are, without PHP or WordPress running: its PHP, its zip, its translation template. */
describe.runIf(lane.runs)("the WordPress plugin's files", () => {
  let scratch: string;

  beforeAll(() => {
    if (lane.missing.length > 0) throw new Error(`the WordPress lane needs ${lane.missing.join('; ')} (scripts/wordpress/install-wordpress.sh)`);
    scratch = mkdtempSync(join(tmpdir(), 'clinic-booking-files-'));
  });

  afterAll(() => {
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it('passes php -l on every PHP file', async () => {
    const files = pluginFiles('.php');
    expect(files).toEqual(expect.arrayContaining(['clinic-booking.php', 'uninstall.php', 'block/editor.asset.php', 'includes/widget-lists.php']));
    for (const file of files) {
      const { stdout } = await run(WORDPRESS.php, ['-l', join(PLUGIN_DIR, file)]);
      expect(stdout, file).toContain('No syntax errors detected');
    }
  });

  it('zips the plugin folder whole, under its own name, as wp-admin expects', async () => {
    const zip = buildPluginZip(join(scratch, 'clinic-booking.zip'));
    const { stdout } = await run('unzip', ['-Z1', zip]);
    const names = stdout.split('\n').filter((name) => name && !name.endsWith('/'));
    const plugin = readdirSync(PLUGIN_DIR, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => `clinic-booking/${relative(PLUGIN_DIR, join(entry.parentPath, entry.name))}`);

    expect(names.sort()).toEqual(plugin.sort());
    expect(names).toEqual(expect.arrayContaining(['clinic-booking/clinic-booking.php', 'clinic-booking/readme.txt', 'clinic-booking/languages/clinic-booking.pot']));
  });

  it('has a translation template with every string of its PHP and JavaScript (npm run i18n:wordpress)', () => {
    const fresh = makePot(join(scratch, 'fresh.pot'));

    expect(readFileSync(POT, 'utf8')).toBe(readFileSync(fresh, 'utf8'));
    expect(readFileSync(POT, 'utf8')).toContain('msgid "Check connection"');
    expect(readFileSync(POT, 'utf8')).toContain('msgctxt "block title"\nmsgid "Clinic booking"');
  });

  it("reads as a plugin to WordPress: its header's name, versions and text domain, and readme.txt's sections", () => {
    const main = readFileSync(join(PLUGIN_DIR, 'clinic-booking.php'), 'utf8');
    const readme = readFileSync(join(PLUGIN_DIR, 'readme.txt'), 'utf8');
    const header = (name: string) => new RegExp(`^ \\* ${name}:\\s*(.+)$`, 'm').exec(main)?.[1]?.trim();

    expect([header('Plugin Name'), header('Requires at least'), header('Requires PHP'), header('Text Domain')]).toEqual(['Clinic booking', '6.1', '7.4', 'clinic-booking']);
    expect(readme).toMatch(/^=== Clinic booking ===$/m);
    expect(readme).toContain(`Stable tag: ${header('Version')}`);
    for (const section of ['Description', 'Installation', 'Frequently Asked Questions', 'Screenshots', 'Changelog']) {
      expect(readme).toMatch(new RegExp(`^== ${section} ==$`, 'm'));
    }
  });
});
