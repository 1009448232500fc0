// web-test-runner's launcher for WebKit: WebKitGTK's MiniBrowser by WebKitWebDriver in Xvfb
// (scripts/support/webkit-driver.mjs), the one WebKit this machine can have. A launcher of type 'webdriver':
// @web/test-runner-commands' sendKeys calls its sendKeys(sessionId, keys), and the viewport plugin beside it
// (viewport-plugin.mjs) its setViewport. One window runs one test file at a time.
import { pointAt, startWebKit } from '../support/webkit-driver.mjs';

/** Puppeteer's names of the keys the tests press, as WebDriver's key codes (WebDriver, "Keyboard actions"). */
const KEYS = {
  Backspace: '\uE003',
  Tab: '\uE004',
  Enter: '\uE007',
  Shift: '\uE008',
  Control: '\uE009',
  Alt: '\uE00A',
  Escape: '\uE00C',
  Space: ' ',
  PageUp: '\uE00E',
  PageDown: '\uE00F',
  End: '\uE010',
  Home: '\uE011',
  ArrowLeft: '\uE012',
  ArrowUp: '\uE013',
  ArrowRight: '\uE014',
  ArrowDown: '\uE015',
  Delete: '\uE017',
  Meta: '\uE03D',
};

/** 'a', 'Enter' or 'Shift+Tab' as WebDriver's key codes, modifiers first. */
function keyCodes(key) {
  if ([...key].length === 1) return [key];
  return key.split('+').map((name) => {
    if ([...name].length === 1) return name;
    const code = KEYS[name];
    if (!code) throw new Error(`WebKit: no WebDriver key for "${name}" (scripts/wtr/webkit-launcher.mjs knows ${Object.keys(KEYS).join(', ')})`);
    return code;
  });
}

/** The page's viewport, as the tests' own helpers measure it. */
const VIEWPORT = 'return [innerWidth, innerHeight]';

export class WebKitLauncher {
  name = 'WebKit';
  type = 'webdriver';
  // One window: a second file at once would share it.
  concurrency = 1;
  /** @type {Promise<import('../support/webkit-driver.mjs').WebKitSession> | undefined} */
  #browser;
  #active = new Set();
  /** How much taller the window is than the page in it (MiniBrowser's toolbar). */
  #chrome = 0;

  /** The browser, started with the first session rather than with the runner, so that a failure fails sessions. */
  #session() {
    this.#browser ??= startWebKit().then(async (webkit) => {
      try {
        // Without a window manager, the window under the X pointer has the keyboard focus; without it, :focus and
        // :focus-visible match nothing. The pointer rests on the toolbar, at the window's corner, off the page.
        if (!pointAt(webkit.display)) throw new Error('WebKit: xdotool is missing (Debian: xdotool), and without it the page never has the focus');
        this.#chrome = await webkit.send('POST', '/execute/sync', { script: 'return outerHeight - innerHeight', args: [] });
        return webkit;
      } catch (error) {
        await webkit.close();
        throw error;
      }
    });
    return this.#browser;
  }

  async startSession(sessionId, url) {
    const webkit = await this.#session();
    this.#active.add(sessionId);
    // Each file starts at 800 × 600, as @web/test-runner-chrome starts Chromium's and Firefox's pages.
    await this.setViewport(sessionId, { width: 800, height: 600 });
    await webkit.send('POST', '/url', { url });
  }

  isActive(sessionId) {
    return this.#active.has(sessionId);
  }

  async getBrowserUrl() {
    return (await this.#session()).send('GET', '/url');
  }

  async stopSession(sessionId) {
    this.#active.delete(sessionId);
    // A blank page stops whatever the test page still runs (timers, a reload loop).
    await (await this.#session()).send('POST', '/url', { url: 'about:blank' });
    return {};
  }

  startDebugSession() {
    throw new Error('WebKit has no debug session here: debug in Chromium (npx web-test-runner --manual)');
  }

  async stop() {
    const browser = this.#browser;
    this.#browser = undefined;
    await (await browser?.catch(() => undefined))?.close();
  }

  /** @web/test-runner-commands' sendKeys: each of `keys` ('a', 'Enter', 'Shift+Tab') pressed and released in turn. */
  async sendKeys(_sessionId, keys) {
    const actions = keys.flatMap((key) => {
      const codes = keyCodes(key);
      return [...codes.map((value) => ({ type: 'keyDown', value })), ...codes.reverse().map((value) => ({ type: 'keyUp', value }))];
    });
    await (await this.#session()).send('POST', '/actions', { actions: [{ type: 'key', id: 'keyboard', actions }] });
  }

  /**
   * The page's viewport made `width` × `height`: the window that much larger than the page. Resolves once the page
   * itself measures that size (the window's new size reaches it a moment after WebDriver answers), and throws if
   * the window cannot be that size.
   */
  async setViewport(_sessionId, { width, height }) {
    const webkit = await this.#session();
    await webkit.send('POST', '/window/rect', { width, height: height + this.#chrome });
    const deadline = Date.now() + 5_000;
    for (;;) {
      const [innerWidth, innerHeight] = await webkit.send('POST', '/execute/sync', { script: VIEWPORT, args: [] });
      if (innerWidth === width && innerHeight === height) return;
      if (Date.now() > deadline) throw new Error(`WebKit: asked for a ${width} × ${height} viewport, the page has ${innerWidth} × ${innerHeight}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}
