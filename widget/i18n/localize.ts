import { de } from './de.js';
import { en } from './en.js';
import type { Translation } from './translation.js';

const TRANSLATIONS: Record<string, Translation> = { en, de };

/** The widget's language: its own lang, else the page's, else English; 'de-AT' falls back to 'de'. */
export function languageOf(element: HTMLElement): string {
  const requested = element.lang || element.closest('[lang]')?.getAttribute('lang') || document.documentElement.lang || 'en';
  const base = requested.toLowerCase().split('-')[0] ?? 'en';
  return base in TRANSLATIONS ? requested : 'en';
}

export function translationFor(lang: string): Translation {
  return TRANSLATIONS[lang.toLowerCase().split('-')[0] ?? 'en'] ?? en;
}
