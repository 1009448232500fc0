/**
 * A stand-in for the BFF inside the browser: window.fetch answers the
 * widget's /api calls from fixtures, records every request, and can be told
 * to fail, so each state of the widget can be shown without a server.
 */
export interface RecordedCall {
  method: string;
  path: string;
  /** The query string's parameters (GET /availability's date, doctor_id, treatment_id). */
  query: Record<string, string>;
  headers: Record<string, string>;
  body?: unknown;
}

/** An answer of the fake BFF; `headers` adds response headers (e.g. Retry-After). */
export type FakeAnswer = { status: number; body: unknown; headers?: Record<string, string> };

export type Responder = (call: RecordedCall) => FakeAnswer | 'network-error' | Promise<FakeAnswer | 'network-error'>;

export interface FakeBff {
  apiBase: string;
  calls: RecordedCall[];
  /** Overrides the answer for a method and path (e.g. 'POST /appointments/book'). */
  on(route: string, responder: Responder): void;
  restore(): void;
}

export function installFakeBff(fixtures: Record<string, unknown>, apiBase = 'https://bff.test/api'): FakeBff {
  const original = window.fetch;
  const calls: RecordedCall[] = [];
  const overrides = new Map<string, Responder>();
  window.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    if (!url.href.startsWith(apiBase)) return original(input, init);
    const method = (init?.method ?? 'GET').toUpperCase();
    const path = url.pathname.slice(new URL(apiBase).pathname.length);
    const headers = Object.fromEntries(new Headers(init?.headers).entries());
    const call: RecordedCall = { method, path, query: Object.fromEntries(url.searchParams), headers, body: init?.body ? JSON.parse(String(init.body)) : undefined };
    calls.push(call);
    const override = overrides.get(`${method} ${path}`) ?? overrides.get(`${method} ${path.replace(/[^/]+$/, '*')}`);
    const answer: FakeAnswer | 'network-error' = override ? await override(call) : fixtures[path] !== undefined ? { status: 200, body: fixtures[path] } : { status: 404, body: { success: false, message: 'Route not found', error_code: 'not_found' } };
    if (answer === 'network-error') throw new TypeError('Failed to fetch');
    return new Response(JSON.stringify(answer.body), { status: answer.status, headers: { 'content-type': 'application/json', ...answer.headers } });
  };
  return {
    apiBase,
    calls,
    on: (route, responder) => overrides.set(route, responder),
    restore: () => {
      window.fetch = original;
    },
  };
}
