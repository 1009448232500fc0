import { request } from 'node:http';

export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A GET with exactly these headers, its body the bytes as sent (fetch would decode them, and adds headers of its own). */
export function rawGet(url: string, headers: Record<string, string>): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * The bytes the BFF's cache counts for a path: the plain answer, the value it
 * keeps beside it (counted as long as the plain answer, its JSON) and each
 * compressed copy it sends.
 */
export async function heldBytes(url: string): Promise<number> {
  let bytes = 2 * (await rawGet(url, {})).body.length;
  for (const coding of ['br', 'gzip']) {
    const answer = await rawGet(url, { 'accept-encoding': coding });
    if (answer.headers['content-encoding'] === coding) bytes += answer.body.length;
  }
  return bytes;
}
