import { FORM_HOSTS, IN_PAGE, type EngineBrowser, type Key } from './engine-driver.js';
import { openWebKit, type WebKitPage } from './webkit.js';

export { webKitInstalled } from './webkit.js';

/** A WebDriver reference to an element or a shadow root: `{ "element-6066-…": id }` or `{ "shadow-6066-…": id }`. */
type Reference = Record<string, string>;
const idOf = (reference: Reference): string => Object.values(reference)[0]!;

/** WebDriver's code points for the keys pressed (WebDriver, "Keyboard actions"). */
const KEYS: Record<Key, string> = { Tab: '\uE004', Enter: '\uE007', Space: ' ', ArrowRight: '\uE014' };

/** Each character of `keys` pressed and released, as one key input source's actions. */
const keyActions = (keys: string[]) => ({
  actions: [{ type: 'key', id: 'keyboard', actions: keys.flatMap((value) => [{ type: 'keyDown', value }, { type: 'keyUp', value }]) }],
});

/** A mouse's press and release at the element's centre (in view already), as one pointer input source's actions. */
const pointerClick = (element: Reference) => ({
  actions: [
    {
      type: 'pointer',
      id: 'mouse',
      parameters: { pointerType: 'mouse' },
      actions: [
        { type: 'pointerMove', duration: 0, origin: element, x: 0, y: 0 },
        { type: 'pointerDown', button: 0 },
        { type: 'pointerUp', button: 0 },
      ],
    },
  ],
});

/**
 * WebKitGTK's MiniBrowser by WebKitWebDriver in Xvfb (test/e2e/support/webkit.ts), in Europe/London:
 * a session of its own per page. An element inside the widget is reached as WebDriver does it, through
 * each host's shadow root (Get Element Shadow Root, Find Elements From Shadow Root); which of those a
 * step means is the shared script's choice (IN_PAGE.pick). Clicks are WebDriver's Element Click (scrolled
 * into view, the pointer at the element's centre) and keys its actions, both as input the page receives.
 */
export async function startWebKit(): Promise<EngineBrowser> {
  const pages = new Set<WebKitPage>();
  return {
    async newPage() {
      const page = await openWebKit({ env: { TZ: 'Europe/London' } });
      pages.add(page);
      // As large as the other engines' viewports (the display is 1280 x 900, with no window manager to frame it).
      await page.send('POST', '/window/rect', { width: 1280, height: 900 });
      const run = <T>(body: string, ...args: unknown[]) => page.send<T>('POST', '/execute/sync', { script: body, args });
      const shadowRoot = (host: Reference) => page.send<Reference>('GET', `/element/${idOf(host)}/shadow`);
      /** The booking form's shadow root, host by host. */
      const formRoot = async (): Promise<Reference> => {
        let root = await shadowRoot(await page.send<Reference>('POST', '/element', { using: 'css selector', value: FORM_HOSTS[0] }));
        for (const host of FORM_HOSTS.slice(1)) {
          root = await shadowRoot(await page.send<Reference>('POST', `/shadow/${idOf(root)}/element`, { using: 'css selector', value: host }));
        }
        return root;
      };
      return {
        engine: 'webkit',
        open: (url) => page.open(url),
        run,
        async click(target) {
          const candidates = await page.send<Reference[]>('POST', `/shadow/${idOf(await formRoot())}/elements`, { using: 'css selector', value: target.css });
          const index = await run<number>(IN_PAGE.pick, target.css, target.text ?? '', ...candidates);
          if (index < 0) throw new Error(`webkit: nothing to click at ${JSON.stringify(target)}`);
          const element = candidates[index]!;
          try {
            await page.send('POST', `/element/${idOf(element)}/click`, {});
          } catch (error) {
            // WebKitWebDriver answers "element click intercepted" for a text field inside a shadow root that
            // nothing covers. Where the page's own hit test, through the shadow roots, finds the element at its
            // centre, the same click goes as pointer actions there; anything really covering it still fails.
            if (!String(error).includes('element click intercepted') || !(await run<boolean>(IN_PAGE.onTop, element))) throw error;
            await page.send('POST', '/actions', pointerClick(element));
          }
        },
        type: async (text) => void (await page.send('POST', '/actions', keyActions([...text]))),
        press: async (key) => void (await page.send('POST', '/actions', keyActions([KEYS[key]]))),
        async close() {
          pages.delete(page);
          await page.close();
        },
      };
    },
    async close() {
      for (const page of pages) await page.close();
      pages.clear();
    },
  };
}
