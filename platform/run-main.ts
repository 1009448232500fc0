/**
 * Runs a service's entry point: any failure while starting (a bad setting, a
 * database that cannot be opened) is one line on stderr and exit code 1, never
 * a stack trace; both the API server and the BFF start through here.
 */
export function runMain(name: string, main: () => Promise<void> | void): void {
  Promise.resolve()
    .then(main)
    .catch((error: unknown) => {
      console.error(`${name} could not start: ${error instanceof Error ? error.message : String(error)}`);
      process.exit(1);
    });
}
