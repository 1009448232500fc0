/**
 * Development packages (devDependencies) that a service loads on one path
 * only: http-proxy-middleware for `npm run dev`'s widget proxy, pino-pretty for
 * logs printed to a terminal. A production install (`npm ci --omit=dev`)
 * leaves them out, so they are loaded where that path is taken, never at start.
 */

/**
 * Whether `error`, thrown while loading the package `name`, says `name` itself
 * is not installed; a package that is there but fails to load (one of its own
 * imports missing) is another error, passed on as it is.
 */
export function isNotInstalled(error: unknown, name: string): boolean {
  if (!(error instanceof Error)) return false;
  const { code } = error as NodeJS.ErrnoException;
  // Node names the package it could not find in quotes: "Cannot find package 'x'" (import), "Cannot find module 'x'" (require).
  return (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') && error.message.includes(`'${name}'`);
}

/** The sentence for a development package that `neededFor` asked for and a production install left out. */
export function devPackageMissing(name: string, neededFor: string): string {
  return `${neededFor} needs ${name}, a development package that a production install (npm ci --omit=dev) leaves out`;
}
