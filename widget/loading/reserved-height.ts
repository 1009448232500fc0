import { languageOf, loadTranslation } from '../i18n/localize.js';

/*
 * The height the page gave <clinic-booking> before it was defined: its fallback content and any
 * `min-height` the page sets for `clinic-booking:not(:defined)`. The skeleton and the content hold it
 * until everything has rendered (render-stages.ts), so nothing below the widget moves.
 */

/** Measured in the constructor, the one moment of an upgrade when `:defined` does not match yet; 0 for an element made by script. */
export const reservedHeight = (element: HTMLElement): number => (element.isConnected ? Math.round(element.getBoundingClientRect().height) : 0);

/**
 * Until the first render, which waits a task (firstRenderReady), the element holds `height` (0: nothing)
 * by an inline min-height; what it returns gives the page's own inline value back, in the same task as
 * that render, so no frame ever shows the element without that space. Set through CSSOM, which a strict
 * CSP allows (a style attribute it refuses).
 */
export function holdMinHeight(element: HTMLElement, height: number): () => void {
  const own = element.style.minHeight;
  if (height) element.style.minHeight = `${height}px`;
  return () => {
    element.style.minHeight = own;
    // Leave no empty style="" behind on the page's element when the page had set none.
    if (element.getAttribute('style') === '') element.removeAttribute('style');
  };
}

/**
 * The first render (the skeleton) in a task of its own, not in the module's evaluation, so that neither
 * is long; a language other than English waits for its pack as well (one small request, fetched alongside).
 */
export const firstRenderReady = (element: HTMLElement): Promise<unknown> =>
  Promise.all([new Promise((resolve) => setTimeout(resolve)), loadTranslation(languageOf(element))]);
