// The types of webkit-driver.mjs, for the TypeScript that starts WebKit (test/e2e/support/webkit.ts).

export declare const WEBKIT: { driver: string; browser: string; display: string };
export declare const XDOTOOL: string;
export declare function missingWebKit(): string[];

export interface WebKitSession {
  /** The X display the browser is in (':99'). */
  display: string;
  /** A WebDriver command of this session (`path` after /session/{id}, e.g. '/window/rect'): its value. */
  send<T>(method: string, path: string, body?: unknown): Promise<T>;
  /** Ends the session, the driver and the display. */
  close(): Promise<void>;
}

export declare function startWebKit(options?: { screen?: string; env?: Record<string, string> }): Promise<WebKitSession>;
export declare function pointAt(display: string, x?: number, y?: number): boolean;
