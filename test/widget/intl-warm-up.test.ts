import { expect, html, waitUntil } from '@open-wc/testing';
import { installFakeBff, type FakeBff } from './support/fake-bff.js';
import { clinicFixtures, uniqueApiBase } from './support/fixtures.js';
import { fixtureReady, shadowOf } from './support/widget.js';

/**
 * The widget loads ICU's data in a throwaway worker (widget/intl-warm-up.ts). This file is a page of
 * its own, and its first widget is the page's first: the worker is started here or not at all.
 */
describe('<clinic-booking>', () => {
  describe("when it warms up Intl and the page's CSP refuses the worker", () => {
    const started: string[] = [];
    let bff: FakeBff;
    let realWorker: typeof Worker;

    before(() => {
      realWorker = window.Worker;
      // As a CSP without blob: in worker-src does: the constructor throws.
      window.Worker = class {
        constructor(url: string | URL) {
          started.push(String(url));
          throw new DOMException('Refused by the Content Security Policy', 'SecurityError');
        }
      } as unknown as typeof Worker;
      bff = installFakeBff(clinicFixtures(), uniqueApiBase());
    });
    after(() => {
      window.Worker = realWorker;
      bff.restore();
    });

    it('renders its content all the same, in its language', async () => {
      const el = await fixtureReady(html`<clinic-booking lang="de" api-base=${bff.apiBase}></clinic-booking>`);

      expect(shadowOf(el).querySelector('[part="hours"]')?.textContent).to.contain('Montag');
      await expect(el).shadowDom.to.be.accessible();
    });

    it('tried one worker, from a blob: URL, making formatters of the widget\'s language', async () => {
      await waitUntil(() => started.length > 0, 'no worker was started');
      const [url] = started;

      expect(started).to.have.length(1);
      expect(url).to.match(/^blob:/);
      const script = await (await fetch(url!)).text();
      expect(script).to.contain('new Intl.DateTimeFormat("de"');
      expect(script).to.contain('new Intl.NumberFormat("de"');
      expect(script).to.match(/close\(\)$/);
    });

    it('starts no second worker for a second widget on the page', async () => {
      await fixtureReady(html`<clinic-booking api-base=${bff.apiBase} sections="treatments"></clinic-booking>`);
      // A task later: a warm-up the second widget had scheduled (a task of its own, set before this one) has run.
      await new Promise((resolve) => setTimeout(resolve));

      expect(started).to.have.length(1);
    });
  });
});
