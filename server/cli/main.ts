import { runCli } from './run-cli.js';

/** `npm run --silent clinic -- <command>`: JSON on stdout, one line on stderr on failure, the exit code of runCli. */
const code = await runCli(process.argv.slice(2), {
  env: process.env,
  stdout: (text) => process.stdout.write(text),
  stderr: (line) => console.error(line),
});
process.exit(code);
