// The `forced-colors` command of the widget's browser tests (test/widget/support/forced-colors.ts).
// @web/test-runner-commands' emulateMedia passes forcedColors only to playwright; to puppeteer, which runs
// Chromium here, it gives only prefers-color-scheme and prefers-reduced-motion, and puppeteer's own
// emulateMediaFeatures refuses forced-colors. Chromium's DevTools protocol emulates it (as DevTools' Rendering
// panel does), so this asks it directly. Engines without that protocol (Firefox over WebDriver BiDi, WebKit)
// answer false, and the tests that need it skip there.

/** A DevTools session per test page, kept while forced colours are on: its emulation ends when it detaches. */
const sessions = new Map();

export function forcedColorsPlugin() {
  return {
    name: 'widget-forced-colors',
    async executeCommand({ command, payload, session }) {
      if (command !== 'forced-colors') return undefined;
      const active = payload?.active === true;
      const held = sessions.get(session.id);
      if (!active) {
        sessions.delete(session.id);
        await held?.detach().catch(() => {});
        return true;
      }
      if (held) return true;
      const browser = session.browser;
      if (browser.type !== 'puppeteer') return false;
      const page = browser.getPage(session.id);
      let cdp;
      try {
        cdp = await page.createCDPSession();
      } catch {
        return false; // Firefox: puppeteer speaks WebDriver BiDi to it, which has no such emulation.
      }
      await cdp.send('Emulation.setEmulatedMedia', { features: [{ name: 'forced-colors', value: 'active' }] });
      sessions.set(session.id, cdp);
      return true;
    },
  };
}
