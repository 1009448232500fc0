import type { IncomingMessage, Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Request, RequestHandler, Response } from 'express';
import { devPackageMissing, isNotInstalled } from '../../platform/dev-package.js';
import { sendError } from '../../platform/error-body.js';

/** /widget/* and Vite's HMR websocket, proxied to Vite's dev server (`npm run dev`). */
export interface WidgetDevProxy {
  /** Mounted where the built widget is otherwise served (app.use(mountPath, ...)). */
  middleware: RequestHandler;
  /** For the http.Server's 'upgrade' event: websockets under the mount path go to Vite, any other is refused. */
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void;
  /** Ends every proxied websocket (the browser's HMR client reconnects once the BFF is back). */
  closeWebSockets(): void;
  /** Listens to the server's upgrades, and ends the websockets when the process stops (see below). */
  attach(server: Server): void;
}

/**
 * The proxy, created once at start-up. Vite serves the widget under the same
 * base path (vite.config.ts: base '/widget/'), so the target includes that path,
 * as for any proxy mounted on a path: Express strips the mount path from an
 * HTTP request's URL, and upgrade() strips it from a websocket's the same way.
 *
 * No `ws: true`: that option makes http-proxy-middleware subscribe to the
 * server's upgrades itself on the first HTTP request, for every path and with
 * the URL unstripped; upgrade() is wired explicitly instead (bff/main.ts).
 */
export async function createWidgetDevProxy(viteUrl: string, mountPath = '/widget'): Promise<WidgetDevProxy> {
  const { createProxyMiddleware } = await loadProxyLibrary();
  const proxy = createProxyMiddleware<Request, Response>({
    target: `${viteUrl}${mountPath}`,
    // Vite answers only Host names it allows: its own address always is.
    changeOrigin: true,
    on: {
      error: (_error, _req, res) => {
        if (!('writeHead' in res) || res.headersSent) {
          res.destroy();
          return;
        }
        res.set('Retry-After', '1');
        sendError(res, 'upstream_unavailable', `The widget dev server (Vite, ${viteUrl}) is not answering; is npm run dev running?`);
      },
    },
  });

  const sockets = new Set<Duplex>();
  const closeWebSockets = () => {
    for (const socket of sockets) socket.destroy();
  };
  const upgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (!req.url?.startsWith(`${mountPath}/`)) {
      socket.destroy();
      return;
    }
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    req.url = req.url.slice(mountPath.length);
    proxy.upgrade(req, socket as Socket, head);
  };

  return {
    middleware: proxy,
    upgrade,
    closeWebSockets,
    attach(server) {
      server.on('upgrade', upgrade);
      // serve() drains on SIGTERM and SIGINT, and server.close() waits for every
      // connection, upgraded ones too: an open HMR websocket would hold the BFF
      // until its shutdown timeout on each restart. End them on the same signals.
      process.once('SIGTERM', closeWebSockets);
      process.once('SIGINT', closeWebSockets);
    },
  };
}

/** http-proxy-middleware, a development package: loaded only when WIDGET_DEV_URL asks for the proxy. */
async function loadProxyLibrary(): Promise<typeof import('http-proxy-middleware')> {
  try {
    return await import('http-proxy-middleware');
  } catch (error) {
    if (!isNotInstalled(error, 'http-proxy-middleware')) throw error;
    throw new Error(`${devPackageMissing('http-proxy-middleware', 'WIDGET_DEV_URL (the widget dev proxy of npm run dev)')}; unset WIDGET_DEV_URL to serve the built widget`);
  }
}
