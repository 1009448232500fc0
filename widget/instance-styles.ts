/**
 * The styles that differ between one <clinic-booking> and another: the
 * clinic's theme, the height the page reserved, the hero's picture. They live
 * in a constructed stylesheet adopted by the element's shadow root, never in a
 * style attribute: a page whose Content-Security-Policy has no 'unsafe-inline'
 * refuses style attributes (so the theme would vanish and buttons look like
 * text), while constructed stylesheets are always allowed.
 *
 * Each render hands the whole text over; the sheet is rewritten only when it
 * changed, in the same task as the DOM it styles, so no frame shows one without the other.
 */
export class InstanceStyles {
  private readonly sheet = new CSSStyleSheet();
  private text = '';

  /** Adds the sheet after the element's static styles, so its rules win where they meet. */
  adoptInto(root: ShadowRoot): void {
    root.adoptedStyleSheets = [...root.adoptedStyleSheets, this.sheet];
  }

  set(text: string): void {
    if (text === this.text) return;
    this.text = text;
    this.sheet.replaceSync(text);
  }
}

/** A CSS url() of an http(s) URL, with the characters that could end the string escaped. */
export const cssUrl = (url: string) => `url("${url.replace(/["\\\n\r\f]/g, (c) => `\\${c.charCodeAt(0).toString(16)} `)}")`;
