import { expect } from '@open-wc/testing';
import '../../widget/clinic-booking.js';
import type { ClinicBooking } from '../../widget/clinic-booking.js';
import type { WebsiteSite } from '../../contract/index.js';
import { installFakeBff, type FakeBff } from './support/fake-bff.js';
import { clinicFixtures, contentOf, uniqueApiBase } from './support/fixtures.js';
import { deferred } from './support/widget.js';

/**
 * The page around the widget must not move while it loads (CLS), and the widget must not hold the
 * main thread for long (long tasks). The widget is put in the page by innerHTML, so that it is
 * upgraded already in the page, as a parsed <clinic-booking> is when the module runs: the page's
 * `clinic-booking:not(:defined)` rules apply up to that moment (docs/embedding.md).
 */
describe('<clinic-booking>', () => {
  let bff: FakeBff;
  let host: HTMLElement;
  afterEach(() => {
    bff.restore();
    host.remove();
  });

  /** A clinic with a lot to show, without pictures (an unreachable picture would have a say in layout). */
  function bigClinic() {
    const many = <T>(n: number, make: (i: number) => T) => Array.from({ length: n }, (_, i) => make(i));
    const site: Partial<WebsiteSite> = {
      hero_bg_image: '', about_image: '',
      services: many(24, (i) => ({ image: '', title: `Service ${i}`, description: 'What it is and why it helps', features: 'One, Two, Three' })),
      team_members: many(12, (i) => ({ photo: '', name: `Person ${i}`, role: 'Hygienist', linkedin: '' })),
      testimonials: many(24, (i) => ({ photo: '', name: `Patient ${i}`, role: 'Patient', comment: 'Kind words about the clinic, at some length.' })),
      faqs: many(20, (i) => ({ question: `Question ${i}?`, answer: 'An answer.' })),
    };
    const fixtures = clinicFixtures({ site });
    contentOf(fixtures).organization.logo = '';
    return fixtures;
  }

  /**
   * Puts `widget` (markup) into the page between text above and below, with `css` as the page's own
   * style, and records layout shifts from then on.
   */
  function mount(widget: string, css: string, fixtures = bigClinic()) {
    bff = installFakeBff(fixtures, uniqueApiBase());
    const shifts: PerformanceEntry[] = [];
    const observer = new PerformanceObserver((list) => shifts.push(...list.getEntries()));
    observer.observe({ type: 'layout-shift' });
    host = document.createElement('div');
    document.body.append(host);
    host.innerHTML = `<style>${css}</style>
      <h1 style="margin:0">Above the widget</h1>
      ${widget.replace('<clinic-booking', `<clinic-booking api-base="${bff.apiBase}"`)}
      <p id="below">Below the widget</p>`;
    const el = host.querySelector('clinic-booking') as ClinicBooking;
    const ready = new Promise<void>((resolve) => el.addEventListener('clinic-booking:ready', () => resolve(), { once: true }));
    return {
      el,
      below: host.querySelector<HTMLElement>('#below')!,
      ready,
      /** The layout shifts' score, once the browser has reported them. */
      async settle() {
        await ready;
        // A task after the next frame: that frame is rendered, so the shifts it made are reported.
        await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve)));
        shifts.push(...observer.takeRecords());
        observer.disconnect();
        return { score: shifts.reduce((sum, entry) => sum + (entry as PerformanceEntry & { value: number }).value, 0) };
      },
    };
  }

  const ADVICE = 'clinic-booking:not(:defined) { display: flow-root; min-height: 100vh; }';

  describe('on a page that reserves a screen for it (the advice of docs/embedding.md)', () => {
    it('keeps the reserved space in the skeleton', async () => {
      const fixtures = bigClinic();
      const held = deferred<{ status: number; body: unknown }>();
      const { el, below } = mount('<clinic-booking><p>Call to book</p></clinic-booking>', ADVICE, fixtures);
      bff.on('GET /content', () => held.promise);
      await el.updateComplete;
      const skeleton = el.shadowRoot!.querySelector<HTMLElement>('.skeleton')!;
      expect(skeleton.getBoundingClientRect().height).to.equal(innerHeight);
      expect(below.getBoundingClientRect().top).to.be.at.least(innerHeight);
      held.resolve({ status: 200, body: fixtures['/content'] });
    });

    it('moves nothing on the page while it loads and renders (CLS <= 0.02), and the page below stays out of view', async () => {
      const { el, below, settle } = mount('<clinic-booking><p>Call to book</p></clinic-booking>', ADVICE);
      await el.updateComplete;
      const top = below.getBoundingClientRect().top;
      const { score } = await settle();
      expect(score).to.be.at.most(0.02);
      expect(top).to.be.at.least(innerHeight);
      expect(el.getBoundingClientRect().height).to.be.greaterThan(innerHeight);
    });

    // Whether any of those tasks is long (over 50 ms) depends on the machine: bench:widget measures it (its TBT target).
    it('renders the content in several tasks, the sections in the order the page shows them', async () => {
      const { el, settle } = mount('<clinic-booking></clinic-booking>', ADVICE);
      // Which parts each task added: a MutationObserver's callback runs once per task that changed the tree.
      const batches: string[][] = [];
      const seen = new Set<string>();
      const observer = new MutationObserver(() => {
        const added = [...el.shadowRoot!.querySelectorAll('[part]')].map((node) => node.getAttribute('part')!).filter((part) => !seen.has(part));
        for (const part of added) seen.add(part);
        if (added.length) batches.push(added);
      });
      observer.observe(el.shadowRoot!, { childList: true, subtree: true });
      await settle();
      observer.disconnect();
      const batchOf = (part: string) => batches.findIndex((batch) => batch.includes(part));
      expect(batchOf('hero')).to.be.at.least(0);
      expect(batchOf('hero')).to.be.lessThan(batchOf('services'));
      expect(batchOf('services')).to.be.lessThan(batchOf('faqs'));
      expect(batchOf('faqs')).to.be.lessThan(batchOf('treatments'));
      expect(batchOf('treatments')).to.be.lessThan(batchOf('booking'));
      expect(batchOf('booking')).to.be.lessThan(batchOf('status'));
    });

    it('leaves the sections away from the viewport unrendered until they come near (content-visibility), but the booking form', async () => {
      const { el, ready } = mount('<clinic-booking></clinic-booking>', ADVICE);
      await ready;
      const sections = [...el.shadowRoot!.querySelectorAll<HTMLElement>('.root > section')];
      // The hero is in view; the booking form's height varies too much for an estimate to stand in for it.
      const laidOut = sections.filter((section) => section.matches('.hero, #booking'));
      expect(laidOut).to.have.length(2);
      for (const section of laidOut) expect(getComputedStyle(section).contentVisibility, section.getAttribute('part')!).to.equal('visible');
      for (const section of sections.filter((section) => !laidOut.includes(section))) {
        expect(getComputedStyle(section).contentVisibility, section.getAttribute('part')!).to.equal('auto');
      }
    });
  });

  describe('on a page that reserves nothing', () => {
    it('gives the skeleton the height of the fallback it replaces', async () => {
      const fixtures = bigClinic();
      const held = deferred<{ status: number; body: unknown }>();
      const { el, below } = mount('<clinic-booking><p style="margin:0;height:37px">Call to book</p></clinic-booking>', 'clinic-booking { display: block }', fixtures);
      bff.on('GET /content', () => held.promise);
      await el.updateComplete;
      const skeleton = el.shadowRoot!.querySelector<HTMLElement>('.skeleton')!;
      expect(skeleton.getBoundingClientRect().height).to.equal(37);
      expect(below.getBoundingClientRect().top - el.getBoundingClientRect().top).to.be.at.least(37);
      held.resolve({ status: 200, body: fixtures['/content'] });
    });
  });

  describe('with mode="button" and its fallback floating (the advice of docs/embedding.md)', () => {
    it('moves nothing on the page: the widget takes no space in it', async () => {
      const css = `${ADVICE} clinic-booking[mode="button"]:not(:defined) { position: fixed; right: 1rem; bottom: 1rem; min-height: 0; }`;
      const { el, below, settle } = mount('<clinic-booking mode="button"><p>Call to book</p></clinic-booking>', css);
      const top = below.getBoundingClientRect().top;
      const { score } = await settle();
      expect(score).to.equal(0);
      expect(below.getBoundingClientRect().top).to.equal(top);
      expect(el.getBoundingClientRect().height).to.equal(0);
    });
  });
});
