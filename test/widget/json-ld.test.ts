import { expect, fixtureCleanup, html, waitUntil } from '@open-wc/testing';
import { clinicJsonLd } from '../../widget/seo/json-ld.js';
import { installFakeBff, type FakeBff } from './support/fake-bff.js';
import { clinicFixtures, contentOf, uniqueApiBase } from './support/fixtures.js';
import { fixtureReady } from './support/widget.js';

const SCRIPTS = 'script[type="application/ld+json"][data-clinic-booking]';
const DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;

type Json = Record<string, unknown>;

const isText = (value: unknown) => typeof value === 'string' && value.trim() !== '';
const isUrl = (value: unknown) => typeof value === 'string' && /^https?:\/\/\S+$/.test(value);

/**
 * A hand-written check against schema.org's definitions: every property is
 * one the type has (Dentist: from MedicalBusiness, LocalBusiness, Organization
 * and Thing), and its value is of the type schema.org expects. Returns the
 * problems found, none when it conforms.
 */
function schemaOrgProblems(data: Json): string[] {
  const problems: string[] = [];
  const check = (ok: boolean, problem: string) => ok || problems.push(problem);
  check(data['@context'] === 'https://schema.org', '@context is not https://schema.org');
  check(data['@type'] === 'Dentist' || data['@type'] === 'MedicalClinic', '@type is not Dentist or MedicalClinic');
  const known: Record<string, (value: unknown) => boolean> = {
    '@context': () => true,
    '@type': () => true,
    name: isText, // Thing.name: Text
    url: isUrl, // Thing.url: URL
    image: isUrl, // Thing.image: URL or ImageObject
    logo: isUrl, // Organization.logo: URL or ImageObject
    telephone: isText, // Organization.telephone: Text
    email: isText, // Organization.email: Text
    priceRange: isText, // LocalBusiness.priceRange: Text
    currenciesAccepted: (value) => typeof value === 'string' && /^[A-Z]{3}(, ?[A-Z]{3})*$/.test(value), // ISO 4217 codes
    sameAs: (value) => Array.isArray(value) && value.every(isUrl), // Thing.sameAs: URL
    address: (value) => postalAddressProblems(value as Json).length === 0, // Organization.address: PostalAddress
    openingHoursSpecification: (value) => Array.isArray(value) && value.every((spec) => openingHoursProblems(spec as Json).length === 0),
  };
  for (const [key, value] of Object.entries(data)) {
    const valid = known[key];
    check(valid !== undefined, `${key} is not a property this check knows for Dentist`);
    if (valid) check(valid(value), `${key} has a value of the wrong type: ${JSON.stringify(value)}`);
  }
  check(isText(data.name), 'name is required');
  if (data.address) problems.push(...postalAddressProblems(data.address as Json));
  return problems;
}

function postalAddressProblems(address: Json): string[] {
  const properties = ['streetAddress', 'addressLocality', 'addressRegion', 'postalCode', 'addressCountry'];
  const problems = address['@type'] === 'PostalAddress' ? [] : ['address is not a PostalAddress'];
  for (const [key, value] of Object.entries(address)) {
    if (key === '@type') continue;
    if (!properties.includes(key)) problems.push(`PostalAddress has no property ${key}`);
    else if (!isText(value)) problems.push(`PostalAddress.${key} is not Text`);
  }
  return problems;
}

function openingHoursProblems(spec: Json): string[] {
  const problems = spec['@type'] === 'OpeningHoursSpecification' ? [] : ['not an OpeningHoursSpecification'];
  const days = Array.isArray(spec.dayOfWeek) ? spec.dayOfWeek : [spec.dayOfWeek];
  for (const day of days) if (!DAYS.map((name) => `https://schema.org/${name}`).includes(String(day))) problems.push(`dayOfWeek ${String(day)}`);
  for (const key of ['opens', 'closes']) if (!TIME.test(String(spec[key]))) problems.push(`${key} ${String(spec[key])} is not HH:MM`);
  if (String(spec.opens) >= String(spec.closes)) problems.push('opens is not before closes');
  for (const key of Object.keys(spec)) if (!['@type', 'dayOfWeek', 'opens', 'closes'].includes(key)) problems.push(`OpeningHoursSpecification has no property ${key}`);
  return problems;
}

const jsonLdScripts = () => [...document.head.querySelectorAll<HTMLScriptElement>(SCRIPTS)];
const published = () => JSON.parse(jsonLdScripts()[0]?.textContent ?? 'null') as Json;
/** The builder is a part of its own (seo/structured-data.ts), fetched once the content shows: the script comes after it. */
const structuredData = () => waitUntil(() => jsonLdScripts().length > 0, 'no structured data came');

