import { aTimeout, expect, html, waitUntil } from '@open-wc/testing';
import type { ClinicBooking } from '../../widget/clinic-booking.js';
import { sanitizeHtml } from '../../widget/safe-html.js';
import { installFakeBff, type FakeBff } from './support/fake-bff.js';
import { clinicFixtures, contentOf, uniqueApiBase } from './support/fixtures.js';
import { deepQueryAll, deepText, fixtureReady, markup, markupAll, statusOf } from './support/widget.js';

declare global {
  interface Window {
    __xss?: number;
  }
}

const IMG = '<img src=x onerror="window.__xss=1">';
const SCRIPT = '<script>window.__xss=1</script>';

/** Clinic data as a compromised upstream could send it, past a BFF that failed to clean it. */
function hostileFixtures() {
  const fixtures = clinicFixtures({
    site: {
      hero_title: `Title ${IMG}`,
      hero_subtitle: '<p>Safe <img src=x onerror="window.__xss=1"> <a href="javascript:window.__xss=1">click</a> <a href="https://ok.test/">ok</a></p>',
      about_description: '<p onclick="window.__xss=1">About</p><iframe src="javascript:window.__xss=1"></iframe><svg><script>window.__xss=1</script></svg>',
      faqs: [{ question: `Question ${SCRIPT}`, answer: 'Answer' }],
      testimonials: [{ photo: 'https://cdn.test/t.jpg', name: 'Quoted', role: 'Patient', comment: `Comment ${IMG} ${SCRIPT}` }],
      social_facebook: 'javascript:window.__xss=1',
      map_url: 'javascript:window.__xss=1',
      team_members: [{ photo: 'javascript:window.__xss=1', name: 'Member', role: 'Role', linkedin: 'javascript:window.__xss=1' }],
    },
  });
  const { treatments, dentists } = contentOf(fixtures);
  treatments[0]!.treatment_name = `Treatment ${IMG}`;
  dentists[0]!.doctor_name = `Doctor ${SCRIPT}`;
  return fixtures;
}

