// WebKit, Safari's engine, for the browser tests: Debian's WebKitGTK MiniBrowser, its WebDriver
// (webkit2gtk-driver), a display to run it in (xvfb) and xdotool, which gives the window the keyboard focus (there
// is no window manager to). Installed from Debian's packages where this runs as root on Debian; elsewhere one line
// says what to install, and the WebKit tests skip (or fail under REQUIRE_SERVICES=1). The paths are
// scripts/support/webkit-driver.mjs's.
import { existsSync } from 'node:fs';
import { installDebianPackages } from './debian-packages.mjs';
import { WEBKIT, XDOTOOL } from './support/webkit-driver.mjs';

const NEEDED = [...Object.values(WEBKIT), XDOTOOL];
const PACKAGES = ['webkit2gtk-driver', 'xvfb', 'xdotool'];

export function ensureWebKit() {
  if (NEEDED.every((path) => existsSync(path))) return;
  installDebianPackages(PACKAGES);
  const missing = NEEDED.filter((path) => !existsSync(path));
  if (missing.length > 0) throw new Error(`apt-get installed ${PACKAGES.join(', ')} but ${missing.join(', ')} is missing.`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    ensureWebKit();
  } catch (error) {
    console.error(error.message);
    process.exit(1);
  }
}
