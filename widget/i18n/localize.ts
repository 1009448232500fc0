import type { PatientLanguage } from '../../contract/bff.js';
import { en } from './en.js';
import type { Translation } from './translation.js';

/**
 * English is built in; every other language is a small pack of its own,
 * fetched (one dynamic import, a separate file beside the widget's module)
 * only by a page that uses it, so a language costs nothing to pages that do not.
 * They are the patient e-mail's languages exactly (the compiler says so): the
 * widget's language is what a booking asks its confirmation in (booking-rules.ts).
 */
const PACKS: Record<string, () => Promise<Translation>> = {
  de: () => import('./de.js').then((pack) => pack.de),
  fr: () => import('./fr.js').then((pack) => pack.fr),
  es: () => import('./es.js').then((pack) => pack.es),
  nl: () => import('./nl.js').then((pack) => pack.nl),
  ar: () => import('./ar.js').then((pack) => pack.ar),
} satisfies Record<Exclude<PatientLanguage, 'en'>, unknown>;

/** Languages written right to left, of those the widget speaks. */
const RIGHT_TO_LEFT = new Set(['ar']);

const loaded = new Map<string, Translation>([['en', en]]);
const loading = new Map<string, Promise<Translation>>();

/** A language tag's language: 'de-AT' -> 'de'. */
export const baseOf = (lang: string) => lang.toLowerCase().split('-')[0] ?? 'en';

/** The language of a widget's (languageOf's) e-mails: its base, English or one of PACKS, so one the BFF writes in. */
export const mailLanguageOf = (lang: string) => baseOf(lang) as PatientLanguage;

/** The widget's language: its own lang, else the page's, else English; 'de-AT' falls back to 'de'. */
export function languageOf(element: HTMLElement): string {
  const requested = element.lang || element.closest('[lang]')?.getAttribute('lang') || document.documentElement.lang || 'en';
  const base = baseOf(requested);
  return base === 'en' || base in PACKS ? requested : 'en';
}

/** The language's strings if they are here already (English always is), else undefined: see loadTranslation. */
export function translationFor(lang: string): Translation | undefined {
  return loaded.get(baseOf(lang));
}

/**
 * The language's strings, fetching its pack once per page (every widget of the
 * page shares the one request). A pack that cannot be fetched (offline, a
 * release that removed it) leaves the widget in English rather than blank.
 */
export function loadTranslation(lang: string): Promise<Translation> {
  const base = baseOf(lang);
  const ready = loaded.get(base);
  if (ready) return Promise.resolve(ready);
  const load = PACKS[base];
  if (!load) return Promise.resolve(en);
  let pending = loading.get(base);
  if (!pending) {
    pending = load()
      .catch(() => en)
      .then((translation) => (loaded.set(base, translation), translation));
    loading.set(base, pending);
  }
  return pending;
}

/** 'rtl' for a language written right to left, else 'ltr'. */
export const directionOf = (lang: string): 'rtl' | 'ltr' => (RIGHT_TO_LEFT.has(baseOf(lang)) ? 'rtl' : 'ltr');
