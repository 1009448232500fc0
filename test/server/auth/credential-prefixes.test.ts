import { describe, expect, it } from 'vitest';
import { operation, type AnyOperation } from '../../../platform/operation.js';
import { credentialPrefixes } from '../../../server/auth/credential-prefixes.js';

/** An operation at `path` whose document says `security` (undefined: the document's own, both credentials). */
const at = (id: string, path: string, security?: []): AnyOperation =>
  operation({ id, method: 'get', path, docs: { summary: id, ...(security ? { security } : {}) }, responses: {}, handle: () => undefined });

describe('credentialPrefixes', () => {
  it('guards the first path segment of every operation that needs credentials, once each', () => {
    const prefixes = credentialPrefixes([
      at('listThings', '/things'),
      at('getThing', '/things/:id'),
      at('thingStatus', '/orders/status/:id'),
      at('grantToken', '/granttoken', []),
    ]);

    expect(prefixes).toEqual(['/things', '/orders']);
  });

  it('refuses an operation without credentials under a guarded prefix, which would be refused for want of them', () => {
    const attempt = () => credentialPrefixes([at('getThing', '/things/:id'), at('openThing', '/things/open', [])]);

    expect(attempt).toThrow('openThing needs no credentials but shares its prefix with operations that do');
  });
});
