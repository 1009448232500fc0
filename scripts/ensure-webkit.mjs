// WebKit, Safari's engine, for the browser tests: Debian's WebKitGTK MiniBrowser, its WebDriver
// (webkit2gtk-driver) and a display to run it in (xvfb). Installed from Debian's packages where this runs as
// root on Debian; elsewhere one line says what to install, and the WebKit tests skip (or fail under
// REQUIRE_SERVICES=1). The paths are test/e2e/support/webkit.ts's.
import { existsSync } from 'node:fs';
import { installDebianPackages } from './debian-packages.mjs';

const NEEDED = ['/usr/bin/WebKitWebDriver', '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser', '/usr/bin/Xvfb'];

export function ensureWebKit() {
  if (NEEDED.every((path) => existsSync(path))) return;
  installDebianPackages(['webkit2gtk-driver', 'xvfb']);
  const missing = NEEDED.filter((path) => !existsSync(path));
  if (missing.length > 0) throw new Error(`apt-get installed webkit2gtk-driver and xvfb but ${missing.join(', ')} is missing.`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    ensureWebKit();
  } catch (error) {
    console.error(error.message);
    process.exit(1);
  }
}
