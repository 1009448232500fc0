/** The content codings a cached answer can be sent in besides its plain bytes. */
export type Coding = 'br' | 'gzip';

/**
 * One cached answer, ready to send: status, plain bytes, ETag and when it was
 * fetched; for a resource's own 200, also the value the bytes are the JSON
 * of, so that a reader of the content (availability, a booking's checks)
 * never parses them again. Its compressed copies are made when first asked
 * for, beside it (AnswerHeaders), not here.
 */
export interface CachedAnswer<T = unknown> {
  status: number;
  body: Buffer;
  /** The resource's sanitised value; only on its 200 (none on a 404, an item or a combined answer). */
  value?: T;
  etag: string;
  fetchedAt: number;
  /** The site whose upstream this came from: checked on every read of the shared store. */
  site: string;
  /**
   * A list's items by id, each the body of its own answer (parts of `value`,
   * so they cost little): ContentCache.item makes an item's answer from it
   * when it is first asked for, and keeps it in `itemAnswers`.
   */
  items?: ReadonlyMap<number, unknown>;
  /** The answers of the items asked for so far (see items). */
  itemAnswers?: Map<number, CachedAnswer>;
  /** A combined answer's parts: their ETags, so it is rebuilt only when one of them changes. */
  builtFrom?: string;
}
