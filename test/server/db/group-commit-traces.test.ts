import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SpanKind } from '@opentelemetry/api';
import { startTracing, stopTracing } from '../../../platform/tracing/start-tracing.js';
import { tracer } from '../../../platform/tracing/tracer.js';
import { GroupCommitter } from '../../../server/db/group-commit.js';
import type { Database } from '../../../server/db/database.js';
import { createTestDatabase, openTestDatabase, type TestDatabase } from '../support/test-database.js';
import { startOtlpReceiver, type OtlpReceiver } from '../../support/otlp-receiver.js';

/**
 * Group commit runs the units that arrive together in one transaction, from
 * whichever request's turn starts the batch. With traces on, each unit's
 * queries must still be spans of its own request: two units queued in one
 * turn, each by a request span of its own, share a transaction here.
 */
describe('group commit with traces on', () => {
  let receiver: OtlpReceiver;
  let testDatabase: TestDatabase;
  let database: Database;

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    vi.stubEnv('OTEL_EXPORTER_OTLP_ENDPOINT', receiver.endpoint);
    vi.stubEnv('OTEL_EXPORTER_OTLP_TRACES_PROTOCOL', 'http/json');
    expect(await startTracing('group-commit-test', 'traceparent')).toBe(true);
    testDatabase = await createTestDatabase();
    // Opened with traces on, as the server opens it after startTracing: its queries make spans.
    database = await openTestDatabase(testDatabase.url);

    const committer = new GroupCommitter(database);
    const request = (name: string) =>
      tracer.startActiveSpan(name, { kind: SpanKind.SERVER }, (span) =>
        committer.run((trx) => trx.selectFrom('clinics').select('care_id').execute()).finally(() => span.end()),
      );
    await Promise.all([request('first request'), request('second request')]);
    await stopTracing();
  });

  afterAll(async () => {
    vi.unstubAllEnvs();
    await database?.kysely.destroy();
    await testDatabase?.remove();
    await receiver?.close();
  });

  const span = (name: string) => receiver.spans.find((candidate) => candidate.name === name);

  it('ran both units in one transaction', () => {
    const selects = receiver.spans.filter((candidate) => candidate.name === 'SELECT clinics');
    expect(selects).toHaveLength(2);
    expect(receiver.spans.filter((candidate) => candidate.name === 'COMMIT' && candidate.traceId === selects[0]?.traceId)).toHaveLength(1);
  });

  it("records each unit's query under its own request's span", () => {
    for (const name of ['first request', 'second request']) {
      const parent = span(name);
      // BEGIN and COMMIT are the batch's: under the request whose turn started it.
      const queries = receiver.spans.filter((candidate) => candidate.parentSpanId === parent?.spanId && candidate.name === 'SELECT clinics');
      expect(queries, name).toHaveLength(1);
      expect(queries[0]?.attributes['db.system']).toBe(database.engine === 'postgres' ? 'postgresql' : 'sqlite');
    }
  });
});
