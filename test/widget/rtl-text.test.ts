import { expect, html } from '@open-wc/testing';
import { installFakeBff, type FakeBff } from './support/fake-bff.js';
import { clinicFixtures, uniqueApiBase } from './support/fixtures.js';
import { fixtureReady } from './support/widget.js';

/** Latin text inside Arabic's right-to-left lines keeps its own order. */
describe('<clinic-booking> in Arabic, Latin text', () => {
  let bff: FakeBff;
  afterEach(() => bff.restore());

  it('lays a phone number out left to right, isolated, so its groups are not reordered', async () => {
    bff = installFakeBff(clinicFixtures(), uniqueApiBase());
    const el = await fixtureReady(html`<clinic-booking api-base=${bff.apiBase} sections="site" lang="ar"></clinic-booking>`);
    const phone = el.shadowRoot!.querySelector<HTMLAnchorElement>('a[href^="tel:"]')!;
    expect(getComputedStyle(phone.parentElement!).direction).to.equal('rtl');
    expect(getComputedStyle(phone).direction).to.equal('ltr');
    expect(getComputedStyle(phone).unicodeBidi).to.equal('isolate');
    // "+44 20 7946 0000" on one line: its first group stands left of its last.
    const groups = (text: string) => {
      const range = document.createRange();
      const node = [...phone.childNodes].find((child) => child.nodeType === Node.TEXT_NODE && child.textContent!.includes(text))!;
      const at = node.textContent!.indexOf(text);
      range.setStart(node, at);
      range.setEnd(node, at + text.length);
      return range.getBoundingClientRect().left;
    };
    expect(groups('+44')).to.be.below(groups('0000'));
  });
});
