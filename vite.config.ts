import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants as zlib } from 'node:zlib';
import { gzipAsync as zopfliGzip } from '@gfx/zopfli';
import { minifyTemplateLiterals } from 'rollup-plugin-minify-template-literals';
import { build as viteBuild, defaultClientConditions, defineConfig, type BuildEnvironmentOptions, type Plugin, type UserConfig } from 'vite';

/**
 * `npm run dev` only: Vite serves the widget's sources under /widget/ behind
 * the BFF (WIDGET_DEV_URL), which proxies /widget/* and the HMR websocket to it.
 * The HMR client connects to the page's own host and port at the base path
 * (ws://127.0.0.1:8080/widget/), that is through the proxy, as long as no
 * server.ws port is set; so base is all it needs.
 */
const DEV_BASE = '/widget/';

const devServer: UserConfig = {
  base: DEV_BASE,
  server: { host: '127.0.0.1', port: 5173, strictPort: true },
  // No index.html to crawl: name the entry, so Lit is pre-bundled before the first page load.
  optimizeDeps: { entries: ['clinic-booking.ts'] },
};

/**
 * The demo page (and any clinic page) asks for /widget/clinic-booking.js. In
 * dev that name is a module that starts Vite's HMR client, which no page
 * outside Vite's own HTML would load, and then imports the element's source.
 * A change that no module accepts (Lit elements cannot be redefined) reloads the page.
 */
function devEntry(): Plugin {
  const id = '\0clinic-booking-dev-entry';
  return {
    name: 'clinic-booking-dev-entry',
    apply: 'serve',
    enforce: 'pre',
    resolveId: (source) => (source === '/clinic-booking.js' ? id : undefined),
    // The client by its public path, the one Vite itself imports it by, so a page never runs two.
    load: (moduleId) => (moduleId === id ? `import '${DEV_BASE}@vite/client';\nimport '/clinic-booking.ts';\n` : undefined),
  };
}

/**
 * `new URL('../api', import.meta.url)` (widget/api.ts) names the BFF's /api
 * beside the script, not a file. The build would leave such a URL for the
 * browser to resolve, with a warning; Vite's dev server would rewrite it to a
 * file URL under /@fs/. In both, a relative URL that is no file is left alone,
 * as a `/* @vite-ignore *\/` comment in the source would.
 */
