import { LRUCache } from 'lru-cache';
import type { WebsiteSettings } from '../../contract/index.js';

/** Clinics whose settings are kept parsed: one document each (the demo clinic's is 7 KB of JSON). */
const KEPT_CLINICS = 1000;

interface Parsed {
  /** The JSON text it was parsed from. */
  readonly json: string;
  readonly settings: Readonly<WebsiteSettings>;
}

/** Freezes `value` and everything in it, so one parsed document can be handed to every reader. */
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/**
 * The clinics' website settings documents, each parsed once and kept (frozen,
 * so no reader can change it for the next) while its JSON text stays the
 * same: every booking reads its clinic's opening hours from it, and
 * JSON.parse of the whole document was about 5 % of a booking's CPU. Kept per
 * clinic and compared by the whole text, which costs far less than hashing it
 * as a key: an edited document, written by any process, is parsed afresh at
 * once. Each app keeps its own (Stores.of): two apps in one process share none.
 */
export class ParsedSettings {
  readonly #parsed = new LRUCache<number, Parsed>({ max: KEPT_CLINICS });

  /** Clinic `careId`'s settings document, parsed from `json` or kept from an earlier parse of the same text. */
  parse(careId: number, json: string): Readonly<WebsiteSettings> {
    const kept = this.#parsed.get(careId);
    if (kept !== undefined && kept.json === json) return kept.settings;
    const settings = deepFreeze(JSON.parse(json) as WebsiteSettings);
    this.#parsed.set(careId, { json, settings });
    return settings;
  }
}
