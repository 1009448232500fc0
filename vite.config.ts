import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin, type UserConfig } from 'vite';

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
  plugins: [devEntry(), keepRuntimeUrls()],
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
 * beside the script, not a file. The build leaves such a URL for the browser to
 * resolve (with a warning); Vite's dev server would rewrite it to a file URL
 * under /@fs/. In dev too, a relative URL that is no file is left alone, as a
 * `/* @vite-ignore *\/` comment in the source would.
 */
function keepRuntimeUrls(): Plugin {
  const relativeUrl = /new URL\(\s*(['"])(\.\.?\/[^'"]*)\1\s*,\s*import\.meta\.url\s*\)/g;
  return {
    name: 'clinic-booking-keep-runtime-urls',
    apply: 'serve',
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

/**
 * One self-contained ES module, Lit included, that the BFF serves as
 * /widget/clinic-booking.js. No code splitting: everything the first render
 * needs is in that one file, and it finds the BFF from its own URL.
 */
export default defineConfig(({ command }) => ({
  root: fileURLToPath(new URL('./widget', import.meta.url)),
  build: {
    target: 'es2022',
    outDir: 'dist',
    emptyOutDir: true,
    reportCompressedSize: true,
    lib: {
      entry: 'clinic-booking.ts',
      formats: ['es'],
      fileName: () => 'clinic-booking.js',
    },
    // Library mode leaves ES output unminified; this file ships to browsers as is.
    rolldownOptions: { output: { inlineDynamicImports: true, minify: true } },
  },
  ...(command === 'serve' ? devServer : {}),
}));
