import { html, nothing, type TemplateResult } from 'lit';
import { DAY_NAMES, type DayName } from '../../contract/rules/days.js';
import { httpUrlOrUndefined } from '../../contract/rules/patterns.js';
import type { Dentist, Organization, WebsiteSite } from '../../contract/index.js';
import type { Translation } from '../i18n/translation.js';
import { timeFormatter } from '../format.js';
import { reaches, type Stage } from '../render-stages.js';
import { cssUrl } from '../instance-styles.js';
import { pictureUrl } from '../picture-url.js';
import { safeHtml } from '../safe-html.js';
import type { WidgetContext } from '../widget-context.js';

/*
 * The clinic's website content (spec 2.3, the `site` of GET /website). Clinic
 * data is always Lit text; only hero_subtitle and about_description are HTML
 * and go through safeHtml. Not rendered here:
 * - care_id and theme_* (theme_* feed theme.ts);
 * - appointment_title / appointment_subtitle: the booking section shows them;
 * - seo_title / seo_description / seo_keywords: they belong to the host page's <head>,
 *   which a widget embedded in someone else's page must not own.
 */

type Child = TemplateResult | typeof nothing;
type LabelKey = 'services' | 'team' | 'testimonials' | 'faqs' | 'hours' | 'contact';

/** A picture of the content, from the BFF's origin (picture-url.ts). */
const img = (src: string, alt: string, apiBase: string, lazy = true): Child => {
  const url = pictureUrl(src, apiBase);
  return url ? html`<img src=${url} alt=${alt} loading=${lazy ? 'lazy' : 'eager'} decoding="async" />` : nothing;
};

const external = (url: string, text: unknown) => html`<a href=${url} rel="noopener noreferrer" target="_blank">${text}</a>`;

/** A section titled by section_labels[key] when the clinic set one, else the translation. */
const section = (site: WebsiteSite, key: LabelKey, fallback: string, body: unknown, extra?: Child) =>
  html`<section part=${key} class=${key} aria-labelledby="cb-${key}">
    <h2 id="cb-${key}">${site.section_labels[key] || fallback}</h2>
    ${body}${extra ?? nothing}
  </section>`;

/** "A, B · C" or one per line becomes a list; a single phrase stays a paragraph. */
const features = (text: string): Child => {
  const items = text.split(/\s*[,·\n]\s*/).filter(Boolean);
  if (items.length > 1) return html`<ul class="features">${items.map((item) => html`<li>${item}</li>`)}</ul>`;
  return text.trim() ? html`<p>${text}</p>` : nothing;
};

const SOCIAL = [
  ['social_facebook', 'Facebook'],
  ['social_instagram', 'Instagram'],
  ['social_twitter', 'X (Twitter)'],
  ['social_linkedin', 'LinkedIn'],
] as const;

/** Its background picture comes through the element's own stylesheet (heroImageRule), never a style attribute. */
function hero(site: WebsiteSite): TemplateResult {
  return html`<section part="hero" class="hero" aria-labelledby="cb-hero">
    <h2 id="cb-hero">${site.hero_title || site.clinic_name}</h2>
    ${site.hero_subtitle ? html`<div class="rich">${safeHtml(site.hero_subtitle)}</div>` : nothing}
    ${site.hero_badge ? html`<p class="badge">${site.hero_badge}</p>` : nothing}
    ${site.cta_text ? html`<a class="button" href="#booking" part="cta">${site.cta_text}</a>` : nothing}
  </section>`;
}

function about(site: WebsiteSite, apiBase: string): Child {
  if (!site.about_title && !site.about_description && !site.about_image) return nothing;
  return html`<section part="about" class="about" aria-labelledby="cb-about">
    <div>
      ${site.about_label ? html`<p class="eyebrow">${site.about_label}</p>` : nothing}
      <h3 id="cb-about">${site.about_title}</h3>
      <div class="rich">${safeHtml(site.about_description)}</div>
    </div>
    ${img(site.about_image, site.about_title, apiBase)}
  </section>`;
}

/** The hero's background picture, for the element's own stylesheet (instance-styles.ts). */
export function heroImageRule(site: WebsiteSite, apiBase: string): string {
  const bg = pictureUrl(site.hero_bg_image, apiBase);
  return bg ? `.hero{--_hero-image:${cssUrl(bg)}}` : '';
}

/** "8:00 AM – 6:00 PM", "08:00–18:00": the dash spaced when the times have spaces of their own. */
const range = (from: string, to: string) => (/\s/.test(from + to) ? `${from} – ${to}` : `${from}–${to}`);

function hours(site: WebsiteSite, t: Translation, lang: string, today: DayName | undefined): Child {
  if (!Object.keys(site.opening_hours).length) return nothing;
  // One formatter for the seven days (as localDayName's, 2024-01-01 a Monday): making one costs more than using it.
  const weekday = new Intl.DateTimeFormat(lang, { weekday: 'long', timeZone: 'UTC' });
  const time = timeFormatter(lang);
  // The space before "Today" is a value, not template text, so the template minifier cannot drop it
  // (an accessible name read "WednesdayToday").
  const rows = DAY_NAMES.map((day, i) => {
    const entry = site.opening_hours[day];
    const isToday = day === today;
    return html`<tr class=${isToday ? 'today' : ''} aria-current=${isToday ? 'date' : nothing}>
      <th scope="row">${weekday.format(Date.UTC(2024, 0, 1 + i))}${isToday ? ' ' : ''}${isToday ? html`<span class="today-label">${t.today}</span>` : nothing}</th>
      <td>${entry && !entry.is_closed ? range(time(entry.open), time(entry.close)) : t.closed}</td>
    </tr>`;
  });
  return section(site, 'hours', t.hoursHeading, html`<table aria-labelledby="cb-hours"><tbody>${rows}</tbody></table>`);
}

