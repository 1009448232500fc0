/**
 * An lru-cache bound of `count` entries that allocates nothing up front.
 * lru-cache's own `max` preallocates its index arrays for all `count`
 * entries at construction (about 1 MiB for 50,000), which one BFF-wide cache
 * can afford but a BFF of 1,000 sites, each with its own taken slots, dentist
 * memories and limit headers, cannot: it cost about 2 MiB and 70 ms per site
 * before the site served a request (bench/sites.bench.mjs). Counting each
 * entry as size 1 against `maxSize` gives the same bound with storage that
 * grows as entries come.
 */
export const entriesAtMost = (count: number) => ({ maxSize: count, sizeCalculation: () => 1 });
