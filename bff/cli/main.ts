import { runSitesCli } from './run-cli.js';

/** `npm run --silent bff -- sites <command>` (or `outbox <command>`, `patients <command>`): JSON on stdout; audit lines and one line per failure on stderr. */
const code = await runSitesCli(process.argv.slice(2), {
  env: process.env,
  readInput: readStdin,
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
});
process.exit(code);

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
