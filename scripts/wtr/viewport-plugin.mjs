// The `viewport` command of the widget's browser tests (test/widget/support/viewport.ts), in every engine.
// @web/test-runner-commands' own setViewport answers only puppeteer and playwright, throws for a WebDriver
// launcher, and runs before any plugin a config adds, so WebKit's window could never be sized through it.

/** Sizes the page's viewport: puppeteer's page (Chromium, Firefox), or a launcher's own setViewport (WebKit). */
export function viewportPlugin() {
  return {
    name: 'widget-viewport',
    async executeCommand({ command, payload, session }) {
      if (command !== 'viewport') return undefined;
      const { width, height } = payload ?? {};
      if (!Number.isInteger(width) || !Number.isInteger(height)) throw new Error('viewport: give a whole width and height in px');
      const browser = session.browser;
      if (browser.type === 'puppeteer') await browser.getPage(session.id).setViewport({ width, height });
      else if (typeof browser.setViewport === 'function') await browser.setViewport(session.id, { width, height });
      else throw new Error(`viewport: ${browser.name} (${browser.type}) cannot size its page`);
      return true;
    },
  };
}
