/** The content codings a cached answer is kept in besides its plain bytes. */
export type Coding = 'br' | 'gzip';

/**
 * One cached answer, ready to send: status, bytes (plain and compressed), ETag
 * and when it was fetched; for a resource's own 200, also the value the bytes
 * are the JSON of, so that a reader of the content (availability, a booking's
 * checks) never parses them again.
 */
export interface CachedAnswer<T = unknown> {
  status: number;
  body: Buffer;
  /** The resource's sanitised value; only on its 200 (none on a 404, an item or a combined answer). */
  value?: T;
  /** The same bytes compressed, made when the answer is cached; none for a small answer. */
  encoded: Partial<Record<Coding, Buffer>>;
  etag: string;
  fetchedAt: number;
  /** The site whose upstream this came from: checked on every read of the shared store. */
  site: string;
  /** A list's items, each answered on its own by id, from the same upstream call. */
  items?: ReadonlyMap<number, CachedAnswer>;
  /** A combined answer's parts: their ETags, so it is rebuilt only when one of them changes. */
  builtFrom?: string;
}