function keepRuntimeUrls(): Plugin {
  const relativeUrl = /new URL\(\s*(['"])(\.\.?\/[^'"]*)\1\s*,\s*import\.meta\.url\s*\)/g;
  return {
    name: 'clinic-booking-keep-runtime-urls',
    enforce: 'pre',
    transform(code, id) {
      if (id.includes('/node_modules/') || !code.includes('import.meta.url')) return undefined;
      const kept = code.replace(relativeUrl, (whole, quote: string, url: string) =>
        existsSync(resolve(dirname(id), url)) ? whole : `new URL(/* @vite-ignore */ ${quote}${url}${quote}, import.meta.url)`,
      );
      return kept === code ? undefined : { code: kept, map: null };
    },
  };
}

/** The stable name clinics paste (bff/widget-hosting/widget.routes.ts serves it). */
const LOADER = 'clinic-booking.js';

/**
 * The loader: the file at the stable name is one line that imports the
 * content-hashed module beside it (`export * from './clinic-booking-<hash>.js'`).
 * The BFF caches the loader briefly with an ETag and the hashed module for a
 * year as immutable, so a release reaches every site within minutes while a
 * returning visitor downloads the widget's code once per release. The import
 * is relative to the loader's URL, and the module sits in the same folder, so
 * its own `new URL('../api', import.meta.url)` is still the BFF's /api.
 *
 * Precompression: brotli (quality 11) and gzip copies of the hashed module,
 * written beside it as .br and .gz, for the BFF to choose from by
 * Accept-Encoding; compressing once here costs no CPU per request and beats
 * what a server compresses on the fly. The gzip is zopfli's: a standard gzip
 * stream any client inflates, 4 % smaller than zlib's level 9 (a kilobyte of
 * the 25 KB budget) for a second of build time. The loader stays uncompressed: at a few
 * dozen bytes, compression would only add headers.
 */
async function zopfli(code: Buffer): Promise<Buffer> {
  return Buffer.from(await zopfliGzip(code, { numiterations: 15 }));
}

function brotli(code: Buffer): Buffer {
  return brotliCompressSync(code, {
    params: {
      [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT,
      [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY,
      [zlib.BROTLI_PARAM_SIZE_HINT]: code.length,
    },
  });
}

/**
 * Library mode keeps /* @__PURE__ *\/ annotations for bundlers downstream (Vite turns terser's
 * preserve_annotations on for an ES library, whatever the options say); these files ship to
 * browsers as they are, where the annotations are only bytes: 45 of the module's brotli copy.
 */
const withoutAnnotations = (code: string): string => code.replace(/\/\*\s*[#@]__PURE__\s*\*\//g, '');

function hashedModuleAndLoader(): Plugin {
  return {
    name: 'clinic-booking-hashed-module',
    apply: 'build',
    async generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((file) => file.type === 'chunk');
      const entries = chunks.filter((file) => file.isEntry);
      const [module] = entries;
      if (entries.length !== 1 || module?.type !== 'chunk') return this.error(`expected one entry module, got ${entries.length}`);
      this.emitFile({ type: 'asset', fileName: LOADER, source: `export * from './${module.fileName}';\n` });
      // The module and each language pack (I18N_PACK below), each compressed once here.
      for (const chunk of chunks) {
        if (chunk.type !== 'chunk') continue;
        chunk.code = withoutAnnotations(chunk.code);
        await emitCompressed(this, chunk.fileName, Buffer.from(chunk.code));
      }
    },
  };
}

/** Brotli and gzip copies of a file, beside it, for the BFF to choose from by Accept-Encoding. */
async function emitCompressed(context: { emitFile: (file: { type: 'asset'; fileName: string; source: Buffer }) => string }, fileName: string, code: Buffer): Promise<void> {
  context.emitFile({ type: 'asset', fileName: `${fileName}.br`, source: brotli(code) });
  context.emitFile({ type: 'asset', fileName: `${fileName}.gz`, source: await zopfli(code) });
}

/**
 * Lit's css`` throws two long sentences at a developer who hands it anything but css`` (a mistake
 * the widget's code does not make: its styles are all css``, and every test renders them). They
 * are shortened here to their first words, 80 bytes of the module's brotli copy. The build fails
 * if Lit words them otherwise, so that a new Lit is looked at rather than silently left long.
 */
function shorterLitMessages(): Plugin {
  const messages: [RegExp, string][] = [
    [/"CSSResult is not constructable\. Use `unsafeCSS` or `css` instead\."/, '"CSSResult is not constructable"'],
    [/"Value passed to 'css' function must be a 'css' function result: "\+(\w+)\+"\. Use 'unsafeCSS' to pass non-literal values, but take care to ensure page security\."/, '"Not a css result: "+$1'],
  ];
  return {
    name: 'clinic-booking-shorter-lit-messages',
    apply: 'build',
    transform(code, id) {
      if (!id.replace(/\\/g, '/').endsWith('/@lit/reactive-element/css-tag.js')) return undefined;
      let shorter = code;
      for (const [message, words] of messages) {
        if (!message.test(shorter)) return this.error(`Lit's css-tag.js no longer says ${message}: update shorterLitMessages (vite.config.ts)`);
        shorter = shorter.replace(message, words);
      }
      return { code: shorter, map: null };
    },
  };
}

/**
 * The whitespace inside Lit's html`` and css`` templates survives the JS
 * minifier: it is string content. minify-literals (html-minifier-terser and
 * clean-css) removes it at build time, a kilobyte of the gzip budget.
 */
function minifiedTemplates(): Plugin {
  return { ...(minifyTemplateLiterals({ include: ['**/*.ts'], failOnError: true }) as Plugin), apply: 'build' };
}

/**
 * One self-contained ES module, Lit included, as clinic-booking-<hash>.js,
 * and the loader at /widget/clinic-booking.js that imports it (above).
 * Everything an English first render needs is in that one module, and it
 * finds the BFF from its own URL. The other files are fetched only when
 * needed, each beside the module (the BFF serves clinic-booking-*.js and
 * i18n-*.js, bff/widget-hosting/widget.routes.ts):
 * - the language packs (widget/i18n/localize.ts imports each dynamically),
 *   i18n-<lang>-<hash>.js, by a page in that language;
 * - the sentences for the BFF's refusals and other rare answers (widget/i18n/failures.ts),
 *   clinic-booking-failures-<hash>.js, with the first such answer;
 * - a booking's manage view (ownModule below), clinic-booking-manage-<hash>.js,
 *   when a patient opens it, and its own language packs, clinic-booking-manage-<lang>-<hash>.js;
 * - the calendar file's builder (ownModule below), clinic-booking-calendar-<hash>.js, when a patient
 *   reaches the details step, for the booking they are about to make;
 * - the structured data's builder (ownModule below), clinic-booking-seo-<hash>.js, once the content
 *   shows, unless the widget has no-structured-data.
 */
const I18N_PACK = 'i18n-[name]-[hash].js';
const FAILURES = 'clinic-booking-failures-[hash].js';
const MANAGE_VIEW = 'clinic-booking-manage-[hash].js';
const MANAGE_PACK = 'clinic-booking-manage-[name]-[hash].js';
const CALENDAR_FILE = 'clinic-booking-calendar-[hash].js';
const STRUCTURED_DATA = 'clinic-booking-seo-[hash].js';

/** A chunk's file name: the failure sentences' (in either module), else a language pack's (`pack`). */
const chunkFileName = (pack: string) => ({ facadeModuleId }: { facadeModuleId: string | null }) =>
  facadeModuleId?.replace(/\\/g, '/').endsWith('/widget/i18n/failures.ts') ? FAILURES : pack;

/** The build options of a widget module: its entry, its file name and its language packs'. */
function moduleBuild(entry: string, fileName: string, packFileNames: string): BuildEnvironmentOptions {
  return {
    target: 'es2022',
    lib: { entry, formats: ['es'], fileName: () => fileName },
    // Library mode leaves ES output unminified; this file ships to browsers as is. terser ends ~250
    // bytes gzip smaller than the built-in minifier: the 25 KB budget is tight. Two passes, not three:
    // the brotli copy measured 24,874 / 24,753 / 24,809 / 24,810 bytes after 1 / 2 / 3 / 4 (2026-11-25).
    minify: 'terser',
    terserOptions: {
      module: true,
      ecma: 2020,
      compress: { passes: 2, pure_getters: true, unsafe_arrows: true, unsafe_methods: true },
      format: { comments: false },
    },
    // pluginTimings: rolldown's note that the template minifier is slow is not a warning to act on.
    rolldownOptions: { output: { chunkFileNames: chunkFileName(packFileNames), comments: false }, checks: { pluginTimings: false } },
  };
}

/**
 * Always Lit's production build, whatever NODE_ENV says: Vite resolves the "development" export
 * condition for any NODE_ENV but production, and vitest sets NODE_ENV=test for the e2e tests that
 * build the widget (an 84 KB module instead of 69 KB).
 */
const productionConditions = { conditions: defaultClientConditions.map((condition) => (condition === 'development|production' ? 'production' : condition)) };

const WIDGET_ROOT = fileURLToPath(new URL('./widget', import.meta.url));

/** A module of its own (ownModule): its entry, its file name and its language packs', and who imports it by what name. */
interface OwnModule {
  name: string;
  entry: string;
  fileName: string;
  packFileNames: string;
  /** The path, under widget/, of the one file that imports it, and the specifier it imports it by. */
  importer: string;
  specifier: string;
}

/**
 * A part fetched on demand as a module of its own, built on its own with everything it uses, the
 * module's import() of it naming its hashed file. Built in the same bundle, it would share the
 * module's code, which the module would then have to export to it (or the bundler would split the
 * shared code into a chunk the module imports first): for the manage view, thirty-odd export names,
 * 190 bytes of the module's brotli copy, paid on every first render for a view few open. Its own copy
 * costs only those who open it:
 * - the manage view (widget/manage/manage-view.ts), Lit included, about 13 KB brotli;
 * - the calendar file of a booking made (widget/booking/calendar-file.ts), with the clinic's clock it
 *   reads, under 1 KB: 400 bytes of the module's brotli copy that no first render needs;
 * - the clinic's schema.org JSON-LD (widget/seo/json-ld.ts), under 1 KB, fetched after the first render
 *   (its gain: docs/performance.md, "What the first render leaves out").
 */
function ownModule(part: OwnModule): Plugin {
  let files: { fileName: string; code: string }[] = [];
  let partFile = '';
  return {
    name: `clinic-booking-${part.name}`,
    apply: 'build',
    // Before Vite's own resolver, which would find the source beside its importer.
    enforce: 'pre',
    async buildStart() {
      const output = await viteBuild({
        configFile: false,
        root: WIDGET_ROOT,
        logLevel: 'warn',
        plugins: [keepRuntimeUrls(), shorterLitMessages(), minifiedTemplates()],
        resolve: productionConditions,
        build: { ...moduleBuild(part.entry, part.fileName, part.packFileNames), write: false, emptyOutDir: false, reportCompressedSize: false },
      });
      const outputs = (Array.isArray(output) ? output : [output]) as { output: { type: string; fileName: string; code?: string; isEntry?: boolean }[] }[];
      const chunks = outputs.flatMap((result) => result.output).filter((file) => file.type === 'chunk');
      files = chunks.map((chunk) => ({ fileName: chunk.fileName, code: withoutAnnotations(chunk.code ?? '') }));
      partFile = chunks.find((chunk) => chunk.isEntry)?.fileName ?? '';
      if (!partFile) this.error(`the ${part.name} built no module`);
    },
    // The importer's import of it: the built file beside the module, not a module of this bundle.
    resolveId: (source, importer) =>
      source === part.specifier && importer?.replace(/\\/g, '/').endsWith(`/widget/${part.importer}`) ? { id: `./${partFile}`, external: true } : undefined,
    async generateBundle(_options, bundle) {
      // A chunk both builds made (the failure sentences: the same code, so the same name) is written once.
      for (const { fileName, code } of files.filter((file) => !(file.fileName in bundle))) {
        this.emitFile({ type: 'asset', fileName, source: code });
        await emitCompressed(this, fileName, Buffer.from(code));
      }
    },
  };
}

const MANAGE: OwnModule = {
  name: 'manage-view',
  entry: 'manage/manage-view.ts',
  fileName: MANAGE_VIEW,
  packFileNames: MANAGE_PACK,
  importer: 'manage/manage-entry.ts',
  specifier: './manage-view.js',
};

const CALENDAR: OwnModule = {
  name: 'calendar-file',
  entry: 'booking/calendar-file.ts',
  fileName: CALENDAR_FILE,
  // It imports nothing dynamically: no packs.
  packFileNames: CALENDAR_FILE,
  importer: 'booking/booking-flow.ts',
  specifier: './calendar-file.js',
};

const SEO: OwnModule = {
  name: 'structured-data',
  entry: 'seo/json-ld.ts',
  fileName: STRUCTURED_DATA,
  // It imports nothing dynamically: no packs.
  packFileNames: STRUCTURED_DATA,
  importer: 'seo/structured-data.ts',
  specifier: './json-ld.js',
};

export default defineConfig(({ command }) => ({
  root: WIDGET_ROOT,
  // Each says when it applies: devEntry in serve mode, hashedModuleAndLoader and the own modules in the build.
  plugins: [keepRuntimeUrls(), devEntry(), ownModule(MANAGE), ownModule(CALENDAR), ownModule(SEO), hashedModuleAndLoader(), shorterLitMessages(), minifiedTemplates()],
  build: {
    ...moduleBuild('clinic-booking.ts', 'clinic-booking-[hash].js', I18N_PACK),
    outDir: 'dist',
    emptyOutDir: true,
    reportCompressedSize: true,
  },
  ...(command === 'build' ? { resolve: productionConditions } : {}),
  ...(command === 'serve' ? devServer : {}),
}));
