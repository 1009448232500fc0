import { expect, html } from '@open-wc/testing';
import type { ClinicBooking } from '../../widget/clinic-booking.js';
import { REFUSAL_REASONS, type RefusalReason } from '../../contract/rules/bff-api.js';
import { installFakeBff, type FakeBff } from './support/fake-bff.js';
import { clinicFixtures, uniqueApiBase } from './support/fixtures.js';
import { aPatient, failureBox, fillForm, fixtureReady, formOf, refused, settled, submitForm } from './support/widget.js';

const BOOK = 'POST /appointments/book';

/**
 * What the patient reads for each reason the BFF gives, in English and German. Keyed by the
 * contract's list, so a reason added there fails to compile here until it has its words.
 */
const WORDS: Record<RefusalReason, { en: string; de: string }> = {
  in_past: {
    en: 'That time has already passed. Please choose a later one.',
    de: 'Diese Uhrzeit ist schon vorbei. Bitte eine spätere wählen.',
  },
  closed_day: {
    en: 'The clinic is closed on that day. Please choose another day.',
    de: 'An diesem Tag ist die Praxis geschlossen. Bitte einen anderen Tag wählen.',
  },
  outside_hours: {
    en: 'The clinic is not open at that time. Please choose another time.',
    de: 'Zu dieser Uhrzeit ist die Praxis nicht geöffnet. Bitte eine andere Uhrzeit wählen.',
  },
  ends_after_closing: {
    en: 'The treatment would not fit in the opening hours at that time. Please choose an earlier time or another day.',
    de: 'Die Behandlung passt zu dieser Zeit nicht in die Öffnungszeiten. Bitte eine frühere Zeit oder einen anderen Tag wählen.',
  },
  inside_notice: {
    en: 'That time is too soon: the clinic needs more notice. Please choose a later time.',
    de: 'Diese Uhrzeit ist zu kurzfristig: Die Praxis braucht mehr Vorlauf. Bitte eine spätere Zeit wählen.',
  },
  beyond_horizon: {
    en: 'That day is too far ahead to book yet. Please choose an earlier day.',
    de: 'Dieser Tag liegt zu weit in der Zukunft, um ihn schon zu buchen. Bitte einen früheren Tag wählen.',
  },
  off_grid: {
    en: 'An appointment cannot start at that time. Please choose one of the times offered.',
    de: 'Zu dieser Uhrzeit kann kein Termin beginnen. Bitte eine der angebotenen Zeiten wählen.',
  },
  unknown_treatment: {
    en: 'That treatment is no longer offered. Please choose another, or “Not sure yet”.',
    de: 'Diese Behandlung wird nicht mehr angeboten. Bitte eine andere wählen oder „Noch unklar“.',
  },
  unknown_dentist: {
    en: 'That dentist can no longer be booked. Please choose another, or “Any dentist”.',
    de: 'Bei dieser Person kann nicht mehr gebucht werden. Bitte jemand anderen wählen oder „Beliebig“.',
  },
  // A change request's own reasons (the manage view meets them); a booking is never refused so, but would read them.
  inside_change_window: {
    en: 'The appointment is now too close to change online.',
    de: 'Der Termin ist jetzt zu nah, um ihn online zu ändern.',
  },
  move_not_offered: {
    en: 'The clinic does not take requests for another time online.',
    de: 'Die Praxis nimmt Anfragen für eine andere Zeit nicht online an.',
  },
  already_cancelled: {
    en: 'This appointment is already cancelled.',
    de: 'Dieser Termin ist bereits abgesagt.',
  },
  appointment_completed: {
    en: 'This appointment has already taken place.',
    de: 'Dieser Termin hat bereits stattgefunden.',
  },
};

const GENERIC = {
  en: 'The clinic could not accept this booking. Please check your choices, or call the clinic.',
  de: 'Die Praxis konnte diese Buchung nicht annehmen. Bitte Ihre Auswahl prüfen oder die Praxis anrufen.',
};

