import { expect, html } from '@open-wc/testing';
import type { ClinicBooking } from '../../widget/clinic-booking.js';
import { walkBookingStates } from './support/booking-states.js';
import { installFakeBff, type FakeBff } from './support/fake-bff.js';
import { clinicFixtures, uniqueApiBase } from './support/fixtures.js';
import { setViewport } from './support/viewport.js';
import { fixtureReady, formOf } from './support/widget.js';

/** An element as a test's message names it: its tag, id and classes, or its text. */
const named = (node: Element) =>
  `${node.localName}${node.id ? `#${node.id}` : ''}${[...node.classList].map((c) => `.${c}`).join('')} "${node.textContent?.replace(/\s+/g, ' ').trim().slice(0, 24)}"`;

/** Every shadow root of the widget: its own and those of the elements it draws (the form). */
function shadowRoots(root: ShadowRoot): ShadowRoot[] {
  return [root, ...[...root.querySelectorAll('*')].flatMap((node) => (node.shadowRoot ? shadowRoots(node.shadowRoot) : []))];
}

/** Every element the widget shows, through its shadow roots; none it hides on purpose (the honeypot, words for screen readers). */
function shownElements(el: ClinicBooking): Element[] {
  return shadowRoots(el.shadowRoot!).flatMap((root) =>
    [...root.querySelectorAll('*')].filter((node) => !node.closest('.visually-hidden, [hidden], style') && node.getClientRects().length > 0),
  );
}

/**
 * What would make a patient scroll sideways or lose text, in the widget's words: the page wider than its window;
 * an element of the widget past the window's left or right edge; a box whose content runs out of its width
 * (text over a button's edge, a row past its card); and a box that clips (overflow hidden or clip) what it holds.
 */
function lostContent(el: ClinicBooking): string[] {
  const problems: string[] = [];
  const page = document.documentElement;
  if (page.scrollWidth > page.clientWidth) problems.push(`the page scrolls sideways: ${page.scrollWidth} px in ${page.clientWidth}`);
  for (const node of shownElements(el)) {
    const box = node.getBoundingClientRect();
    if (box.left < -1 || box.right > page.clientWidth + 1) problems.push(`${named(node)} reaches from ${Math.round(box.left)} to ${Math.round(box.right)} px`);
    const style = getComputedStyle(node);
    if (style.display.startsWith('inline') && style.display !== 'inline-block' && style.display !== 'inline-flex' && style.display !== 'inline-grid') continue;
    const clips = /hidden|clip/.test(`${style.overflowX} ${style.overflowY}`);
    if (node.scrollWidth > node.clientWidth + 1 && style.overflowX !== 'auto' && style.overflowX !== 'scroll') {
      problems.push(`${named(node)} ${clips ? 'clips' : 'spills'} ${node.scrollWidth - node.clientWidth} px of its width`);
    }
    if (clips && node.scrollHeight > node.clientHeight + 1) problems.push(`${named(node)} clips ${node.scrollHeight - node.clientHeight} px of its height`);
  }
  return problems;
}

/** WCAG 1.4.12's text spacing, as its bookmarklet sets it: line height 1.5, letters 0.12em, words 0.16em, paragraphs 2em apart. */
const TEXT_SPACING = `* { line-height: 1.5 !important; letter-spacing: 0.12em !important; word-spacing: 0.16em !important; }
p { margin-bottom: 2em !important; }`;

/** Puts the text spacing into every shadow root of the widget that lacks it (before Lit's content, which it never removes). */
function spaceText(el: ClinicBooking): void {
  for (const root of shadowRoots(el.shadowRoot!)) {
    if (root.querySelector(':scope > style.text-spacing')) continue;
    const style = document.createElement('style');
    style.className = 'text-spacing';
    style.textContent = TEXT_SPACING;
    root.prepend(style);
  }
}

/**
 * Reflow (WCAG 1.4.10) and resized text (1.4.4): a window 320 CSS px wide is what a 1280 px screen shows at
 * 400 % zoom, and a 640 px one at 200 %; the booking flow must fit it in every state, without a sideways scroll
 * or an element past its edge or out of its box. booking-steps.test.ts measures each step's form in a 320 px
 * wide element; this looks at the whole window, at every element, and at the states after the steps (errors,
 * a refusal, the confirmation). Then text spacing (1.4.12) on top of it, and text twice as large on a wide screen.
 */
describe('<clinic-booking>', () => {
  let bff: FakeBff;
  afterEach(async () => {
    bff.restore();
    document.documentElement.style.fontSize = '';
    await setViewport({ width: 800, height: 600 });
  });

  async function render(width: number): Promise<ClinicBooking> {
    await setViewport({ width, height: 640 });
    bff = installFakeBff(clinicFixtures(), uniqueApiBase());
    return fixtureReady(html`<clinic-booking api-base=${bff.apiBase} sections="booking"></clinic-booking>`);
  }

  /** The problems of lostContent in each state of the booking flow, each after `prepare` ran in that state. */
  async function lostInEachState(el: ClinicBooking, prepare: () => void = () => {}): Promise<string[]> {
    const problems: string[] = [];
    await walkBookingStates(formOf(el), bff, async (state) => {
      prepare();
      problems.push(...lostContent(el).map((problem) => `${state}: ${problem}`));
    });
    return problems;
  }

  describe('in a window 320 px wide (400 % zoom)', () => {
    it('shows every state of the booking flow without a sideways scroll or anything out of its box', async () => {
      const el = await render(320);
      expect(await lostInEachState(el)).to.deep.equal([]);
    });

    it('loses no text with WCAG\'s text spacing: line height 1.5, letter-spacing 0.12em, word-spacing 0.16em, paragraphs 2em apart', async () => {
      const el = await render(320);
      const spaced = () => {
        spaceText(el);
        return getComputedStyle(formOf(el).shadowRoot!.querySelector('#step-heading, #result-heading')!).letterSpacing;
      };
      const letterSpacings = new Set<string>();
      expect(await lostInEachState(el, () => void letterSpacings.add(spaced()))).to.deep.equal([]);
      // The spacing did reach the form's own shadow root, in every state (0.12em of its heading's size, never "normal").
      expect([...letterSpacings].every((spacing) => parseFloat(spacing) > 1)).to.equal(true);
    });
  });

  describe('with text twice as large (the page\'s root font size at 200 %, as a browser\'s text size setting does)', () => {
    it('shows every state of the booking flow in a 1280 px window without a sideways scroll or anything out of its box', async () => {
      document.documentElement.style.fontSize = '200%';
      const el = await render(1280);
      expect(await lostInEachState(el)).to.deep.equal([]);
    });
  });
});
