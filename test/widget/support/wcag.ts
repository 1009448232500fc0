/**
 * Two WCAG 2.2 AA checks, measured in the browser on what the widget shows, with nothing but DOM
 * APIs every engine has (getBoundingClientRect, focus, elementFromPoint on documents and shadow
 * roots), so the same checks run in Chromium, Firefox and WebKit:
 *
 * - 2.5.8 Target Size (Minimum): every pointer target at least 24 by 24 CSS px, or else spaced: a
 *   24 px circle on its centre meets no other target, nor another small target's circle. A link
 *   inside a sentence is exempt (the "inline" exception).
 * - 2.4.11 Focus Not Obscured (Minimum): an element, once focused, is not entirely hidden by
 *   something drawn over it (a dialog's header or footer, a floating button): at some point inside
 *   it, the topmost element is the element itself or one inside it.
 */

/** What a pointer acts on, or focus lands on. */
const INTERACTIVE = 'button, a[href], input:not([type="hidden"]), textarea, select, summary, [role="button"], [tabindex]';

/** Every element matching selector in root and in every shadow root below it, in document order. */
function deepAll(root: ParentNode, selector: string): HTMLElement[] {
  const found: HTMLElement[] = [];
  for (const el of root.querySelectorAll<HTMLElement>('*')) {
    if (el.matches(selector)) found.push(el);
    if (el.shadowRoot) found.push(...deepAll(el.shadowRoot, selector));
  }
  return found;
}

/** The element as a reader of a failure would find it: tag, id or class, and its words. */
export function nameOf(el: Element): string {
  const id = el.id ? `#${el.id}` : el.classList.length ? `.${[...el.classList].join('.')}` : '';
  const words = (el.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 40) || el.getAttribute('aria-label') || '';
  return `<${el.localName}${id}> "${words}"`;
}

/**
 * Shown and meant to be seen: laid out with a size, not display:none or visibility:hidden, and not
 * inside the widget's visually-hidden helpers (the honeypot, which no one should reach).
 */
function shown(el: HTMLElement): boolean {
  const box = el.getBoundingClientRect();
  if (box.width === 0 || box.height === 0 || getComputedStyle(el).visibility !== 'visible') return false;
  for (let node: Node | null = el; node; node = node.parentNode ?? (node as ShadowRoot).host ?? null) {
    if (node instanceof Element && node.classList.contains('visually-hidden')) return false;
  }
  return true;
}

/** The pointer targets shown under root: controls and links, not what only takes focus by script (tabindex -1). */
export function targets(root: ParentNode): HTMLElement[] {
  return deepAll(root, INTERACTIVE).filter((el) => shown(el) && !(el.getAttribute('tabindex') === '-1' && !el.matches('button, a[href], input, textarea, select')));
}

/** A link drawn inline in a line of text (the privacy notice in the consent, a phone in a sentence): exempt. */
function inSentence(el: HTMLElement): boolean {
  if (el.localName !== 'a' || getComputedStyle(el).display !== 'inline') return false;
  const block = el.parentElement;
  return !!block && (block.textContent ?? '').trim().length > (el.textContent ?? '').trim().length;
}

const MIN = 24;

/** The failures of 2.5.8 among the targets under root, as sentences naming each element and its size. */
export function targetSizeFailures(root: ParentNode): string[] {
  const all = targets(root).map((el) => ({ el, box: el.getBoundingClientRect() }));
  const small = all.filter(({ el, box }) => (box.width < MIN || box.height < MIN) && !inSentence(el));
  const failures: string[] = [];
  for (const target of small) {
    const cx = target.box.left + target.box.width / 2;
    const cy = target.box.top + target.box.height / 2;
    const near = all.find((other) => {
      if (other.el === target.el || other.el.contains(target.el) || target.el.contains(other.el)) return false;
      const { box } = other;
      if (small.includes(other)) return Math.hypot(cx - (box.left + box.width / 2), cy - (box.top + box.height / 2)) < MIN;
      // The distance from the circle's centre to the other target's rectangle.
      const dx = Math.max(box.left - cx, 0, cx - box.right);
      const dy = Math.max(box.top - cy, 0, cy - box.bottom);
      return Math.hypot(dx, dy) < MIN / 2;
    });
    if (near) {
      failures.push(`${nameOf(target.el)} is ${Math.round(target.box.width)}×${Math.round(target.box.height)} px, and ${nameOf(near.el)} is within its 24 px circle`);
    }
  }
  return failures;
}

/** The topmost element at a point, looking into every shadow root on the way down. */
export function deepElementFromPoint(x: number, y: number): Element | null {
  let found = document.elementFromPoint(x, y);
  while (found?.shadowRoot) {
    const inner = found.shadowRoot.elementFromPoint(x, y);
    if (!inner || inner === found) break;
    found = inner;
  }
  return found;
}

/** Whether node is el or inside it, across shadow roots. */
function within(node: Node | null, el: Element): boolean {
  for (; node; node = node.parentNode ?? (node as ShadowRoot).host ?? null) if (node === el) return true;
  return false;
}

/** The element that has focus, looking into shadow roots. */
function deepActive(): Element | null {
  let active = document.activeElement;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  return active;
}

/**
 * Whether a part of el shows at the top: points of a 5 by 5 grid inside its box (and inside the
 * viewport), at least one of which hits el or an element inside it.
 */
export function partlyShown(el: Element): boolean {
  const box = el.getBoundingClientRect();
  const left = Math.max(box.left, 0);
  const right = Math.min(box.right, window.innerWidth);
  const top = Math.max(box.top, 0);
  const bottom = Math.min(box.bottom, window.innerHeight);
  if (right - left < 1 || bottom - top < 1) return false;
  for (let i = 0; i < 5; i++) {
    for (let j = 0; j < 5; j++) {
      const x = left + ((right - left) * (i + 0.5)) / 5;
      const y = top + ((bottom - top) * (j + 0.5)) / 5;
      if (within(deepElementFromPoint(x, y), el)) return true;
    }
  }
  return false;
}

/** Resolves once el has stayed in place over a frame (at most 20 frames): a scroll that focus started is over. */
async function settled(el: Element): Promise<void> {
  const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
  let last = '';
  for (let i = 0; i < 20; i++) {
    await frame();
    const box = el.getBoundingClientRect();
    const now = `${box.left},${box.top}`;
    if (now === last) return;
    last = now;
  }
}

/**
 * The failures of 2.4.11 under root: each element that takes focus (by Tab, by arrows in a roving
 * group, or by script, as a step's heading does) is focused, which scrolls it into view as a browser
 * does, and must then show at least in part. An element that cannot take focus now (disabled, or
 * inert behind a modal dialog) is left out. Focus goes back to where it was.
 */
export async function focusObscuredFailures(root: ParentNode): Promise<string[]> {
  const before = deepActive() as HTMLElement | null;
  const failures: string[] = [];
  for (const el of deepAll(root, INTERACTIVE)) {
    if (!shown(el)) continue;
    // It must receive focus: focus() on the element that has it already scrolls nothing in WebKit.
    if (deepActive() === el) el.blur();
    el.focus();
    if (deepActive() !== el) continue;
    // Chromium and Firefox scroll a focused element into view within focus(); WebKit in a later frame.
    if (!partlyShown(el)) await settled(el);
    if (!partlyShown(el)) {
      const box = el.getBoundingClientRect();
      const over = deepElementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
      failures.push(`${nameOf(el)}, focused, is hidden${over ? ` under ${nameOf(over)}` : ' outside the viewport'}`);
    }
  }
  before?.focus();
  return failures;
}
