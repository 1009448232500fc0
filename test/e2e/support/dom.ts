/*
 * The few DOM shapes the functions run in the page (page.evaluate) use. The
 * root tsconfig has no DOM lib, on purpose (server code must not see browser
 * globals), so these tests describe what they touch instead of adding it.
 * Types only: functions passed to evaluate run in the browser and cannot use
 * anything imported here at run time.
 */

export interface DomElement {
  id: string;
  localName: string;
  textContent: string | null;
  getAttribute(name: string): string | null;
  shadowRoot: DomRoot | null;
}

export interface DomRoot {
  activeElement: DomElement | null;
  querySelector(selector: string): DomElement | null;
  querySelectorAll(selector: string): Iterable<DomElement>;
}

export interface DomDocument extends DomRoot {
  documentElement: { scrollWidth: number; clientWidth: number };
  getElementById(id: string): DomElement | null;
}

export interface FormControl extends DomElement {
  value: string;
}

export interface SelectControl extends FormControl {
  selectedIndex: number;
  options: Iterable<{ text: string; value: string }>;
}

export interface ImageElement extends DomElement {
  complete: boolean;
  naturalWidth: number;
}

/** In a page function: `(globalThis as unknown as PageGlobals).document`. */
export interface PageGlobals {
  document: DomDocument;
}
