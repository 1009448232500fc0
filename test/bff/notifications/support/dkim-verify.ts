import { createHash, verify, type KeyObject } from 'node:crypto';

/** What a DKIM-Signature says and whether it holds. */
export interface DkimCheck {
  /** The signature's tags: d, s, a, c, h, bh, b… (whitespace taken out of bh and b). */
  tags: Record<string, string>;
  /** The body hash (bh=) is that of the body as received, relaxed. */
  bodyHashHolds: boolean;
  /** The signature (b=) over the signed headers, relaxed, verifies with `publicKey`. */
  signatureHolds: boolean;
}

/**
 * Checks the first DKIM-Signature of a raw message (RFC 6376) as a receiving
 * server would with the key its DNS publishes, for the one form nodemailer
 * signs in: `a=rsa-sha256`, `c=relaxed/relaxed`, no `l=`. Written here with
 * node:crypto, since no DKIM verifier is among the project's packages: the
 * relaxed body (spaces folded, line-end spaces and trailing empty lines
 * dropped), hashed against bh=; the headers named by h= (each the last one
 * not yet taken, from the bottom), relaxed (name lower-cased, unfolded,
 * spaces folded and trimmed), then the DKIM-Signature itself with b= empty
 * and no final CRLF, verified against b=. Undefined when there is none.
 */
export function checkDkim(raw: string, publicKey: KeyObject): DkimCheck | undefined {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split + 2);
  const body = raw.slice(split + 4);
  const fields = head.split(/\r\n(?![ \t])/).filter(Boolean);
  const signatureField = fields.find((field) => /^dkim-signature\s*:/i.test(field));
  if (!signatureField) return undefined;
  const tags = Object.fromEntries(
    signatureField
      .slice(signatureField.indexOf(':') + 1)
      .split(';')
      .map((tag) => tag.trim())
      .filter(Boolean)
      .map((tag) => {
        const at = tag.indexOf('=');
        const name = tag.slice(0, at).trim();
        const value = tag.slice(at + 1);
        return [name, name === 'b' || name === 'bh' ? value.replace(/\s+/g, '') : value.replace(/\s+/g, ' ').trim()];
      }),
  );

  const bodyHash = createHash('sha256').update(relaxedBody(body)).digest('base64');
  const unused = [...fields];
  let signed = '';
  for (const name of (tags.h ?? '').split(':').map((each) => each.trim().toLowerCase())) {
    const index = unused.findLastIndex((field) => field.slice(0, field.indexOf(':')).trim().toLowerCase() === name);
    if (index < 0) continue;
    signed += `${relaxedHeader(unused[index]!)}\r\n`;
    unused.splice(index, 1);
  }
  signed += relaxedHeader(signatureField.replace(/(^|;)(\s*b\s*=)[^;]*/, '$1$2'));
  const signatureHolds = verify('sha256', Buffer.from(signed, 'utf8'), publicKey, Buffer.from(tags.b ?? '', 'base64'));
  return { tags, bodyHashHolds: bodyHash === tags.bh, signatureHolds };
}

function relaxedHeader(field: string): string {
  const colon = field.indexOf(':');
  const name = field.slice(0, colon).trim().toLowerCase();
  const value = field
    .slice(colon + 1)
    .replace(/\r\n/g, '')
    .replace(/[ \t]+/g, ' ')
    .trim();
  return `${name}:${value}`;
}

function relaxedBody(body: string): string {
  const lines = body.split('\r\n').map((line) => line.replace(/[ \t]+/g, ' ').replace(/ $/, ''));
  while (lines.length > 0 && lines.at(-1) === '') lines.pop();
  return lines.length === 0 ? '' : `${lines.join('\r\n')}\r\n`;
}
