// `npm run build:wordpress`: the WordPress plugin (wordpress/clinic-booking/) as the zip wp-admin's "Upload
// Plugin" takes, with the plugin's folder at its top: wordpress/dist/clinic-booking.zip, or the path given.
// Made by Debian's `zip` (installed from Debian's packages where this runs as root on Debian).
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { installDebianPackages } from '../debian-packages.mjs';

const WORDPRESS = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'wordpress');
export const DEFAULT_ZIP = join(WORDPRESS, 'dist', 'clinic-booking.zip');

/** Writes the plugin's zip to `out` (replacing one there); returns its path. */
export function buildPluginZip(out = DEFAULT_ZIP) {
  const target = resolve(out);
  if (spawnSync('zip', ['-v'], { stdio: 'ignore' }).status !== 0) installDebianPackages(['zip']);
  mkdirSync(dirname(target), { recursive: true });
  rmSync(target, { force: true });
  // -X: no extra file attributes (uid, times beyond the DOS ones), so the zip depends on the files alone.
  const zip = spawnSync('zip', ['-r', '-X', '-q', target, 'clinic-booking', '-x', '*.DS_Store'], { cwd: WORDPRESS, stdio: 'inherit' });
  if (zip.status !== 0) throw new Error(`zip exited with ${zip.status ?? zip.signal} writing ${target}`);
  return target;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    console.log(buildPluginZip(process.argv[2]));
  } catch (error) {
    console.error(error.message);
    process.exit(1);
  }
}
