import type { WebsiteSite } from '../server/contract/index.js';

/**
 * The inline style of the widget's root wrapper: each internal colour is the
 * host page's --clinic-booking-* property when set, else the clinic's own
 * theme from the website settings, else the default theme. Page CSS wins
 * because it is read through var(), never overwritten.
 */
export function themeStyle(site: WebsiteSite | undefined): string {
  const colour = (name: string, clinic: string | undefined, fallback: string) =>
    `--_${name}: var(--clinic-booking-${name}, ${clinic && /^#[0-9a-f]{3,6}$/i.test(clinic) ? clinic : fallback});`;
  return [
    colour('primary', site?.theme_primary, '#0f766e'),
    colour('secondary', site?.theme_secondary, '#b45309'),
    colour('dark', site?.theme_dark, '#134e4a'),
  ].join(' ');
}
