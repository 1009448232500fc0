import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { closeWhenScopeEnds, once } from '../../../support/scoped-teardown.js';

/** How the receiver answers one request: a status at once, or `hold` (answered later by release(), or never). */
export type Answer = number | 'hold';

/** One request the receiver saw: the message id it carried, and its answer once it was given. */
export interface Received {
  id: string;
  /** Which worker sent it (`x-worker`), when its deliverer says. */
  worker?: string;
  /** The status it was answered with; undefined while held (or if the caller hung up first). */
  status?: number;
}

export interface Receiver {
  url: string;
  requests: Received[];
  /** Decides each answer from the message id, how many requests of that id came before (0 for the first), and its sender. */
  answer: (id: string, before: number, worker: string | undefined) => Answer;
  /** Requests of `id` answered 2xx: what "delivered" means to the receiver. */
  delivered(id: string): number;
  /** Requests held right now, not yet answered. */
  held(): number;
  /** Answers every held request with `status`. */
  release(status: number): void;
  close(): Promise<void>;
}

/**
 * A real HTTP receiver of the test deliverer's POSTs (post-deliverer.ts): it
 * reads the message id from the `webhook-id` header, as a receiver of the
 * BFF's webhooks would, and counts every request and every 2xx answer per id.
 * Closed when the scope that started it ends.
 */
export async function startReceiver(answer: Receiver['answer'] = () => 200): Promise<Receiver> {
  const requests: Received[] = [];
  const holding: { received: Received; res: ServerResponse }[] = [];
  const receiver: Receiver = {
    url: '',
    requests,
    answer,
    delivered: (id) => requests.filter((request) => request.id === id && request.status !== undefined && request.status < 300).length,
    held: () => holding.filter(({ res }) => !res.writableEnded && !res.destroyed).length,
    release(status) {
      for (const { received, res } of holding.splice(0)) {
        if (res.destroyed) continue;
        received.status = status;
        res.writeHead(status).end();
      }
    },
    close: async () => undefined,
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    req.once('end', () => {
      const id = String(req.headers['webhook-id'] ?? '');
      const worker = req.headers['x-worker'] === undefined ? undefined : String(req.headers['x-worker']);
      const before = requests.filter((request) => request.id === id).length;
      const received: Received = { id, ...(worker === undefined ? {} : { worker }) };
      requests.push(received);
      const decided = receiver.answer(id, before, worker);
      if (decided === 'hold') {
        holding.push({ received, res });
        return;
      }
      received.status = decided;
      res.writeHead(decided).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  receiver.close = once(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  closeWhenScopeEnds(receiver.close);
  return receiver;
}
