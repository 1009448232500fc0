import type { BookingDraft } from './booking-rules.js';
import type { Step } from './booking-steps.js';

/** A draft, the step reached, and the Idempotency-Key of its last attempt, so a retry of the same booking reuses the key. */
export interface StoredDraft {
  draft: BookingDraft;
  /** The step reached: its name (a number in drafts kept before the steps had names). */
  step?: Step | number;
  attempt?: { key: string; body: string };
}

const keyFor = (apiBase: string) => `clinic-booking:draft:${apiBase}`;

/**
 * The draft lives in sessionStorage (this tab only, gone when it closes) until
 * a booking succeeds, so a reload loses nothing. Storage may be unavailable
 * (privacy modes); the form then simply works without it.
 */
export const draftStorage = {
  load(apiBase: string): StoredDraft | undefined {
    try {
      const raw = sessionStorage.getItem(keyFor(apiBase));
      return raw ? (JSON.parse(raw) as StoredDraft) : undefined;
    } catch {
      return undefined;
    }
  },
  save(apiBase: string, stored: StoredDraft): void {
    try {
      sessionStorage.setItem(keyFor(apiBase), JSON.stringify(stored));
    } catch {
      // storage full or disabled: nothing to keep
    }
  },
  clear(apiBase: string): void {
    try {
      sessionStorage.removeItem(keyFor(apiBase));
    } catch {
      // as above
    }
  },
};
