import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

/**
 * One self-contained ES module, Lit included, that the BFF serves as
 * /widget/clinic-booking.js. No code splitting: everything the first render
 * needs is in that one file, and it finds the BFF from its own URL.
 */
export default defineConfig({
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
});
