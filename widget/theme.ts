import type { WebsiteSite } from '../contract/index.js';
import { HEX_COLOUR_PATTERN } from '../contract/rules/patterns.js';
import { DEFAULT_THEME } from '../contract/rules/theme.js';

const DARK_TEXT = '#0f172a';

/** WCAG relative luminance of a hex colour. */
function luminance(hex: string): number {
  const digits = hex.length === 4 ? [...hex.slice(1)].map((d) => d + d).join('') : hex.slice(1);
  const [r, g, b] = [0, 2, 4].map((i) => {
    const channel = parseInt(digits.slice(i, i + 2), 16) / 255;
    return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

const contrast = (a: string, b: string) => {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
};

/**
 * The theme of the widget's root wrapper (declarations for its own stylesheet,
 * instance-styles.ts, never a style attribute): each internal colour is the
 * host page's --clinic-booking-* property when set, else the clinic's own
 * theme from the website settings, else the default theme. Page CSS wins
 * because it is read through var(), never overwritten.
 *
 * A clinic's brand colour may be light: text on it then turns dark, and links
 * (drawn on white) use the dark theme colour instead, so WCAG AA contrast
 * (4.5:1) holds whatever colours the clinic chose.
 *
 * Links and outline buttons follow the page's --clinic-booking-primary when
 * the page sets it and not --clinic-booking-link: a page that recolours the
 * widget gets one colour throughout. CSS cannot check that colour's contrast
 * on white, so a page choosing a light primary should also set
 * --clinic-booking-link (and --clinic-booking-on-primary) to darker ones.
 */
export function themeStyle(site: WebsiteSite | undefined): string {
  const pick = (clinic: string | undefined, fallback: string) => (clinic && HEX_COLOUR_PATTERN.test(clinic) ? clinic : fallback);
  const primary = pick(site?.theme_primary, DEFAULT_THEME.primary);
  const dark = pick(site?.theme_dark, DEFAULT_THEME.dark);
  const onPrimary = contrast(primary, '#ffffff') >= 4.5 ? '#ffffff' : DARK_TEXT;
  const link = contrast(primary, '#ffffff') >= 4.5 ? primary : contrast(dark, '#ffffff') >= 4.5 ? dark : DARK_TEXT;
  return [
    `--_primary: var(--clinic-booking-primary, ${primary});`,
    `--_secondary: var(--clinic-booking-secondary, ${pick(site?.theme_secondary, DEFAULT_THEME.secondary)});`,
    `--_dark: var(--clinic-booking-dark, ${dark});`,
    `--_on-primary: var(--clinic-booking-on-primary, ${onPrimary});`,
    `--_link: var(--clinic-booking-link, var(--clinic-booking-primary, ${link}));`,
  ].join(' ');
}
