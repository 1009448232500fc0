import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import { Webhook } from 'standardwebhooks';
import { closeServer, listen } from '../../support/bff-harness.js';
import { closeWhenScopeEnds, once } from '../../../support/scoped-teardown.js';

/** One request the receiver took, with what Standard Webhooks' own check made of it. */
export interface ReceivedHook {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** The payload `Webhook.verify` returned, or undefined when it refused the signature. */
  verified?: unknown;
  /** Why `Webhook.verify` refused it. */
  refused?: string;
}

export interface TestReceiver {
  /** `http://127.0.0.1:port` */
  url: string;
  received: ReceivedHook[];
  /** How many answers' connections were closed (by either side). */
  closedAnswers: number;
  close(): Promise<void>;
}

/**
 * A real HTTP receiver of webhooks on an ephemeral 127.0.0.1 port that
 * verifies each with `Webhook.verify` of `standardwebhooks` under `secret`,
 * records it, and answers with `answer` (by default 204 when the signature
 * holds, 401 when not). Closed when the scope that started it ends.
 */
export async function startReceiver(secret: string, answer?: (res: ServerResponse, hook: ReceivedHook) => void): Promise<TestReceiver> {
  const received: ReceivedHook[] = [];
  const counts = { closedAnswers: 0 };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const hook: ReceivedHook = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body };
      try {
        hook.verified = new Webhook(secret).verify(body, req.headers as Record<string, string>);
      } catch (error) {
        hook.refused = (error as Error).message;
      }
      received.push(hook);
      res.on('close', () => counts.closedAnswers++);
      if (answer) answer(res, hook);
      else res.writeHead(hook.refused === undefined ? 204 : 401).end();
    });
  });
  const url = await listen(server);
  const close = once(() => closeServer(server));
  closeWhenScopeEnds(close);
  return {
    url,
    received,
    get closedAnswers() {
      return counts.closedAnswers;
    },
    close,
  };
}
