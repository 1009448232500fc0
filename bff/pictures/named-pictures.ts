import type { ContentCache } from '../content/content-cache.js';
import { DENTISTS, ORGANIZATION, TREATMENTS, WEBSITE } from '../content/resources.js';

/**
 * Every picture URL the clinic's current content names (already sanitised:
 * http(s) or empty), read from the content cache like any other anonymous
 * read. Only these may be served under /api/pictures.
 */
export async function namedPictures(cache: ContentCache): Promise<Set<string>> {
  const [organization, website, treatments, dentists] = await Promise.all([
    cache.get(ORGANIZATION),
    cache.get(WEBSITE),
    cache.get(TREATMENTS),
    cache.get(DENTISTS),
  ]);
  const site = website.value?.site;
  const urls = [
    organization.value?.data.logo,
    site?.hero_bg_image,
    site?.about_image,
    ...(site?.team_members.map((member) => member.photo) ?? []),
    ...(site?.testimonials.map((testimonial) => testimonial.photo) ?? []),
    ...(site?.services.map((service) => service.image) ?? []),
    ...(treatments.value?.data.map((treatment) => treatment.image_url) ?? []),
    ...(dentists.value?.data.map((dentist) => dentist.signature_image_url) ?? []),
  ];
  return new Set(urls.filter((url): url is string => Boolean(url)));
}
