/*
 * The tiny interface a browser engine's driver gives the booking flow (test/e2e/support/patient-flow.ts):
 * open a page, run a script in it, click as a pointer does, type and press keys. Chromium (playwright-core),
 * Firefox (puppeteer-core over WebDriver BiDi) and WebKit (WebKitWebDriver, WebDriver classic) each implement
 * it in a file of their own (engine-*.ts). Which element a step means is decided here, by the same scripts
 * in every engine, so the three cannot disagree about it; each driver only brings its engine's real input.
 */

export type Engine = 'chromium' | 'firefox' | 'webkit';

/** The keys the keyboard-only flow presses. */
export type Key = 'Tab' | 'Enter' | 'Space' | 'ArrowRight';

/**
 * An element of the booking form, as a step names it: the first one matching `css` (inside the form's shadow
 * root) that is rendered, visible, not disabled (nor aria-disabled), not inside something inert or busy (times
 * still loading), and whose text (whitespace collapsed) contains `text`.
 */
export interface Target {
  css: string;
  text?: string;
}

/** One page in one engine, driven with that engine's real input. */
export interface EngineDriver {
  readonly engine: Engine;
  /** Loads `url` and waits for its load event. */
  open(url: string): Promise<void>;
  /** What a function body (`return …`, its arguments in `arguments`) returns in the page: JSON values only. */
  run<T>(body: string, ...args: unknown[]): Promise<T>;
  /** Clicks what `target` finds (FIND's element), with the engine's pointer input at its centre, scrolled into view. */
  click(target: Target): Promise<void>;
  /** Types `text` as key presses into the element that has focus. */
  type(text: string): Promise<void>;
  press(key: Key): Promise<void>;
  close(): Promise<void>;
}

/** An installed engine's browser, one page of its own (own storage: the widget keeps its draft in sessionStorage) per test. */
export interface EngineBrowser {
  newPage(): Promise<EngineDriver>;
  close(): Promise<void>;
}

/** The hosts whose shadow roots lead to the booking form's elements. */
export const FORM_HOSTS = ['clinic-booking', 'clinic-booking-form'] as const;

/** In-page: whether an element is one a Target finds. Shared by every script below and by WebKit's pick. */
const MATCHES = `const usable = (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden' && !el.disabled
    && el.getAttribute('aria-disabled') !== 'true' && !el.closest('[inert], [aria-busy="true"]');
  const matches = (el, css, text) => el.matches(css) && usable(el) && (!text || el.textContent.replace(/\\s+/g, ' ').includes(text));`;
/** In-page: `form`, the booking form's shadow root (undefined before the widget has rendered it). */
const FORM = `let form = document;
  for (const host of ${JSON.stringify(FORM_HOSTS)}) form = form?.querySelector(host)?.shadowRoot;`;
/** In-page: `found`, the elements (css, text) = arguments[0], arguments[1] finds, in document order. */
const FOUND = `${MATCHES} ${FORM}
  const found = form ? [...form.querySelectorAll(arguments[0])].filter((el) => matches(el, arguments[0], arguments[1])) : [];`;
/** In-page: `focused`, the element that has focus, through shadow roots. */
const FOCUSED = `let focused = document.activeElement;
  while (focused?.shadowRoot?.activeElement) focused = focused.shadowRoot.activeElement;`;

/** Scripts run through EngineDriver.run (or, for FIND, the engine's own handle-returning evaluate). */
export const IN_PAGE = {
  /** (css, text): the first element found, or null. */
  find: `${FOUND} return found[0] ?? null;`,
  /** (css, text): how many elements are found. */
  count: `${FOUND} return found.length;`,
  /** (css, text, name): attribute `name` of the first element found, or null. */
  attribute: `${FOUND} return found[0]?.getAttribute(arguments[2]) ?? null;`,
  /** (css, text): the first element's text, whitespace collapsed, or null. */
  text: `${FOUND} return found[0] ? found[0].textContent.replace(/\\s+/g, ' ').trim() : null;`,
  /** (css, text, name): when the focused element is one the target finds, its attribute `name` ('' when absent); else null. */
  focused: `${MATCHES} ${FOCUSED}
    return focused && matches(focused, arguments[0], arguments[1]) ? focused.getAttribute(arguments[2]) ?? '' : null;`,
  /** (): the focused element, in words, for a failure message. */
  focusedInWords: `${FOCUSED}
    return focused ? [focused.localName, focused.id && '#' + focused.id, focused.className && '.' + String(focused.className).trim().replace(/\\s+/g, '.'), ' "' + (focused.textContent ?? '').replace(/\\s+/g, ' ').trim().slice(0, 40) + '"'].join('') : 'nothing';`,
  /**
   * (css, text, ...elements): the index of the first of `elements` a target finds, or -1 (WebKit's elements, found
   * by WebDriver; each an argument of its own, as WebKitWebDriver turns references into elements only there).
   */
  pick: `${MATCHES} return [...arguments].slice(2).findIndex((el) => matches(el, arguments[0], arguments[1]));`,
  /**
   * (element): whether the element itself (or what it holds) is what a pointer at its centre hits, looking through
   * shadow roots as the browser's own hit testing does.
   */
  onTop: `const el = arguments[0];
    const r = el.getBoundingClientRect();
    const [x, y] = [r.left + r.width / 2, r.top + r.height / 2];
    let hit = document.elementFromPoint(x, y);
    for (let inner = hit?.shadowRoot?.elementFromPoint(x, y); inner && inner !== hit; inner = hit.shadowRoot?.elementFromPoint(x, y)) hit = inner;
    return hit === el || el.contains(hit);`,
  /** (): the step heading and any failure shown, for a failure message. */
  state: `${FORM}
    const words = (selector) => form?.querySelector(selector)?.textContent.replace(/\\s+/g, ' ').trim() ?? null;
    return { heading: words('#step-heading'), failure: words('[role="alert"]'), result: words('#result-heading') };`,
};

/** A function body and its arguments as one expression, for the drivers whose evaluate takes a string. */
export const asExpression = (body: string, args: unknown[]): string => `(function () { ${body} }).apply(null, ${JSON.stringify(args)})`;