describe('<clinic-booking>', () => {
  let bff: FakeBff;
  afterEach(() => {
    bff.restore();
    delete window.__xss;
  });

  async function render(): Promise<ClinicBooking> {
    delete window.__xss;
    bff = installFakeBff(hostileFixtures(), uniqueApiBase());
    const el = await fixtureReady(html`<clinic-booking api-base=${bff.apiBase}></clinic-booking>`);
    await aTimeout(50); // an injected image would have failed to load and run onerror by now
    return el;
  }

  describe('with markup in text fields', () => {
    it('shows it as literal text', async () => {
      const el = await render();
      const root = el.shadowRoot!;
      expect(root.querySelector('[part="hero"] h2')!.textContent).to.equal(`Title ${IMG}`);
      expect(root.querySelector('[part="treatment"] h3')!.textContent).to.equal(`Treatment ${IMG}`);
      expect(root.querySelector('[part="dentist"] h3')!.textContent).to.equal(`Doctor ${SCRIPT}`);
      expect(root.querySelector('[part="faqs"] summary')!.textContent).to.equal(`Question ${SCRIPT}`);
      expect(root.querySelector('[part="testimonials"] blockquote')!.textContent).to.contain(`Comment ${IMG} ${SCRIPT}`);
      expect(root.textContent).to.contain('<img');
    });

    it('shows it as text in the form choices too', async () => {
      const el = await render();
      const text = deepText(el.shadowRoot!);
      expect(text).to.contain(`Treatment ${IMG}`);
      expect(text).to.contain(`Doctor ${SCRIPT}`);
    });

    it('creates no element from it anywhere in the shadow DOM, and runs nothing', async () => {
      const el = await render();
      expect(markupAll(deepQueryAll(el.shadowRoot!, 'img[src="x"], script, iframe, svg'))).to.deep.equal([]);
      expect(window.__xss).to.equal(undefined);
    });
  });

  describe('with dangerous markup in the HTML fields', () => {
    it('keeps the allowed markup of hero_subtitle and drops handlers, images and javascript: links', async () => {
      const el = await render();
      const rich = el.shadowRoot!.querySelector('[part="hero"] .rich')!;
      expect(rich.querySelector('p')!.textContent).to.contain('Safe');
      expect(markup(rich.querySelector('img'))).to.equal(null);
      const links = [...rich.querySelectorAll('a')];
      expect(links.map((a) => a.textContent)).to.deep.equal(['click', 'ok']);
      expect(links[0]!.hasAttribute('href')).to.equal(false);
      expect(links[1]!.getAttribute('href')).to.equal('https://ok.test/');
      expect(links[1]!.getAttribute('rel')).to.contain('noopener');
    });

    it('drops event handler attributes, iframes and scripts in SVG from about_description', async () => {
      const el = await render();
      const about = el.shadowRoot!.querySelector('[part="about"] .rich')!;
      expect(about.textContent).to.equal('About');
      expect(markup(about.querySelector('p'))).to.equal('<p>About</p>');
    });

    it('leaves no onerror or on* attribute and no javascript: URL anywhere', async () => {
      const el = await render();
      const all = deepQueryAll(el.shadowRoot!, '*');
      const handlers = all.filter((node) => [...node.attributes].some((attr) => attr.name.startsWith('on')));
      expect(handlers.map((node) => node.outerHTML)).to.deep.equal([]);
      const scriptUrls = all.filter((node) => [...node.attributes].some((attr) => /^\s*javascript:/i.test(attr.value)));
      expect(scriptUrls.map((node) => node.outerHTML)).to.deep.equal([]);
      expect(window.__xss).to.equal(undefined);
    });

    it("keeps a link's title, as the shared rule (and so the BFF) allows, and opens the link safely", () => {
      const holder = document.createElement('div');
      holder.append(sanitizeHtml('<a href="https://ok.test/" title="Our map" class="x" onclick="x()">map</a>'));
      expect(holder.innerHTML).to.equal(
        '<a href="https://ok.test/" title="Our map" rel="noopener noreferrer nofollow" target="_blank">map</a>',
      );
    });

    it('cleans HTML the same way through sanitizeHtml() itself', () => {
      const holder = document.createElement('div');
      holder.append(sanitizeHtml('<p>x<img src=x onerror="window.__xss=1"><a href="javascript:alert(1)" onclick="x()">y</a></p>'));
      expect(holder.innerHTML).to.equal('<p>x<a>y</a></p>');
    });
  });

  describe('with URL fields that are not http(s)', () => {
    it('links none of them and shows no image from them', async () => {
      const el = await render();
      const root = el.shadowRoot!;
      const socialNames = [...root.querySelectorAll('[part="social"] a')].map((a) => a.textContent);
      expect(socialNames).not.to.include('Facebook');
      expect([...root.querySelectorAll('[part="contact"] a')].map((a) => a.textContent)).not.to.include('View on map');
      const member = root.querySelector('[part="team"] .member')!;
      expect(markup(member.querySelector('img'))).to.equal(null);
      expect(markup(member.querySelector('a'))).to.equal(null);
    });
  });

  describe('with markup in a status answer', () => {
    it('shows the name as text', async () => {
      delete window.__xss;
      bff = installFakeBff(clinicFixtures(), uniqueApiBase());
      bff.on('POST /appointments/status', () => ({
        status: 200,
        body: { success: true, message: 'ok', data: { status: 'Scheduled', name: `Name ${IMG}`, date: '2030-03-04', time: '10:00' } },
      }));
      const el = await fixtureReady(html`<clinic-booking api-base=${bff.apiBase} sections="status"></clinic-booking>`);
      const status = statusOf(el);
      status.shadowRoot!.querySelector('input')!.value = 'K7QF-2M9X-PA4T-Z3RW-8HNC';
      status.shadowRoot!.querySelector('form')!.requestSubmit();
      await waitUntil(() => status.shadowRoot!.querySelector('dl'), 'no status shown');
      await aTimeout(50);
      expect(status.shadowRoot!.querySelector('dl')!.textContent).to.contain(`Name ${IMG}`);
      expect(markupAll(deepQueryAll(el.shadowRoot!, 'img'))).to.deep.equal([]);
      expect(window.__xss).to.equal(undefined);
    });
  });
});
