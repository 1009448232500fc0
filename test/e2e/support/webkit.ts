import { missingWebKit, startWebKit, WEBKIT } from '../../../scripts/support/webkit-driver.mjs';

/**
 * WebKit, Safari's engine, as Debian ships it: WebKitGTK's MiniBrowser, driven over WebDriver by WebKitGTK's own
 * WebKitWebDriver, in an Xvfb display (scripts/support/webkit-driver.mjs, which the widget's browser tests use too).
 */
export { WEBKIT };

/** Whether this machine has WebKit's pieces (Debian's webkit2gtk-driver and xvfb; scripts/ensure-webkit.mjs installs them). */
export const webKitInstalled = (): boolean => missingWebKit().length === 0;

export interface WebKitPage {
  /** The X display the browser is in (':99'). */
  display: string;
  /** Loads `url` and waits for its load event. */
  open(url: string): Promise<void>;
  /** The value `body` (a function body: `return ...`) returns in the page. */
  evaluate<T>(body: string): Promise<T>;
  /** Any other WebDriver command of this session (`path` after /session/{id}, e.g. '/window/rect'): its value. */
  send<T>(method: string, path: string, body?: unknown): Promise<T>;
  close(): Promise<void>;
}

/**
 * Starts Xvfb, WebKitWebDriver and one MiniBrowser session in it; `screen` is the display's size
 * (a window larger than it is cut off in screenshots), `env` more of the browser's environment (TZ).
 */
export async function openWebKit({ screen = '1280x900', env = {} }: { screen?: string; env?: Record<string, string> } = {}): Promise<WebKitPage> {
  const session = await startWebKit({ screen, env });
  return {
    display: session.display,
    open: async (url) => void (await session.send('POST', '/url', { url })),
    evaluate: (body) => session.send('POST', '/execute/sync', { script: body, args: [] }),
    send: (method, path, body) => session.send(method, path, body),
    close: () => session.close(),
  };
}
