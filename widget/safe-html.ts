import { noChange } from 'lit';
import { Directive, directive, PartType, type Part, type PartInfo } from 'lit/directive.js';

/**
 * Defence in depth for the spec's HTML fields (hero_subtitle, about_description):
 * the BFF sanitises them already; the browser checks again before rendering.
 * The result is DOM nodes, never a string, so nothing is parsed twice.
 */
const KEEP = new Set(['p', 'br', 'strong', 'em', 'b', 'i', 'u', 'ul', 'ol', 'li', 'a', 'h3', 'h4', 'blockquote', 'span']);
/** Removed with their content (the raw-text ones would otherwise show markup as text). */
const DROP = new Set([
  'script', 'style', 'iframe', 'object', 'embed', 'svg', 'math', 'template',
  'noscript', 'noembed', 'noframes', 'xmp', 'textarea', 'title', 'select',
]);
const LINK_PROTOCOLS = new Set(['http:', 'https:', 'mailto:', 'tel:']);
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
    const href = tag === 'a' ? safeHref(el.getAttribute('href')) : undefined;
    for (const { name } of Array.from(el.attributes)) el.removeAttribute(name);
    if (href) {
      el.setAttribute('href', href);
      el.setAttribute('rel', 'noopener noreferrer nofollow');
      el.setAttribute('target', '_blank');
    }
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
