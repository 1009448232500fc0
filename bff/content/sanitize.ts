import sanitizeHtml from 'sanitize-html';
import type { Dentist, Organization, Treatment, WebsiteSite } from '../../contract/index.js';
import {
  ALLOWED_HTML_ATTRIBUTES,
  ALLOWED_HTML_TAGS,
  ALLOWED_LINK_SCHEMES,
  httpUrlOrUndefined,
  SAFE_LINK_ATTRIBUTES,
} from '../../contract/rules/index.js';

/**
 * Basic formatting only: no scripts, no event handlers, no styles, no
 * iframes; links only to http(s), mailto: and tel:, and always opening safely.
 */
const HTML_POLICY: sanitizeHtml.IOptions = {
  allowedTags: [...ALLOWED_HTML_TAGS],
  // rel and target are set by transformTags below; listing them lets them survive.
  allowedAttributes: { ...ALLOWED_HTML_ATTRIBUTES, a: [...(ALLOWED_HTML_ATTRIBUTES.a ?? []), 'rel', 'target'] },
  allowedSchemes: [...ALLOWED_LINK_SCHEMES],
  allowedSchemesAppliedToAttributes: ['href'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  transformTags: {
    a: sanitizeHtml.simpleTransform('a', { ...SAFE_LINK_ATTRIBUTES }),
  },
};

/** A String (HTML) field, reduced to basic formatting. */
export const safeHtml = (html: string): string => sanitizeHtml(html, HTML_POLICY);

/** A String (URL) field: an absolute http(s) URL, or empty. */
export const safeUrl = (url: string): string => httpUrlOrUndefined(url) ?? '';

/** A nullable URL field: an http(s) URL, or null. */
export const safeNullableUrl = (url: string | null): string | null => httpUrlOrUndefined(url) ?? null;

/**
 * Spec 2.3 with every HTML and URL field made safe to render. Theme colours
 * need nothing here: one that is not hex never gets past parsing, which puts
 * the default theme's colour in its place (parse-upstream.ts).
 */
export function sanitizeSite(site: WebsiteSite): WebsiteSite {
  return {
    ...site,
    hero_subtitle: safeHtml(site.hero_subtitle),
    hero_bg_image: safeUrl(site.hero_bg_image),
    about_description: safeHtml(site.about_description),
    about_image: safeUrl(site.about_image),
    map_url: safeUrl(site.map_url),
    team_members: site.team_members.map((member) => ({ ...member, photo: safeUrl(member.photo), linkedin: safeUrl(member.linkedin) })),
    testimonials: site.testimonials.map((testimonial) => ({ ...testimonial, photo: safeUrl(testimonial.photo) })),
    services: site.services.map((service) => ({ ...service, image: safeUrl(service.image) })),
    social_facebook: safeNullableUrl(site.social_facebook),
    social_instagram: safeNullableUrl(site.social_instagram),
    social_twitter: safeNullableUrl(site.social_twitter),
    social_linkedin: safeNullableUrl(site.social_linkedin),
  };
}

export function sanitizeOrganization(organization: Organization): Organization {
  return { ...organization, logo: safeNullableUrl(organization.logo), website: safeUrl(organization.website) };
}

export const sanitizeTreatment = (treatment: Treatment): Treatment => ({ ...treatment, image_url: safeUrl(treatment.image_url) });

export const sanitizeDentist = (dentist: Dentist): Dentist => ({
  ...dentist,
  signature_image_url: safeUrl(dentist.signature_image_url),
});
