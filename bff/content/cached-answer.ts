/** The content codings a cached answer can be sent in besides its plain bytes. */
export type Coding = 'br' | 'gzip';

/**
 * One cached answer, ready to send: status, plain bytes, ETag and when it was
 * fetched; for a resource's own 200 (a ResourceAnswer), also the value the
 * bytes are the JSON of, so that a reader of the content (availability, a
 * booking's checks) never parses them more than once. Its compressed copies
 * are made when first asked for, beside it (AnswerCodings), not here.
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

/** What a ResourceAnswer needs of its resource: how a list gives its items by id. */
export interface ItemsOf<T> {
  itemsOf?(value: T): ReadonlyMap<number, unknown>;
}

/**
 * A resource's own 200: its value and a list's items are made from its bytes
 * the first time something reads them (availability, a booking's checks, a
 * treatment by id, the pictures it names), and kept from then on. Not kept
 * from the start: most of a BFF's sites are only ever asked for their
 * content's bytes, and the parsed copies beside them held 35 of the 121 MiB
 * of live heap of a BFF with 1,000 sites cached (bench:sites;
 * docs/performance.md, "Many sites"). GET /api/content reads the values to
 * build its answer once per change, with peekValue(), which keeps nothing.
 */
export class ResourceAnswer<T> implements CachedAnswer<T> {
  readonly status = 200;
  readonly body: Buffer;
  readonly etag: string;
  readonly fetchedAt: number;
  readonly site: string;
  /** How many items a list has (its items' reserve in the cache's byte count), known without keeping them. */
  readonly itemCount: number;
  itemAnswers?: Map<number, CachedAnswer>;
  #value?: T;
  #items?: ReadonlyMap<number, unknown>;

  constructor(
    answer: Pick<CachedAnswer, 'body' | 'etag' | 'fetchedAt' | 'site'>,
    value: T,
    private readonly resource: ItemsOf<T>,
  ) {
    this.body = answer.body;
    this.etag = answer.etag;
    this.fetchedAt = answer.fetchedAt;
    this.site = answer.site;
    this.itemCount = resource.itemsOf?.(value).size ?? 0;
  }

  /** The value, parsed from the bytes on first read and kept. */
  get value(): T {
    return (this.#value ??= this.peekValue());
  }

  /** A list's items by id (parts of its value); undefined for a resource that is no list. */
  get items(): ReadonlyMap<number, unknown> | undefined {
    if (!this.resource.itemsOf) return undefined;
    return (this.#items ??= this.resource.itemsOf(this.value));
  }

  /** The value, kept or freshly parsed; a freshly parsed one is not kept. */
  peekValue(): T {
    return this.#value ?? (JSON.parse(this.body.toString('utf8')) as T);
  }
}