describe('<clinic-booking>', () => {
  let bff: FakeBff;
  afterEach(() => {
    bff?.restore();
    // The widgets off the page first, then their tags: a widget still on it could write its tag again (a later
    // update publishes once more) into the next test's empty <head>.
    fixtureCleanup();
    for (const script of jsonLdScripts()) script.remove();
  });

  const mount = (template: (api: string) => ReturnType<typeof html>) => {
    bff = installFakeBff(clinicFixtures(), uniqueApiBase());
    return fixtureReady(template(bff.apiBase));
  };

  describe('structured data for local SEO', () => {
    it("adds the clinic to the page's head as a schema.org Dentist that conforms to schema.org", async () => {
      await mount((api) => html`<clinic-booking api-base=${api}></clinic-booking>`);
      await structuredData();

      expect(jsonLdScripts()).to.have.length(1);
      const data = published();
      expect(schemaOrgProblems(data)).to.deep.equal([]);
      expect(data).to.deep.include({
        '@type': 'Dentist',
        name: 'Fixture Dental',
        url: 'https://fixture.test',
        telephone: '+44 20 7946 0000',
        image: 'https://cdn.test/logo.png',
        priceRange: '£60–£350.50',
      });
      expect(data.address).to.deep.equal({
        '@type': 'PostalAddress',
        streetAddress: '1 High St',
        addressLocality: 'London',
        addressRegion: 'Greater London',
        postalCode: 'N1 1AA',
        addressCountry: 'United Kingdom',
      });
    });

    it('lists the opening hours of each open day, the closed Sunday left out', async () => {
      await mount((api) => html`<clinic-booking api-base=${api}></clinic-booking>`);
      await structuredData();

      const specs = published().openingHoursSpecification as Json[];
      expect(specs.map((spec) => spec.dayOfWeek)).to.deep.equal(DAYS.slice(0, 6).map((day) => `https://schema.org/${day}`));
      expect(specs[0]).to.deep.equal({ '@type': 'OpeningHoursSpecification', dayOfWeek: 'https://schema.org/Monday', opens: '08:00', closes: '18:00' });
      expect(specs[5]).to.deep.include({ opens: '09:00', closes: '13:00' });
    });

    it('adds it once per page, with two widgets', async () => {
      // Each widget publishes once it is ready: both must be, before counting the scripts.
      let ready = 0;
      const count = () => (ready += 1);
      document.addEventListener('clinic-booking:ready', count);
      try {
        await mount(
          (api) => html`<div>
            <clinic-booking api-base=${api} sections="site"></clinic-booking>
            <clinic-booking api-base=${api} sections="treatments"></clinic-booking>
          </div>`,
        );
        await waitUntil(() => ready === 2, 'both widgets were never ready');
      } finally {
        document.removeEventListener('clinic-booking:ready', count);
      }
      await structuredData();

      expect(jsonLdScripts()).to.have.length(1);
      expect(document.querySelectorAll('script[type="application/ld+json"]')).to.have.length(1);
      expect(schemaOrgProblems(published())).to.deep.equal([]);
    });

    it('adds nothing with the no-structured-data attribute', async () => {
      await mount((api) => html`<clinic-booking api-base=${api} no-structured-data></clinic-booking>`);

      expect(jsonLdScripts()).to.have.length(0);
    });
  });
});

describe('clinicJsonLd', () => {
  const { organization, site, treatments } = contentOf(clinicFixtures());

  it('is nothing without the organization, which names the clinic', () => {
    expect(clinicJsonLd({ site, treatments })).to.equal(undefined);
  });

  it('gives a single price for a single fee, and none without treatments', () => {
    const one = clinicJsonLd({ organization, treatments: [treatments[0]!] });
    expect(one?.priceRange).to.equal('£60');
    expect(clinicJsonLd({ organization })).to.not.have.property('priceRange');
  });

  it('leaves out empty fields, and falls back to the hero image without a logo', () => {
    const data = clinicJsonLd({ organization: { ...organization, logo: null, state: '', phone: '' }, site });
    expect(data?.image).to.equal('https://cdn.test/hero.jpg');
    expect(data?.telephone).to.equal('+44 20 7946 0000');
    expect(data?.address).to.not.have.property('addressRegion');
    expect(schemaOrgProblems(data as unknown as Json)).to.deep.equal([]);
  });
});
