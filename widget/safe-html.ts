import { noChange } from 'lit';
import { Directive, directive, PartType, type Part, type PartInfo } from 'lit/directive.js';
import { ALLOWED_HTML_ATTRIBUTES, ALLOWED_HTML_TAGS, ALLOWED_LINK_SCHEMES, SAFE_LINK_ATTRIBUTES } from '../contract/rules/html.js';

/**
 * Defence in depth for the spec's HTML fields (hero_subtitle, about_description):
 * the BFF sanitises them already; the browser checks again before rendering,
 * by the same allowed subset (contract/rules/html.ts).
 * The result is DOM nodes, never a string, so nothing is parsed twice.
 */
const KEEP = new Set<string>(ALLOWED_HTML_TAGS);
/**
 * Removed with their content (the raw-text ones would otherwise show markup as
 * text). The widget's own list: it follows from how clean() unwraps tags, not
 * from what the clinic may publish, so it is not part of the shared rule.
 */
const DROP = new Set([
  'script', 'style', 'iframe', 'object', 'embed', 'svg', 'math', 'template',
  'noscript', 'noembed', 'noframes', 'xmp', 'textarea', 'title', 'select',
]);
/** URL.protocol names the scheme with its colon. */
const LINK_PROTOCOLS = new Set(ALLOWED_LINK_SCHEMES.map((scheme) => `${scheme}:`));
const HTML_NS = 'http://www.w3.org/1999/xhtml';

function safeHref(value: string | null): string | undefined {
  try {
    const url = new URL(value ?? '');
    return LINK_PROTOCOLS.has(url.protocol) ? url.href : undefined;
  } catch {
    return undefined;
  }
}

function clean(parent: Node): void {
  for (const node of Array.from(parent.childNodes)) {
    if (node.nodeType === Node.TEXT_NODE) continue;
    if (node.nodeType !== Node.ELEMENT_NODE) {
      node.remove(); // comments, processing instructions
      continue;
    }
    const el = node as Element;
    const tag = el.localName.toLowerCase();
    if (DROP.has(tag)) {
      el.remove();
      continue;
    }
    clean(el);
    if (!KEEP.has(tag) || el.namespaceURI !== HTML_NS) {
      el.replaceWith(...Array.from(el.childNodes)); // unwrap, keep the (clean) content
      continue;
    }
    keepAllowedAttributes(el, tag);
  }
}

/**
 * Keeps only the attributes the shared rule allows on the tag (an href only
 * when its scheme is allowed), and makes a link that kept its href open safely.
 */
function keepAllowedAttributes(el: Element, tag: string): void {
  const kept: [string, string][] = [];
  for (const name of ALLOWED_HTML_ATTRIBUTES[tag] ?? []) {
    const value = name === 'href' ? safeHref(el.getAttribute(name)) : el.getAttribute(name);
    if (value != null) kept.push([name, value]);
  }
  for (const { name } of Array.from(el.attributes)) el.removeAttribute(name);
  for (const [name, value] of kept) el.setAttribute(name, value);
  if (kept.some(([name]) => name === 'href')) {
    for (const [name, value] of Object.entries(SAFE_LINK_ATTRIBUTES)) el.setAttribute(name, value);
  }
}

/** Parses html in an inert <template> (no script runs, no image loads) and returns the allowed subset. */
export function sanitizeHtml(html: string): DocumentFragment {
  const template = document.createElement('template');
  template.innerHTML = html;
  clean(template.content);
  return template.content;
}

class SafeHtmlDirective extends Directive {
  private source?: string;

  constructor(info: PartInfo) {
    super(info);
    if (info.type !== PartType.CHILD) throw new Error('safeHtml() only works in child positions');
  }

  render(html: string): DocumentFragment {
    return sanitizeHtml(html);
  }

  override update(_part: Part, [html]: [string]): DocumentFragment | typeof noChange {
    if (html === this.source) return noChange; // keep the rendered nodes, do not re-parse
    this.source = html;
    return this.render(html);
  }
}

/** `${safeHtml(site.about_description)}`: sanitised clinic HTML, re-parsed only when the string changes. */
export const safeHtml = directive(SafeHtmlDirective);
