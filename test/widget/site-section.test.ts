import { expect, html } from '@open-wc/testing';
import type { ClinicBooking } from '../../widget/clinic-booking.js';
import { pictureKey } from '../../contract/rules/pictures.js';
import { installFakeBff, type FakeBff } from './support/fake-bff.js';
import { clinicFixtures, uniqueApiBase } from './support/fixtures.js';
import { deepActiveElement, fixtureReady, formOf, markup, todayName } from './support/widget.js';

type SiteOverrides = Parameters<typeof clinicFixtures>[0];

describe('<clinic-booking>', () => {
  let bff: FakeBff;
  afterEach(() => bff.restore());

  async function render(overrides?: SiteOverrides): Promise<{ el: ClinicBooking; root: ShadowRoot }> {
    bff = installFakeBff(clinicFixtures(overrides), uniqueApiBase());
    const el = await fixtureReady(html`<clinic-booking api-base=${bff.apiBase}></clinic-booking>`);
    return { el, root: el.shadowRoot! };
  }

  const text = (node: Element | null | undefined) => node?.textContent?.replace(/\s+/g, ' ').trim();
  // Every picture comes from the BFF's own origin, keyed by its URL (a strict CSP allows only that origin).
  const viaBff = (url: string) => `${bff.apiBase}/pictures/${pictureKey(url)}`;

  describe('with the website section loaded', () => {
    it('shows the organization logo and name in the header', async () => {
      const { root } = await render();
      const header = root.querySelector('[part="site-header"]')!;
      const logo = header.querySelector('img')!;
      expect(logo.getAttribute('src')).to.equal(viaBff('https://cdn.test/logo.png'));
      expect(logo.alt).to.equal('Fixture Dental');
      expect(text(header.querySelector('.brand'))).to.equal('Fixture Dental');
    });

    it('shows the hero title, HTML subtitle, badge, background image and CTA', async () => {
      const { root } = await render();
      const hero = root.querySelector<HTMLElement>('[part="hero"]')!;
      expect(text(hero.querySelector('h2'))).to.equal('Hero title here');
      expect(hero.querySelector('.rich p strong')?.textContent).to.equal('bold');
      expect(text(hero.querySelector('.rich'))).to.equal('Subtitle with bold');
      expect(text(hero.querySelector('.badge'))).to.equal('Badge text');
      expect(getComputedStyle(hero).backgroundImage).to.contain(viaBff('https://cdn.test/hero.jpg'));
      const cta = hero.querySelector<HTMLAnchorElement>('[part="cta"]')!;
      expect(text(cta)).to.equal('CTA text');
      expect(cta.getAttribute('href')).to.equal('#booking');
    });

    it('falls back to the clinic name when hero_title is empty', async () => {
      const { root } = await render({ site: { hero_title: '' } });
      expect(text(root.querySelector('[part="hero"] h2'))).to.equal('Fixture Dental');
    });

    it('moves focus to the booking form when the CTA is followed', async () => {
      const { el, root } = await render();
      root.querySelector<HTMLAnchorElement>('[part="cta"]')!.click();
      expect(deepActiveElement()?.id).to.equal('step-heading');
      expect(formOf(el).shadowRoot!.activeElement?.id).to.equal('step-heading');
    });

    it('shows the three stats, each with its caption', async () => {
      const { root } = await render();
      const stats = [...root.querySelectorAll('[part="stats"] li')].map(text);
      expect(stats).to.deep.equal(['15+ years of experience', '24/7 support', '98% success rate']);
    });

    it('shows the about label, title, HTML description and image', async () => {
      const { root } = await render();
      const about = root.querySelector('[part="about"]')!;
      expect(text(about.querySelector('.eyebrow'))).to.equal('About label');
      expect(text(about.querySelector('h3'))).to.equal('About title');
      expect(about.querySelector('.rich em')?.textContent).to.equal('us');
      const image = about.querySelector('img')!;
      expect(image.getAttribute('src')).to.equal(viaBff('https://cdn.test/about.jpg'));
      expect(image.alt).to.equal('About title');
    });

    it('shows each service with its image, title, description and features', async () => {
      const { root } = await render();
      const card = root.querySelector('[part="services"] .card')!;
      expect(card.querySelector('img')!.getAttribute('src')).to.equal(viaBff('https://cdn.test/s.jpg'));
      expect(text(card.querySelector('h3'))).to.equal('Service title');
      expect(text(card.querySelector('p'))).to.equal('Service description');
      expect([...card.querySelectorAll('.features li')].map(text)).to.deep.equal(['One', 'Two']);
    });

    it('shows each team member with photo, name, role and LinkedIn link', async () => {
      const { root } = await render();
      const member = root.querySelector('[part="team"] .member')!;
      const photo = member.querySelector('img')!;
      expect(photo.getAttribute('src')).to.equal(viaBff('https://cdn.test/a.jpg'));
      expect(photo.alt).to.equal('Team Person');
      expect(text(member.querySelector('h3'))).to.equal('Team Person');
      expect(text(member.querySelector('.muted'))).to.equal('Hygienist');
      expect(member.querySelector('a')!.getAttribute('href')).to.equal('https://linkedin.test/in/a');
    });

    it('shows each testimonial with comment, name, role and photo', async () => {
      const { root } = await render();
      const quote = root.querySelector('[part="testimonials"] figure')!;
      expect(text(quote.querySelector('blockquote'))).to.equal('Testimonial comment');
      expect(text(quote.querySelector('figcaption strong'))).to.equal('Happy Patient');
      expect(text(quote.querySelector('figcaption .muted'))).to.equal('Patient');
      expect(quote.querySelector('img')!.getAttribute('src')).to.equal(viaBff('https://cdn.test/t.jpg'));
    });

    it('shows each FAQ as a closed <details> disclosure that opens on its summary', async () => {
      const { root } = await render({
        site: { faqs: [{ question: 'First?', answer: 'One.' }, { question: 'Second?', answer: 'Two.' }] },
      });
      const faqs = [...root.querySelectorAll<HTMLDetailsElement>('[part="faqs"] details')];
      expect(faqs.map((faq) => text(faq.querySelector('summary')))).to.deep.equal(['First?', 'Second?']);
      expect(faqs.map((faq) => text(faq.querySelector('p')))).to.deep.equal(['One.', 'Two.']);
      expect(faqs[0]!.open).to.equal(false);
      faqs[0]!.querySelector('summary')!.click();
      expect(faqs[0]!.open).to.equal(true);
    });

    it('shows opening hours for every day in the clock of its language, closed days as closed', async () => {
      const { root } = await render();
      const rows = [...root.querySelectorAll('[part="hours"] tr')];
      const cells = rows.map((row) => [text(row.querySelector('th'))!.replace(/ Today$/, ''), text(row.querySelector('td'))]);
      expect(cells).to.deep.equal([
        ['Monday', '8:00 AM – 6:00 PM'],
        ['Tuesday', '8:00 AM – 6:00 PM'],
        ['Wednesday', '8:00 AM – 6:00 PM'],
        ['Thursday', '8:00 AM – 6:00 PM'],
        ['Friday', '8:00 AM – 6:00 PM'],
        ['Saturday', '9:00 AM – 1:00 PM'],
        ['Sunday', 'Closed'],
      ]);
    });

    it('shows a day missing from opening_hours as closed', async () => {
      const weekday = { open: '08:00', close: '18:00', is_closed: false };
      const { root } = await render({ site: { opening_hours: { Monday: weekday } } });
      const rows = [...root.querySelectorAll('[part="hours"] tr')];
      expect(rows.length).to.equal(7);
      expect(rows.slice(1).map((row) => text(row.querySelector('td')))).to.deep.equal(Array(6).fill('Closed'));
    });

    it('marks today, and only today, with aria-current="date" and a visible label', async () => {
      const { root } = await render();
      const current = [...root.querySelectorAll('[part="hours"] tr[aria-current="date"]')];
      expect(current.length).to.equal(1);
      expect(text(current[0]!.querySelector('th'))).to.equal(`${todayName()} Today`);
    });

    it('links phone (tel:), email (mailto:), WhatsApp and the map, and shows the address', async () => {
      const { root } = await render();
      const contact = root.querySelector('[part="contact"]')!;
      const hrefs = [...contact.querySelectorAll('address a')].map((a) => a.getAttribute('href'));
      expect(hrefs).to.deep.equal([
        'tel:+442079460000',
        'mailto:hi@fixture.test',
        'https://wa.me/447700900000',
        'https://maps.test/?q=1',
      ]);
      expect(text(contact.querySelector('address'))).to.contain('1 High St, London');
    });

    it('links only the social networks that are not null', async () => {
      const { root } = await render();
      const links = [...root.querySelectorAll<HTMLAnchorElement>('[part="social"] a')];
      expect(links.map((a) => [text(a), a.getAttribute('href')])).to.deep.equal([
        ['Facebook', 'https://facebook.test/fd'],
        ['LinkedIn', 'https://linkedin.test/fd'],
      ]);
    });

    it('shows no social block when every network is null', async () => {
      const { root } = await render({
        site: { social_facebook: null, social_instagram: null, social_twitter: null, social_linkedin: null },
      });
      expect(markup(root.querySelector('[part="social"]'))).to.equal(null);
    });

    it('shows the appointment title as the booking heading and the subtitle in the form', async () => {
      const { el, root } = await render();
      expect(text(root.querySelector('#booking-heading'))).to.equal('Appointment title');
      expect(text(formOf(el).shadowRoot!.querySelector('form > p.muted'))).to.equal('Appointment subtitle');
    });

    it('shows the footer description', async () => {
      const { root } = await render();
      expect(text(root.querySelector('[part="site-footer"]'))).to.equal('Footer description');
      // At the end of the page, after the booking and status sections, not in the middle.
      expect(root.querySelector('.root')!.lastElementChild!.getAttribute('part')).to.equal('site-footer');
    });

    it('uses section_labels as the section headings', async () => {
      const { root } = await render({
        site: {
          section_labels: {
            services: 'L services', team: 'L team', testimonials: 'L testimonials', faqs: 'L faqs', hours: 'L hours',
            contact: 'L contact', treatments: 'L treatments', dentists: 'L dentists', status: 'L status',
          },
        },
      });
      const headings = [...root.querySelectorAll('section > h2')].map(text);
      expect(headings).to.include.members([
        'L services', 'L team', 'L testimonials', 'L faqs', 'L hours', 'L contact', 'L treatments', 'L dentists', 'L status',
      ]);
    });

    it('uses the translated headings where section_labels has none', async () => {
      const { root } = await render({ site: { section_labels: {} } });
      const headings = [...root.querySelectorAll('section > h2')].map(text);
      expect(headings).to.include.members(['Services', 'Our team', 'What patients say', 'Questions and answers', 'Opening hours', 'Contact']);
    });

    it('uses the translated heading, never an empty one, when a section label is empty', async () => {
      const { root } = await render({ site: { section_labels: { services: '', treatments: '', dentists: '', status: '' } } });
      const headings = [...root.querySelectorAll('section > h2')].map(text);
      expect(headings).not.to.include('');
      expect(headings).to.include.members(['Services', 'Treatments', 'Our dentists', 'Check a booking']);
    });

    it('leaves the SEO fields to the host page', async () => {
      const { root } = await render({ site: { seo_title: 'SEO-TITLE-X', seo_description: 'SEO-DESC-X', seo_keywords: 'SEO-KW-X' } });
      expect(root.textContent).not.to.match(/SEO-(TITLE|DESC|KW)-X/);
    });

    it('has no axe violations with every section shown', async () => {
      const { el } = await render();
      await expect(el).to.be.accessible();
    });
  });
});
