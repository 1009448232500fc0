import { expect, html } from '@open-wc/testing';
import type { ClinicBookingForm } from '../../widget/booking/booking-form.js';
import { installFakeBff, type FakeBff } from './support/fake-bff.js';
import { clinicFixtures, uniqueApiBase } from './support/fixtures.js';
import { aPatient, bookedResult, booked, control, deepActiveElement, fillForm, fixtureReady, formOf, postsTo, submitForm, typeInto } from './support/widget.js';

const HIDDEN = 'Remove the hidden control or text-direction characters (they often come with pasted text).';
const HIDDEN_DE = 'Bitte die versteckten Steuer- oder Schreibrichtungszeichen entfernen (sie kommen oft beim Einfügen mit).';

describe('<clinic-booking>', () => {
  let bff: FakeBff;
  afterEach(() => bff.restore());

  async function render(lang = 'en'): Promise<ClinicBookingForm> {
    bff = installFakeBff(clinicFixtures(), uniqueApiBase());
    const el = await fixtureReady(html`<clinic-booking api-base=${bff.apiBase} sections="booking" lang=${lang}></clinic-booking>`);
    return formOf(el);
  }

  const text = (node: Element | null | undefined) => node?.textContent?.replace(/\s+/g, ' ').trim();
  const errorOf = (form: ClinicBookingForm, id: string) => text(form.shadowRoot!.querySelector(`#${id}-error`));
  const bookings = () => postsTo(bff.calls, '/appointments/book');

  describe('when patient text holds characters that could hurt whoever reads it', () => {
    const cases = [
      ['patient_name', 'a right-to-left override', 'Jane \u202eeoD'],
      ['patient_name', 'an isolate', 'Jane \u2066Doe\u2069'],
      ['patient_name', 'a lone surrogate', 'Jane \ud800Doe'],
      ['patient_phone', 'a NUL', '+44 20\u00007946 0958'],
      ['address', 'a terminal escape sequence', '2 Low Road\u001b[2J'],
    ] as const;
    for (const [field, kind, value] of cases) {
      it(`marks ${field} with ${kind} as soon as it is left, and sends nothing`, async () => {
        const form = await render();
        await fillForm(form, aPatient());
        await typeInto(form, field, value);

        expect(errorOf(form, field)).to.equal(HIDDEN);
        expect(control(form, field).getAttribute('aria-invalid')).to.equal('true');
        await submitForm(form);
        expect(bookings()).to.have.length(0);
      });
    }

    const notes = [
      ['a BEL', 'Ring twice\u0007'],
      ['a C1 control', 'Ring\u009b twice'],
      ['a right-to-left override', '\u202eRing twice'],
    ] as const;
    for (const [kind, value] of notes) {
      it(`holds back a note with ${kind}: sends nothing and moves focus to the note`, async () => {
        const form = await render();
        await fillForm(form, { ...aPatient(), note: value });
        await submitForm(form);

        expect(text(form.shadowRoot!.querySelector('#form-status'))).to.equal('Please correct 1 field.');
        expect(deepActiveElement()?.id).to.equal('note');
        expect(errorOf(form, 'note')).to.equal(HIDDEN);
        expect(control(form, 'note').getAttribute('aria-invalid')).to.equal('true');
        expect(control(form, 'note').getAttribute('aria-describedby')).to.equal('note-error');
        expect(bookings()).to.have.length(0);
      });
    }

    it('says so in German', async () => {
      const form = await render('de');
      await typeInto(form, 'patient_name', 'Jane \u202eeoD');
      expect(errorOf(form, 'patient_name')).to.equal(HIDDEN_DE);
    });

    it('asks for a name made only of zero-width spaces as for a missing one', async () => {
      const form = await render();
      await fillForm(form, aPatient({ patient_name: '\u200b\u200b\u200b' }));
      await submitForm(form);
      expect(errorOf(form, 'patient_name')).to.equal('Please fill this in.');
      expect(bookings()).to.have.length(0);
    });
  });

  describe('when patient text is harmless', () => {
    it('books with a newline in the note, the name composed (NFC), and a zero-width-only address left out', async () => {
      const form = await render();
      bff.on('POST /appointments/book', () => booked());
      await fillForm(form, { ...aPatient({ patient_name: 'Ame\u0301lie Unte\u0301' }), address: '\u200b', note: 'Nervous patient.\nPrefers mornings.' });
      expect(errorOf(form, 'note')).to.equal(undefined);
      await submitForm(form);
      await bookedResult(form);

      const body = bookings()[0]!.body as Record<string, unknown>;
      expect(body.patient_name).to.equal('Am\u00e9lie Unt\u00e9');
      expect(body.note).to.equal('Nervous patient.\nPrefers mornings.');
      expect(body).not.to.have.property('address');
    });
  });
});
