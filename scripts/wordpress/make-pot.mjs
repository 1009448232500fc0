// `npm run i18n:wordpress`: the plugin's translation template, wordpress/clinic-booking/languages/clinic-booking.pot,
// as `wp i18n make-pot` would write it (Debian has no wp-cli): GNU xgettext reads the PHP files with WordPress's
// translation functions as keywords, and the editor script's wp.i18n calls; the block's title, description and
// keywords from block.json are added with the contexts WordPress translates them under.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { installDebianPackages } from '../debian-packages.mjs';

const PLUGIN = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'wordpress', 'clinic-booking');
export const POT = join(PLUGIN, 'languages', 'clinic-booking.pot');

/** WordPress's translation functions, in xgettext's keyword syntax. */
const KEYWORDS = [
  '__', '_e', 'esc_html__', 'esc_html_e', 'esc_attr__', 'esc_attr_e',
  '_x:1,2c', '_ex:1,2c', 'esc_html_x:1,2c', 'esc_attr_x:1,2c', '_n:1,2', '_nx:1,2,4c', '_n_noop:1,2', '_nx_noop:1,2,3c',
];

/** The plugin's files ending in `extension`, relative to its folder. */
function files(extension, dir = PLUGIN) {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => (entry.isDirectory() ? files(extension, join(dir, entry.name)) : entry.name.endsWith(extension) ? [join(dir, entry.name)] : []))
    .map((file) => relative(PLUGIN, resolve(PLUGIN, file)))
    .sort();
}

/** One run over PHP and JavaScript alike (each file's language from its extension), so a string used in both is one entry. */
function xgettext(sources) {
  const run = spawnSync(
    'xgettext',
    ['--from-code=UTF-8', '--add-comments=translators:', '--sort-by-file', '--omit-header', '-o', '-', ...KEYWORDS.map((k) => `--keyword=${k}`), ...sources],
    { cwd: PLUGIN, encoding: 'utf8' },
  );
  if (run.status !== 0) throw new Error(`xgettext failed: ${run.stderr}`);
  return run.stdout;
}

const quote = (text) => `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;

/** Writes the template to `out` (the plugin's languages/clinic-booking.pot by default); returns its path. */
export function makePot(out = POT) {
  if (spawnSync('xgettext', ['--version'], { stdio: 'ignore' }).status !== 0) installDebianPackages(['gettext']);
  const header = JSON.parse(readFileSync(join(PLUGIN, 'block', 'block.json'), 'utf8'));
  const version = /^ \* Version:\s*(\S+)$/m.exec(readFileSync(join(PLUGIN, 'clinic-booking.php'), 'utf8'))?.[1] ?? '0.0.0';
  const block = [
    ['block title', header.title],
    ['block description', header.description],
    ...header.keywords.map((keyword) => ['block keyword', keyword]),
  ]
    .map(([context, text]) => `#: block/block.json\nmsgctxt ${quote(context)}\nmsgid ${quote(text)}\nmsgstr ""\n`)
    .join('\n');
  const pot = [
    '# The clinic-booking plugin\'s strings, for translators. Written by npm run i18n:wordpress.',
    'msgid ""',
    'msgstr ""',
    `"Project-Id-Version: Clinic booking ${version}\\n"`,
    '"MIME-Version: 1.0\\n"',
    '"Content-Type: text/plain; charset=UTF-8\\n"',
    '"Content-Transfer-Encoding: 8bit\\n"',
    '"X-Domain: clinic-booking\\n"',
    '',
    xgettext([...files('.php'), ...files('.js')]).trim(),
    '',
    block,
  ].join('\n');
  writeFileSync(out, `${pot}\n`);
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    console.log(makePot(process.argv[2]));
  } catch (error) {
    console.error(error.message);
    process.exit(1);
  }
}
