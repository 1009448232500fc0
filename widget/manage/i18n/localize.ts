import { en } from './en.js';
import type { ManageTranslation } from './translation.js';

/** English comes with the view; each other language is a pack of its own, fetched by a page in that language. */
const PACKS: Record<string, () => Promise<ManageTranslation>> = {
  de: () => import('./de.js').then((pack) => pack.de),
  fr: () => import('./fr.js').then((pack) => pack.fr),
  es: () => import('./es.js').then((pack) => pack.es),
  nl: () => import('./nl.js').then((pack) => pack.nl),
  ar: () => import('./ar.js').then((pack) => pack.ar),
};

/**
 * The view's strings in the widget's language ('de-AT' takes 'de'); English for a language the
 * view does not speak, or a pack that cannot be fetched (the view then still works, in English).
 */
export function loadManageTranslation(lang: string): Promise<ManageTranslation> {
  const load = PACKS[lang.toLowerCase().split('-')[0] ?? ''];
  return load ? load().then((words) => words ?? en, () => en) : Promise.resolve(en);
}