function contact(site: WebsiteSite, t: Translation): Child {
  const phone = site.contact_phone.trim();
  const email = site.contact_email.trim();
  const wa = site.whatsapp_number.replace(/\D/g, '');
  const map = httpUrlOrUndefined(site.map_url);
  const rows: [string, unknown][] = [];
  if (phone) rows.push([t.phone, html`<a dir="ltr" href="tel:${phone.replace(/\s+/g, '')}">${phone}</a>`]);
  if (email) rows.push([t.email, /^[^\s@?&]+@[^\s@?&]+$/.test(email) ? html`<a href="mailto:${email}">${email}</a>` : email]);
  if (wa) rows.push([t.whatsapp, external(`https://wa.me/${wa}`, t.whatsapp)]);
  if (site.contact_address || map)
    rows.push([t.address, html`${site.contact_address}${map ? html`<br />${external(map, t.map)}` : nothing}`]);
  const social = SOCIAL.flatMap(([key, name]) => {
    const url = httpUrlOrUndefined(site[key]);
    return url ? [html`<li>${external(url, name)}</li>`] : [];
  });
  if (!rows.length && !social.length) return nothing;
  return section(
    site,
    'contact',
    t.contactHeading,
    rows.length ? html`<address><dl>${rows.map(([dt, dd]) => html`<div><dt>${dt}</dt><dd>${dd}</dd></div>`)}</dl></address>` : nothing,
    social.length ? html`<div part="social" class="social"><h3>${t.followUs}</h3><ul>${social}</ul></div>` : nothing,
  );
}

/**
 * Every visible field of the website object, as page sections in reading order, as far as the staged
 * render has come (render-stages.ts): the top (header, hero, stats) always; 'site-middle' adds about,
 * services and team, 'site-bottom' testimonials and questions, 'site-end' the rest.
 */
export function renderSite(
  site: WebsiteSite,
  organization: Organization | undefined,
  { t, lang, apiBase }: Pick<WidgetContext, 't' | 'lang' | 'apiBase'>,
  today: DayName | undefined,
  dentists: Dentist[] | undefined,
  upTo: Stage | undefined,
): TemplateResult {
  const name = organization?.name || site.clinic_name;
  const stats = [site.stat_years, site.stat_support, site.stat_success];
  // A dentist the dentists section shows is not shown again in the team.
  const team = site.team_members.filter((m) => !dentists?.some((d) => d.doctor_name === m.name));
  return html`
    <header part="site-header" class="site-header">
      ${organization?.logo ? img(organization.logo, name, apiBase, false) : nothing}
      <p class="brand">${name}</p>
    </header>
    ${hero(site)}
    ${stats.some(Boolean)
      ? html`<ul part="stats" class="stats">${stats.map((stat, i) => (stat ? html`<li>${stat} <span>${t.stats[i]}</span></li>` : nothing))}</ul>`
      : nothing}
    ${reaches(upTo, 'site-middle') ? middle(site, t, team, apiBase) : nothing}
    ${reaches(upTo, 'site-bottom') ? bottom(site, t, apiBase) : nothing}
    ${reaches(upTo, 'site-end') ? html`${hours(site, t, lang, today)}${contact(site, t)}` : nothing}
  `;
}

/** The clinic's footer text: the widget puts it last, after every other section it shows. */
export function renderFooter(site: WebsiteSite): Child {
  return site.footer_description ? html`<footer part="site-footer" class="site-footer"><p>${site.footer_description}</p></footer>` : nothing;
}

function middle(site: WebsiteSite, t: Translation, team: WebsiteSite['team_members'], apiBase: string): TemplateResult {
  return html`
    ${about(site, apiBase)}
    ${site.services.length
      ? section(site, 'services', t.servicesHeading, html`<ul class="cards">${site.services.map(
          (s) => html`<li class="card">${img(s.image, '', apiBase)}<h3>${s.title}</h3><p>${s.description}</p>${features(s.features)}</li>`,
        )}</ul>`)
      : nothing}
    ${team.length
      ? section(site, 'team', t.teamHeading, html`<ul class="cards">${team.map((m) => {
          const linkedin = httpUrlOrUndefined(m.linkedin);
          return html`<li class="card member">${img(m.photo, m.name, apiBase)}<h3>${m.name}</h3><p class="muted">${m.role}</p>${
            linkedin ? external(linkedin, html`LinkedIn<span class="visually-hidden">: ${m.name}</span>`) : nothing
          }</li>`;
        })}</ul>`)
      : nothing}
  `;
}

function bottom(site: WebsiteSite, t: Translation, apiBase: string): TemplateResult {
  return html`
    ${site.testimonials.length
      ? section(site, 'testimonials', t.testimonialsHeading, html`<ul class="cards">${site.testimonials.map(
          (q) => html`<li class="card"><figure>
            <blockquote><p>${q.comment}</p></blockquote>
            <figcaption>${img(q.photo, '', apiBase)}<span><strong>${q.name}</strong><br /><span class="muted">${q.role}</span></span></figcaption>
          </figure></li>`,
        )}</ul>`)
      : nothing}
    ${site.faqs.length
      ? section(site, 'faqs', t.faqHeading, site.faqs.map(
          (f) => html`<details><summary>${f.question}</summary><p>${f.answer}</p></details>`,
        ))
      : nothing}
  `;
}
