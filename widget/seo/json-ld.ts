import type { Organization, Treatment, WebsiteSite } from '../../contract/index.js';
import { DAY_NAMES } from '../../contract/rules/days.js';

/**
 * Local SEO: the clinic as schema.org structured data (JSON-LD) in the host
 * page's <head>, where search engines read it; the widget's shadow DOM is
 * not read for it. A `Dentist` (a MedicalBusiness and a LocalBusiness) with
 * its PostalAddress, OpeningHoursSpecification per open day, telephone, url,
 * image and a priceRange from the treatments' fees. Only plain fields are
 * used, never the HTML ones. A part of its own, fetched once the content
 * shows (structured-data.ts, vite.config.ts): no first render needs it.
 */

/** The content it is made from: what the widget has loaded (any part may be missing). */
export interface StructuredDataSource {
  organization?: Organization;
  site?: WebsiteSite;
  treatments?: Treatment[];
}

export interface PostalAddress {
  '@type': 'PostalAddress';
  streetAddress?: string;
  addressLocality?: string;
  addressRegion?: string;
  postalCode?: string;
  addressCountry?: string;
}

export interface OpeningHoursSpecification {
  '@type': 'OpeningHoursSpecification';
  dayOfWeek: `https://schema.org/${(typeof DAY_NAMES)[number]}`;
  opens: string;
  closes: string;
}

export interface DentistJsonLd {
  '@context': 'https://schema.org';
  '@type': 'Dentist';
  name: string;
  url?: string;
  telephone?: string;
  email?: string;
  image?: string;
  logo?: string;
  address?: PostalAddress;
  openingHoursSpecification?: OpeningHoursSpecification[];
  priceRange?: string;
  currenciesAccepted?: string;
  sameAs?: string[];
}

const SCRIPT_SELECTOR = 'script[type="application/ld+json"][data-clinic-booking]';

/** Drops the properties that are empty: an empty string is no better than none to a search engine. */
function present<T extends object>(value: T): T {
  return Object.fromEntries(
    Object.entries(value).filter(([, v]) => v !== undefined && v !== null && v !== '' && !(Array.isArray(v) && v.length === 0)),
  ) as T;
}

/** "60.00" → "60", "350.50" → "350.50". */
const amount = (cents: number) => (cents % 100 === 0 ? String(cents / 100) : (cents / 100).toFixed(2));

/** "£60–£350.50" from the lowest and highest base_fee, with the clinic's currency symbol (or its code). */
function priceRange(treatments: readonly Treatment[], organization: Organization): string | undefined {
  const fees = treatments.map((treatment) => Math.round(Number(treatment.base_fee) * 100)).filter(Number.isFinite);
  if (fees.length === 0) return undefined;
  const symbol = organization.currency_symbol || `${organization.currency} `;
  const [low, high] = [Math.min(...fees), Math.max(...fees)];
  return low === high ? `${symbol}${amount(low)}` : `${symbol}${amount(low)}–${symbol}${amount(high)}`;
}

/** One specification per open day, Monday first; a closed day, or one left out, is not listed. */
function openingHours(site: WebsiteSite): OpeningHoursSpecification[] {
  return DAY_NAMES.flatMap((day) => {
    const hours = site.opening_hours[day];
    if (!hours || hours.is_closed) return [];
    return [{ '@type': 'OpeningHoursSpecification' as const, dayOfWeek: `https://schema.org/${day}` as const, opens: hours.open, closes: hours.close }];
  });
}

/** The clinic as a schema.org Dentist; undefined without the organization, which names it. */
export function clinicJsonLd({ organization, site, treatments }: StructuredDataSource): DentistJsonLd | undefined {
  if (!organization) return undefined;
  const address = present<PostalAddress>({
    '@type': 'PostalAddress',
    streetAddress: organization.address,
    addressLocality: organization.city,
    addressRegion: organization.state,
    postalCode: organization.postal_code,
    addressCountry: organization.country,
  });
  const socials = site ? [site.social_facebook, site.social_instagram, site.social_twitter, site.social_linkedin] : [];
  return present<DentistJsonLd>({
    '@context': 'https://schema.org',
    '@type': 'Dentist',
    name: organization.name,
    url: organization.website,
    telephone: organization.phone || site?.contact_phone,
    email: organization.email || site?.contact_email,
    image: organization.logo || site?.hero_bg_image || site?.about_image,
    logo: organization.logo ?? undefined,
    address: Object.keys(address).length > 1 ? address : undefined,
    openingHoursSpecification: site ? openingHours(site) : undefined,
    priceRange: treatments ? priceRange(treatments, organization) : undefined,
    currenciesAccepted: organization.currency,
    sameAs: socials.filter((url): url is string => Boolean(url)),
  });
}

/**
 * Puts the clinic's JSON-LD in document.head: one
 * `<script type="application/ld+json" data-clinic-booking>` per page, however
 * many widgets it has (the last content loaded wins; the same clinic gives the
 * same text, and it is only rewritten when it changes). Nothing when the
 * content has no organization; the `no-structured-data` attribute is asked
 * before (structured-data.ts).
 */
export function publishJsonLd(content: StructuredDataSource): void {
  const data = clinicJsonLd(content);
  if (!data) return;
  // `<` escaped, so no value can close the script element if the page is ever serialised.
  const text = JSON.stringify(data).replace(/</g, '\\u003c');
  let script = document.head.querySelector<HTMLScriptElement>(SCRIPT_SELECTOR);
  if (!script) {
    script = document.createElement('script');
    script.type = 'application/ld+json';
    script.dataset.clinicBooking = '';
    document.head.append(script);
  }
  if (script.textContent !== text) script.textContent = text;
}
