import { expect, html } from '@open-wc/testing';
import type { ClinicBooking } from '../../widget/clinic-booking.js';
import { installFakeBff, type FakeBff } from './support/fake-bff.js';
import { clinicFixtures, contentOf, uniqueApiBase } from './support/fixtures.js';
import { deepActiveElement, fixtureReady, formOf, goToStep, markupAll, pressed, stepOf, typeInto } from './support/widget.js';

describe('<clinic-booking>', () => {
  let bff: FakeBff;
  afterEach(() => bff.restore());

  const text = (node: Element | null | undefined) => node?.textContent?.replace(/\s+/g, ' ').trim();
  const cards = (el: ClinicBooking, part: 'treatment' | 'dentist') => [...el.shadowRoot!.querySelectorAll(`[part="${part}"]`)];
  const bookButton = (card: Element) => card.querySelector<HTMLButtonElement>('button')!;

  async function render(sections = 'treatments dentists booking', fixtures = clinicFixtures()): Promise<ClinicBooking> {
    bff = installFakeBff(fixtures, uniqueApiBase());
    return fixtureReady(html`<clinic-booking api-base=${bff.apiBase} sections=${sections}></clinic-booking>`);
  }

  describe('with treatments and dentists loaded', () => {
    it('shows each treatment with name, description, fee in GBP and duration', async () => {
      const el = await render();
      const [checkUp, whitening] = cards(el, 'treatment');
      expect(text(checkUp!.querySelector('h3'))).to.equal('Check-up');
      expect(text(checkUp)).to.contain('Exam');
      expect(text(checkUp)).to.contain('£60.00 · 30 min');
      expect(text(whitening!.querySelector('h3'))).to.equal('Whitening');
      expect(text(whitening)).to.contain('Bleaching');
      expect(text(whitening)).to.contain('£350.50 · 90 min');
      // The same formatting as Intl gives for GBP in English, not a hand-built string.
      expect(text(whitening)).to.contain(new Intl.NumberFormat('en', { style: 'currency', currency: 'GBP' }).format(350.5));
    });

    it('shows each dentist with name, specialization, qualification, experience and consultation fee', async () => {
      const el = await render();
      const [ann, raj] = cards(el, 'dentist');
      expect(text(ann!.querySelector('h3'))).to.equal('Dr Ann Smith');
      expect(text(ann)).to.contain('General');
      expect(text(ann)).to.contain('BDS · 12 years of experience');
      expect(text(ann)).to.contain('Consultation: £45.00');
      expect(text(raj!.querySelector('h3'))).to.equal('Dr Raj Patel');
      expect(text(raj)).to.contain('Orthodontics');
      expect(text(raj)).to.contain('BDS, MOrth · 8 years of experience');
      expect(text(raj)).to.contain('Consultation: £80.00');
    });

    it('labels each "Book" button with what it books', async () => {
      const el = await render();
      expect(cards(el, 'treatment').map((card) => text(bookButton(card)))).to.deep.equal(['Book Check-up', 'Book Whitening']);
      expect(cards(el, 'dentist').map((card) => text(bookButton(card)))).to.deep.equal(['Book Dr Ann Smith', 'Book Dr Raj Patel']);
    });

    it('preselects the treatment in the form and focuses its first field on "Book"', async () => {
      const el = await render();
      bookButton(cards(el, 'treatment')[1]!).click();
      const form = formOf(el);
      await el.updateComplete;
      await form.updateComplete;
      // The treatment step is done: on to the dentist, with its heading focused and announced.
      expect(stepOf(form)).to.equal('dentist');
      // No dentist chosen yet: "Any dentist" is not pressed before the patient presses it.
      expect(pressed(form)).to.equal(undefined);
      expect(deepActiveElement()?.id).to.equal('step-heading');
      await goToStep(form, 'treatment');
      expect(pressed(form)).to.equal('2');
    });

    it('preselects the dentist in the form on "Book"', async () => {
      const el = await render();
      bookButton(cards(el, 'dentist')[1]!).click();
      const form = formOf(el);
      await el.updateComplete;
      await form.updateComplete;
      expect(stepOf(form)).to.equal('day');
      expect(deepActiveElement()?.id).to.equal('step-heading');
      await goToStep(form, 'dentist');
      expect(pressed(form)).to.equal('2');
    });

    it('preselects the treatment again on "Book" after the patient chose another in the form', async () => {
      const el = await render();
      const form = formOf(el);
      bookButton(cards(el, 'treatment')[0]!).click();
      await el.updateComplete;
      await form.updateComplete;
      await typeInto(form, 'treatment_id', '2');
      bookButton(cards(el, 'treatment')[0]!).click();
      await el.updateComplete;
      await form.updateComplete;
      await goToStep(form, 'treatment');
      expect(pressed(form)).to.equal('1');
    });

    it('preselects the treatment and dentist given as attributes', async () => {
      bff = installFakeBff(clinicFixtures(), uniqueApiBase());
      const el = await fixtureReady(html`<clinic-booking api-base=${bff.apiBase} treatment="2" doctor="1"></clinic-booking>`);
      const form = formOf(el);
      // Both prefilled steps are skipped: the form starts at the day.
      expect(stepOf(form)).to.equal('day');
      await goToStep(form, 'dentist');
      expect(pressed(form)).to.equal('1');
      await goToStep(form, 'treatment');
      expect(pressed(form)).to.equal('2');
    });

    it('offers no "Book" buttons when the booking form is not shown', async () => {
      const el = await render('treatments dentists');
      expect(cards(el, 'treatment').length).to.equal(2);
      expect(markupAll(el.shadowRoot!.querySelectorAll('[part="treatment"] button, [part="dentist"] button'))).to.deep.equal([]);
    });

    it('has no axe violations', async () => {
      const el = await render();
      await expect(el).to.be.accessible();
    });
  });

  describe('when the clinic lists no treatments or dentists', () => {
    it('says there is nothing to show yet', async () => {
      const fixtures = clinicFixtures();
      Object.assign(contentOf(fixtures), { treatments: [], dentists: [] });
      const el = await render('treatments dentists', fixtures);
      expect(text(el.shadowRoot!.querySelector('[part="treatments"] p'))).to.equal('Nothing to show yet.');
      expect(text(el.shadowRoot!.querySelector('[part="dentists"] p'))).to.equal('Nothing to show yet.');
      await expect(el).to.be.accessible();
    });
  });
});
