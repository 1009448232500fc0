import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import type { ClinicBooking } from '../../widget/clinic-booking.js';
import { walkBookingStates } from './support/booking-states.js';
import { reducedMotion } from './support/display-modes.js';
import { installFakeBff, type FakeBff } from './support/fake-bff.js';
import { clinicFixtures, uniqueApiBase } from './support/fixtures.js';
import { deepQueryAll, deferred, fixtureReady, formOf } from './support/widget.js';

/** An element as a test's message names it: its tag, id and classes. */
const named = (node: Element) => `${node.localName}${node.id ? `#${node.id}` : ''}${[...node.classList].map((c) => `.${c}`).join('')}`;

/** The longest of a computed list of times ("0s, 0.3s", "150ms"), in seconds. */
const longest = (times: string) => Math.max(...times.split(',').map((time) => (time.trim().endsWith('ms') ? parseFloat(time) / 1000 : parseFloat(time))));

/**
 * What moves in the widget, in its words: every animation running on an element of it (or on its ::before and
 * ::after), through its shadow roots, and every element or pseudo-element whose styles would animate or
 * transition for longer than 0.01 s, the bound WCAG 2.3.3's techniques and the usual reduced-motion resets use.
 */
function motionIn(el: ClinicBooking): string[] {
  const found = new Set<string>();
  for (const node of [el, ...deepQueryAll(el.shadowRoot!, '*')]) {
    for (const animation of node.getAnimations({ subtree: true })) {
      if (animation.playState === 'running') found.add(`${named(node)} runs ${(animation as CSSAnimation).animationName ?? 'an animation'}`);
    }
    for (const pseudo of [null, '::before', '::after']) {
      const style = getComputedStyle(node, pseudo);
      const where = `${named(node)}${pseudo ?? ''}`;
      if (style.animationName !== 'none' && longest(style.animationDuration) > 0.01) found.add(`${where} animates for ${style.animationDuration}`);
      if (style.transitionProperty !== 'none' && longest(style.transitionDuration) > 0.01) found.add(`${where} transitions for ${style.transitionDuration}`);
    }
  }
  return [...found];
}

/**
 * The system's "reduce motion" setting (prefers-reduced-motion: reduce, WCAG 2.3.3): nothing in the widget moves
 * by itself, and bringing the form into view jumps rather than scrolls smoothly. Emulated through
 * @web/test-runner-commands' emulateMedia where the engine takes it (Chromium: Firefox's WebDriver BiDi and
 * WebKit's WebDriver have no such emulation); elsewhere the tests skip.
 */
describe('<clinic-booking>', () => {
  let bff: FakeBff | undefined;
  afterEach(async () => {
    // Unset where the engine cannot emulate the preference and the test skipped before rendering.
    bff?.restore();
    await reducedMotion(false);
  });

  /** Sets the motion preference, or skips the test where the engine cannot emulate it. */
  async function preferring(context: Mocha.Context, reduce: boolean): Promise<void> {
    if (!(await reducedMotion(reduce))) context.skip();
  }

  async function renderLoading(): Promise<ClinicBooking> {
    bff = installFakeBff(clinicFixtures(), uniqueApiBase());
    bff.on('GET /content', () => deferred<never>().promise);
    const el = await fixture<ClinicBooking>(html`<clinic-booking api-base=${bff.apiBase}></clinic-booking>`);
    await waitUntil(() => el.shadowRoot!.querySelector('.skeleton .bone'), 'no loading skeleton');
    return el;
  }

  describe('when the patient asks for reduced motion', () => {
    it('keeps the loading skeleton still', async function () {
      await preferring(this, true);
      const el = await renderLoading();
      expect(motionIn(el)).to.deep.equal([]);
    });

    it('moves nothing in any state of the booking flow, the whole page of sections around it', async function () {
      await preferring(this, true);
      bff = installFakeBff(clinicFixtures(), uniqueApiBase());
      const el = await fixtureReady(html`<clinic-booking api-base=${bff.apiBase}></clinic-booking>`);
      const moving: string[] = [];
      await walkBookingStates(formOf(el), bff, async (state) => {
        moving.push(...motionIn(el).map((what) => `${state}: ${what}`));
      });
      expect(moving).to.deep.equal([]);
    });

    it('asks for no smooth scrolling when "Book" or the #booking link brings the form into view', async function () {
      await preferring(this, true);
      expect(await scrollsOn(['Book Check-up', 'CTA text'])).to.deep.equal([
        { behavior: 'auto', block: 'start' },
        { block: 'start' },
      ]);
    });
  });

  describe('when the patient has no motion preference', () => {
    // The checks above would pass as well if they could not see motion at all: here they see it.
    it('shimmers the loading skeleton', async function () {
      await preferring(this, false);
      const el = await renderLoading();
      expect(motionIn(el)).to.include('div.bone runs shimmer');
    });

    it('scrolls smoothly to the form on "Book"', async function () {
      await preferring(this, false);
      expect(await scrollsOn(['Book Check-up'])).to.deep.equal([{ behavior: 'smooth', block: 'start' }]);
    });
  });

  /**
   * Clicks each button or link of the widget named by its text (the treatment's "Book", the hero's link to
   * #booking), in turn, and returns what each asked of scrollIntoView. Its options are the only trace of a
   * smooth scroll a test can read without timing one.
   */
  async function scrollsOn(names: string[]): Promise<(boolean | ScrollIntoViewOptions | undefined)[]> {
    bff = installFakeBff(clinicFixtures(), uniqueApiBase());
    const el = await fixtureReady(html`<clinic-booking api-base=${bff.apiBase} sections="site treatments booking"></clinic-booking>`);
    const asked: (boolean | ScrollIntoViewOptions | undefined)[] = [];
    const original = Element.prototype.scrollIntoView;
    Element.prototype.scrollIntoView = function (this: Element, options?: boolean | ScrollIntoViewOptions) {
      asked.push(options);
      original.call(this, options);
    };
    try {
      for (const name of names) {
        const target = deepQueryAll(el.shadowRoot!, 'button, a').find((node) => node.textContent?.replace(/\s+/g, ' ').trim() === name);
        if (!target) throw new Error(`no button or link "${name}"`);
        (target as HTMLElement).click();
        await formOf(el).updateComplete;
      }
    } finally {
      Element.prototype.scrollIntoView = original;
    }
    return asked;
  }
});
