import { describe, expect, it } from 'vitest';
import { startStubUpstream, type StubUpstream } from './bff-harness.js';

/** The harness closes what it started when the scope that started it ends (test/support/scoped-teardown.ts). */
let inTest: StubUpstream;
let inDescribe: StubUpstream;
const refused = (stub: StubUpstream) => expect(fetch(`${stub.api}/treatments`)).rejects.toThrow();

// What this file checks is what the harness does between one test and the next, so its tests run in the order they
// are written even in a shuffled run: the one exception to "passes alone and in any order".
describe('the harness between tests', { shuffle: false }, () => {
  describe('a server started at a describe’s top level', async () => {
    inDescribe = await startStubUpstream();

    it('listens while its describe runs, as does one a test starts', async () => {
      inTest = await startStubUpstream();
      expect((await fetch(`${inDescribe.api}/treatments`)).status).toBe(200);
      expect((await fetch(`${inTest.api}/treatments`)).status).toBe(200);
    });

    it('is still up in the next test, while the one the first test started is closed', async () => {
      await refused(inTest);
      expect((await fetch(`${inDescribe.api}/treatments`)).status).toBe(200);
    });
  });

  it('is closed once its describe has ended', async () => {
    await refused(inDescribe);
  });
});
