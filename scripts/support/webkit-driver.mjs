// WebKit, Safari's engine, as Debian ships it: WebKitGTK's MiniBrowser, driven over WebDriver (classic, HTTP and
// JSON) by WebKitGTK's own WebKitWebDriver, in an Xvfb display. Neither playwright-core nor puppeteer-core drives
// it (they drive only the builds they download, which this machine cannot), so the few commands a caller needs
// are sent by hand. The e2e tests (test/e2e/support/webkit.ts), the widget's browser tests
// (scripts/wtr/webkit-launcher.mjs) and scripts/ensure-webkit.mjs share what is here.
import { spawn, spawnSync } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const WEBKIT = {
  driver: '/usr/bin/WebKitWebDriver',
  browser: '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser',
  display: '/usr/bin/Xvfb',
};

/** Moves the X pointer (Debian: xdotool); without a window manager, the window under it has the keyboard focus. */
export const XDOTOOL = '/usr/bin/xdotool';

/** WebKit's pieces missing from this machine (Debian's webkit2gtk-driver and xvfb; scripts/ensure-webkit.mjs installs them). */
export const missingWebKit = () => Object.values(WEBKIT).filter((path) => !existsSync(path));

/**
 * MiniBrowser's toolbar (a URL entry and buttons) keeps its window at least 447 px wide, so a page could never be
 * laid out in a phone's 320 or 360 px. Made of 1 px text and no padding, in a GTK settings folder of the run's own,
 * the toolbar gives way, and the window (and so the page's viewport) takes any width. The page is not drawn by GTK:
 * its fonts and form controls are unchanged.
 */
const NARROW_TOOLBAR = 'entry, button { font-size: 1px; min-width: 0; min-height: 0; padding: 0; margin: 0; border-width: 0; }\n';

/**
 * Starts Xvfb, WebKitWebDriver and one MiniBrowser session in it; `screen` is the display's size (a window larger
 * than it is cut off in screenshots), `env` more of the browser's environment (TZ). Resolves with the display
 * (':99'), `send` for a WebDriver command of the session (`path` after /session/{id}, e.g. '/window/rect'; it
 * resolves with the command's value) and `close`, which ends the session and every process started.
 */
export async function startWebKit({ screen = '1280x900', env = {} } = {}) {
  const processes = [];
  const settings = mkdtempSync(join(tmpdir(), 'webkit-gtk-'));
  const stopAll = () => {
    for (const child of processes.reverse()) child.kill('SIGKILL');
    rmSync(settings, { recursive: true, force: true });
  };
  try {
    mkdirSync(join(settings, 'gtk-3.0'));
    writeFileSync(join(settings, 'gtk-3.0', 'gtk.css'), NARROW_TOOLBAR);
    const display = await startDisplay(processes, screen);
    const port = await freePort();
    const driverEnv = { ...process.env, ...env, DISPLAY: display, XDG_CONFIG_HOME: settings };
    const driver = spawn(WEBKIT.driver, [`--port=${port}`, '--host=127.0.0.1'], { env: driverEnv, stdio: 'ignore' });
    processes.push(driver);
    const base = `http://127.0.0.1:${port}`;
    await Promise.race([untilAnswers(`${base}/status`), new Promise((_, reject) => driver.once('error', reject))]);
    const session = await command('POST', `${base}/session`, {
      capabilities: { alwaysMatch: { 'webkitgtk:browserOptions': { binary: WEBKIT.browser, args: ['--automation'] } } },
    });
    const at = `${base}/session/${session.sessionId}`;
    return {
      display,
      send: (method, path, body) => command(method, `${at}${path}`, body),
      close: async () => {
        await command('DELETE', at).catch(() => undefined);
        stopAll();
      },
    };
  } catch (error) {
    stopAll();
    throw error;
  }
}

/**
 * Puts the X pointer at (x, y) of `display`, where the window is (it opens at 0, 0): with no window manager,
 * the window under the pointer has the keyboard focus, and a page without it fires no focus events. False when
 * xdotool is missing.
 */
export function pointAt(display, x = 1, y = 1) {
  if (!existsSync(XDOTOOL)) return false;
  return spawnSync(XDOTOOL, ['mousemove', String(x), String(y)], { env: { ...process.env, DISPLAY: display } }).status === 0;
}

/** An X display of its own (Xvfb picks a free number and writes it to the pipe given by -displayfd). */
function startDisplay(processes, screen) {
  const xvfb = spawn(WEBKIT.display, ['-displayfd', '3', '-screen', '0', `${screen}x24`, '-nolisten', 'tcp'], { stdio: ['ignore', 'ignore', 'ignore', 'pipe'] });
  processes.push(xvfb);
  return new Promise((resolve, reject) => {
    let written = '';
    xvfb.stdio[3].on('data', (chunk) => {
      written += chunk.toString();
      if (written.includes('\n')) resolve(`:${written.trim()}`);
    });
    xvfb.once('error', reject);
    xvfb.once('exit', (code) => reject(new Error(`Xvfb exited (${code}) before naming its display`)));
  });
}

/**
 * A port for WebKitWebDriver, from below Linux's ephemeral range (as test/support/free-port.ts picks them, and
 * why): one the kernel hands out for an outgoing connection could be taken before the driver binds it.
 */
async function freePort() {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = randomInt(20_000, 32_001);
    const free = await new Promise((resolve) => {
      const probe = createServer();
      probe.once('error', () => resolve(false));
      probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
    });
    if (free) return port;
  }
  throw new Error('no free port for WebKitWebDriver between 20000 and 32000 in 50 tries');
}

/** Polls `url` until it answers, for a process just started (WebKitWebDriver says nothing when ready). */
async function untilAnswers(url, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const answered = await fetch(url).then(
      () => true,
      () => false,
    );
    if (answered) return;
    if (Date.now() > deadline) throw new Error(`${url} did not answer within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** One WebDriver command: its `value`, or an error naming WebDriver's. */
async function command(method, url, body) {
  const res = await fetch(url, { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  const answer = await res.json();
  if (!res.ok) throw new Error(`WebDriver ${method} ${new URL(url).pathname}: ${answer.value.error}: ${answer.value.message}`);
  return answer.value;
}
