// The engines the widget's browser tests run in (web-test-runner.config.mjs): Chromium, Firefox and WebKit, the
// three a clinic's patients arrive with, each as Debian ships it; nothing downloads a browser.
// - Chromium: Debian's chromium (CHROME_PATH), by puppeteer-core over the DevTools protocol, as before.
// - Firefox: Debian's firefox-esr (FIREFOX_PATH), by the same @web/test-runner-chrome launcher and the
//   puppeteer-core it comes with, over WebDriver BiDi: a launcher of type 'puppeteer', so sendKeys and the viewport
//   work as in Chromium, and no package of our own.
// - WebKit: WebKitGTK's MiniBrowser by WebKitWebDriver in Xvfb (webkit-launcher.mjs).
// BROWSERS=firefox (or chromium,webkit) runs some. An engine not installed is skipped with one line saying what
// to install (scripts/test.mjs installs them as root on Debian), unless REQUIRE_SERVICES=1, where its tests run
// and fail; Chromium is never skipped.
import { existsSync } from 'node:fs';
import { chromeLauncher, puppeteerCore } from '@web/test-runner-chrome';
import { firefoxPath } from '../ensure-firefox.mjs';
import { WEBKIT, XDOTOOL } from '../support/webkit-driver.mjs';
import { WebKitLauncher } from './webkit-launcher.mjs';

export const ENGINES = ['chromium', 'firefox', 'webkit'];

export const chromiumPath = (env = process.env) => env.CHROME_PATH || '/usr/bin/chromium';

/** Each engine: the files it needs, which Debian packages hold them, and its launcher. */
const ENGINE = {
  chromium: {
    needs: (env) => [chromiumPath(env)],
    packages: 'chromium, or set CHROME_PATH',
    launcher: (env) =>
      named(
        'Chromium',
        chromeLauncher({
          launchOptions: {
            executablePath: chromiumPath(env),
            headless: true,
            args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
          },
        }),
      ),
  },
  firefox: {
    needs: (env) => [firefoxPath(env)],
    packages: 'firefox-esr, or set FIREFOX_PATH',
    launcher: (env) =>
      chromeLauncher({
        puppeteer: puppeteerCore,
        launchOptions: {
          browser: 'firefox',
          executablePath: firefoxPath(env),
          headless: true,
          // Scrollbars over the page, as a phone's are and as headless Chromium and WebKitGTK draw them: a classic
          // one took 12 px of a 320 px window, so Firefox alone laid the widget out 308 px wide.
          extraPrefsFirefox: { 'ui.useOverlayScrollbars': 1 },
        },
      }),
  },
  webkit: {
    needs: () => [...Object.values(WEBKIT), XDOTOOL],
    packages: 'webkit2gtk-driver, xvfb and xdotool',
    launcher: () => new WebKitLauncher(),
  },
};

/** @web/test-runner-chrome calls a Chromium it did not download "Chrome"; this one is Chromium. */
function named(name, launcher) {
  launcher.name = name;
  return launcher;
}

/** The engines BROWSERS names (all three by default), in ENGINES' order. */
export function chosenEngines(env = process.env) {
  if (!env.BROWSERS) return ENGINES;
  const names = env.BROWSERS.split(',').map((name) => name.trim().toLowerCase());
  const unknown = names.filter((name) => !ENGINES.includes(name));
  if (unknown.length > 0) throw new Error(`BROWSERS: no engine ${unknown.join(', ')}; choose from ${ENGINES.join(', ')}`);
  return ENGINES.filter((name) => names.includes(name));
}

/** The launchers of the chosen engines that can run here, each one missing said in one line. */
export function engineLaunchers(env = process.env) {
  const required = env.REQUIRE_SERVICES === '1';
  const launchers = [];
  for (const name of chosenEngines(env)) {
    const engine = ENGINE[name];
    const missing = engine.needs(env).filter((path) => !existsSync(path));
    if (missing.length > 0 && name !== 'chromium') {
      const what = `wtr: ${name}: ${missing.join(', ')} missing (Debian: ${engine.packages})`;
      if (!required) {
        console.log(`${what}; the widget's tests in ${name} are skipped (REQUIRE_SERVICES=1 makes this a failure)`);
        continue;
      }
      console.log(`${what}; REQUIRE_SERVICES=1, so they run there and fail`);
    }
    launchers.push(engine.launcher(env));
  }
  return launchers;
}
