import { expect, fixture, html } from '@open-wc/testing';
import '../../widget/clinic-booking.js';
import type { ClinicBooking } from '../../widget/clinic-booking.js';
import { installFakeBff, type FakeBff } from './support/fake-bff.js';
import { clinicFixtures, uniqueApiBase } from './support/fixtures.js';

describe('<clinic-booking>', () => {
  let bff: FakeBff;
  afterEach(() => bff.restore());

  it('renders the clinic name from the BFF and announces ready', async () => {
    bff = installFakeBff(clinicFixtures(), uniqueApiBase());
    const ready = new Promise((resolve) => document.addEventListener('clinic-booking:ready', resolve, { once: true }));
    const el = await fixture<ClinicBooking>(html`<clinic-booking api-base=${bff.apiBase}></clinic-booking>`);
    await ready;
    await el.updateComplete;
    expect(el.shadowRoot!.textContent).to.contain('Hero title here');
    expect(bff.calls.map((call) => call.path).sort()).to.deep.equal(['/content']);
  });
});
