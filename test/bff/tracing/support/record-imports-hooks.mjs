import { appendFileSync } from 'node:fs';

/** Records each resolved URL under @opentelemetry/ in RECORD_IMPORTS, then resolves as before. */
export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  const file = process.env.RECORD_IMPORTS;
  if (file && resolved.url.includes('/@opentelemetry/')) appendFileSync(file, `${resolved.url}\n`);
  return resolved;
}