/** English for integrators that the widget once matched with a regex (/past/ -> "That time has already passed"). */
const PAST_MESSAGE = 'Invalid request: appointment_date and appointment_time are in the past';
/** ... and /closing|opening hours|closed/ -> the opening-hours sentence. */
const CLOSING_MESSAGE = 'Invalid request: the treatment takes 90 minutes and would end after closing time (18:00) on Tuesday';

/**
 * A refused booking (400 validation_error) in the patient's words, chosen by the BFF's reason code alone.
 * The sentences are fetched with the first refusal (i18n/refusals.ts), not with the widget.
 */
describe('<clinic-booking>', () => {
  let bff: FakeBff;
  afterEach(() => bff.restore());

  const text = (node: Element | null | undefined) => node?.textContent?.replace(/\s+/g, ' ').trim();

  /** Books through the form in `lang` against a BFF that refuses with this body; the failure shown and the widget. */
  async function refusedWith(lang: 'en' | 'de', message: string, reason?: string): Promise<{ el: ClinicBooking; failure: string | undefined }> {
    bff = installFakeBff(clinicFixtures(), uniqueApiBase());
    bff.on(BOOK, () => refused(400, 'validation_error', message, reason));
    const el = await fixtureReady(html`<clinic-booking api-base=${bff.apiBase} sections="booking" lang=${lang}></clinic-booking>`);
    const form = formOf(el);
    await fillForm(form, aPatient());
    await submitForm(form);
    const failure = text(await failureBox(form));
    await settled(form);
    return { el, failure };
  }

  for (const lang of ['en', 'de'] as const) {
    describe(`when the BFF refuses with a reason code (lang="${lang}")`, () => {
      for (const reason of REFUSAL_REASONS) {
        it(`says ${reason} in its own words, whatever the English message says`, async () => {
          // The message names the past: the words must follow the code, not the message.
          const { failure } = await refusedWith(lang, PAST_MESSAGE, reason);
          expect(failure).to.equal(WORDS[reason][lang]);
        });
      }
    });

    describe(`when the refusal has no reason code (lang="${lang}")`, () => {
      it('says the generic sentence, even when the English message names the past', async () => {
        const { failure } = await refusedWith(lang, PAST_MESSAGE);
        expect(failure).to.equal(GENERIC[lang]);
      });

      it('says the generic sentence, even when the English message names closing time', async () => {
        const { failure } = await refusedWith(lang, CLOSING_MESSAGE);
        expect(failure).to.equal(GENERIC[lang]);
      });
    });
  }

  describe('when the reason code is not one the widget knows', () => {
    it('says the generic sentence for a code from a newer BFF', async () => {
      const { failure } = await refusedWith('en', PAST_MESSAGE, 'moon_phase');
      expect(failure).to.equal(GENERIC.en);
    });

    it("says the generic sentence for a code that names one of Object's own properties", async () => {
      const { failure } = await refusedWith('en', PAST_MESSAGE, 'constructor');
      expect(failure).to.equal(GENERIC.en);
    });

    it('says the generic sentence for a reason that is not a string, even one that reads as a known code', async () => {
      bff = installFakeBff(clinicFixtures(), uniqueApiBase());
      // ['in_past'] becomes 'in_past' wherever it is used as a key.
      bff.on(BOOK, () => ({ status: 400, body: { success: false, message: PAST_MESSAGE, error_code: 'validation_error', reason: ['in_past'] } }));
      const el = await fixtureReady(html`<clinic-booking api-base=${bff.apiBase} sections="booking"></clinic-booking>`);
      const form = formOf(el);
      await fillForm(form, aPatient());
      await submitForm(form);
      expect(text(await failureBox(form))).to.equal(GENERIC.en);
    });
  });

  describe('when a refusal is shown', () => {
    it('has no axe violations', async () => {
      const { el } = await refusedWith('de', PAST_MESSAGE, 'closed_day');
      await expect(el).to.be.accessible();
    });
  });
});
