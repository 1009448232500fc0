import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import '../../widget/clinic-booking.js';
import type { ClinicBooking } from '../../widget/clinic-booking.js';
import { installFakeBff, type FakeAnswer, type FakeBff } from './support/fake-bff.js';
import { clinicFixtures, uniqueApiBase } from './support/fixtures.js';

/** The BFF's sentence for this page's origin, as GET /origin-check words it (its words: test/bff/http/origin-check.test.ts). */
const REFUSED = `${location.origin} is not in this BFF's ALLOWED_ORIGINS: add it there to use the widget on that page`;

/** GET /origin-check's answer. */
const originCheck = (allowed: boolean): FakeAnswer => ({
  status: 200,
  body: { success: true, message: allowed ? `${location.origin} may use this API` : REFUSED, data: { allowed } },
});

/** Captures the widget's console.error lines until restore(). */
function captureErrors() {
  const lines: string[] = [];
  const original = console.error;
  console.error = (...args: unknown[]) => lines.push(args.join(' '));
  return { lines, restore: () => (console.error = original) };
}

/**
 * Whether the widget has acted on the origin check's answer (or its failure): set in a task after the
 * answer's body was read, so after the widget's own continuation, which runs in the microtasks before it.
 */
function watchOriginCheck(): () => boolean {
  const fakeFetch = window.fetch;
  let settled = false;
  const settle = () => setTimeout(() => (settled = true));
  window.fetch = async (input, init) => {
    const isCheck = String(input).endsWith('/origin-check');
    let res: Response;
    try {
      res = await fakeFetch(input, init);
    } catch (error) {
      if (isCheck) settle();
      throw error;
    }
    if (!isCheck) return res;
    const json = res.json.bind(res);
    res.json = async () => {
      const body: unknown = await json();
      settle();
      return body;
    };
    return res;
  };
  return () => settled;
}

describe('<clinic-booking>', () => {
  let bff: FakeBff;
  let errors: ReturnType<typeof captureErrors>;
  beforeEach(() => (errors = captureErrors()));
  afterEach(() => {
    errors.restore();
    bff.restore();
  });

  const loadError = (el: ClinicBooking) => el.shadowRoot!.querySelector<HTMLElement>('[part="load-error"]');
  const checks = () => bff.calls.filter((call) => call.path === '/origin-check').length;

  /** A BFF whose content request fails without an answer the page can read, as a CORS refusal does. */
  function unreadableContent(apiBase = uniqueApiBase()) {
    bff = installFakeBff(clinicFixtures(), apiBase);
    bff.on('GET /content', () => 'network-error');
  }

  describe("when the BFF refuses the page's origin", () => {
    it("logs the BFF's sentence naming the origin and ALLOWED_ORIGINS once, however many widgets failed, and tells patients nothing new", async () => {
      unreadableContent();
      bff.on('GET /origin-check', () => originCheck(false));
      const page = await fixture<HTMLElement>(html`<div>
        <clinic-booking api-base=${bff.apiBase}></clinic-booking>
        <clinic-booking api-base=${bff.apiBase}></clinic-booking>
      </div>`);

      await waitUntil(() => errors.lines.length > 0, 'no console error');
      expect(errors.lines).to.deep.equal([`<clinic-booking>: ${REFUSED}`]);
      expect(checks()).to.equal(1);
      for (const el of page.querySelectorAll('clinic-booking')) {
        await waitUntil(() => loadError(el), 'no error state');
        expect(loadError(el)!.querySelector('p')!.textContent).to.equal('We could not load the clinic’s information.');
      }

      // "Try again" fails the same way: the page was told already.
      const el = page.querySelector('clinic-booking')!;
      const failedAgain = new Promise((resolve) => el.addEventListener('clinic-booking:error', resolve, { once: true }));
      loadError(el)!.querySelector('button')!.click();
      await failedAgain;
      expect(checks()).to.equal(1);
      expect(errors.lines).to.have.length(1);
    });
  });

  describe('when the content fails for another reason', () => {
    it('asks nothing when the BFF answered (a 502 the page could read), and asks once an unreadable failure follows', async () => {
      bff = installFakeBff(clinicFixtures(), uniqueApiBase());
      const content = { unreadable: false };
      bff.on('GET /content', () =>
        content.unreadable ? 'network-error' : { status: 502, body: { success: false, message: 'Upstream failed', error_code: 'upstream_unavailable' } },
      );
      bff.on('GET /origin-check', () => originCheck(false));
      const el = await fixture<ClinicBooking>(html`<clinic-booking api-base=${bff.apiBase}></clinic-booking>`);
      await waitUntil(() => loadError(el), 'no error state');

      expect(checks()).to.equal(0);
      expect(errors.lines).to.deep.equal([]);

      content.unreadable = true;
      loadError(el)!.querySelector('button')!.click();
      await waitUntil(() => errors.lines.length > 0, 'no console error after the unreadable failure');
      expect(checks()).to.equal(1);
    });

    it('logs nothing when the BFF allows the origin: the network failed, not CORS', async () => {
      unreadableContent();
      bff.on('GET /origin-check', () => originCheck(true));
      const settled = watchOriginCheck();
      await fixture<ClinicBooking>(html`<clinic-booking api-base=${bff.apiBase}></clinic-booking>`);

      await waitUntil(settled, 'the origin check never settled');
      expect(checks()).to.equal(1);
      expect(errors.lines).to.deep.equal([]);
    });

    it('logs nothing when the BFF cannot be reached at all', async () => {
      unreadableContent();
      bff.on('GET /origin-check', () => 'network-error');
      const settled = watchOriginCheck();
      await fixture<ClinicBooking>(html`<clinic-booking api-base=${bff.apiBase}></clinic-booking>`);

      await waitUntil(settled, 'the origin check never settled');
      expect(errors.lines).to.deep.equal([]);
    });
  });
});
