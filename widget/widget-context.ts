import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { resolveApiBase } from './api.js';
import { en } from './i18n/en.js';
import { directionOf, languageOf, loadTranslation, translationFor } from './i18n/localize.js';
import type { Translation } from './i18n/translation.js';

/** What every part of one <clinic-booking> needs to speak the visitor's language and reach its BFF. */
export interface WidgetContext {
  /** Every string, in the widget's language. */
  readonly t: Translation;
  /** The widget's language tag (e.g. 'de-AT'), for dates, fees and day names. */
  readonly lang: string;
  /** The BFF's /api base URL, without a trailing slash. */
  readonly apiBase: string;
  /** Which way the language is written: the widget's root carries it as its dir. */
  readonly dir: 'ltr' | 'rtl';
}

/** What an inner element uses until <clinic-booking> hands it the real context. */
export const DEFAULT_CONTEXT: WidgetContext = { t: en, lang: 'en', apiBase: '', dir: 'ltr' };

type Host = ReactiveControllerHost & HTMLElement & { apiBase: string };

/**
 * Works out the context once per update of <clinic-booking>, before it
 * renders, and hands it to the sections and inner elements as one object.
 *
 * The object stays the same while the language and the BFF do, so an inner
 * element given it as a property updates only when one of them really changed
 * (Lit compares properties by identity).
 *
 * A language other than English comes in a pack of its own (i18n/localize.ts):
 * the host's first render waits for it (loading/reserved-height.ts); a later
 * switch keeps the current language until the new pack is here, then updates.
 */
export class WidgetContextController implements ReactiveController {
  private current?: WidgetContext;

  constructor(private readonly host: Host) {
    host.addController(this);
  }

  /** The context of the update in progress (or of the last one). */
  get value(): WidgetContext {
    return this.current ?? DEFAULT_CONTEXT;
  }

  hostUpdate(): void {
    // lang may come from the element, an ancestor or <html>: read afresh on every update.
    const lang = languageOf(this.host);
    const apiBase = resolveApiBase(this.host.apiBase);
    if (lang === this.current?.lang && apiBase === this.current.apiBase) return;
    const t = translationFor(lang);
    if (t) this.current = { t, lang, apiBase, dir: directionOf(lang) };
    else {
      if (apiBase !== this.current?.apiBase) this.current = { ...(this.current ?? DEFAULT_CONTEXT), apiBase };
      void loadTranslation(lang).then(() => this.host.requestUpdate());
    }
  }
}
