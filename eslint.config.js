// Lints TypeScript with the type-aware rules that catch real bugs in async
// Express code (floating promises, misused promises), not style; and holds the
// walls between the parts (docs/architecture.md): each part may import only
// what the arrows there allow, so a change in one never surprises another.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

const SERVER = { group: ['**/server/**'], message: 'Nothing outside server/ imports server/: move what is shared to contract/ or platform/.' };
const BFF = { group: ['**/bff/**'], message: 'Only the BFF imports bff/.' };
const WIDGET = { group: ['**/widget/**'], message: 'Only the widget imports widget/.' };
const PLATFORM = { group: ['**/platform/**'], message: 'platform/ is service plumbing: contract/ and widget/ never import it.' };
const ZOD = { group: ['zod', 'zod/**', 'zod-openapi', 'zod-openapi/**'], message: 'contract/rules/ and the widget stay free of zod (the browser bundle).' };
const BFF_API = {
  group: ['**/contract/bff.*', '**/contract/rules/bff-api.*'],
  message: "platform/ knows no URL of either service: the BFF passes what platform/ must know of its paths (as it does the request logger's).",
};
/**
 * A service's path in platform/'s code (its /api, a site's /s/{id}, the status lookup), in a string, a template or a
 * regular expression: a service passes its paths as options instead. Comments may still name one as an example.
 */
const SERVICE_PATH = String.raw`/(^|[^\w@.-])(\\?\/)(api|s)(\b|\\?\/|$)|appointments\\?\/status/i`;
const SERVICE_PATHS = ['Literal', 'TemplateElement'].map((node) => ({
  selector: `${node}[${node === 'Literal' ? 'raw' : 'value.raw'}=${SERVICE_PATH}]`,
  message: "platform/ knows no URL of either service: take the path as an option the service passes (RequestLogPaths, the metrics' routes).",
}));
/** The BFF's rooms that answer requests, and its entry files: each stands above its HTTP layer and its settings. */
const BFF_ROOMS = ['availability', 'booking', 'changes', 'cli', 'content', 'demo', 'docs', 'health', 'outbox', 'patient-mail', 'pictures', 'sites', 'widget-hosting'];
const BFF_ENTRIES = ['app.js', 'site-api.js', 'main.js'];
const BFF_ROOMS_FROM_HTTP = {
  group: [...BFF_ROOMS.map((room) => `../${room}/**`), ...BFF_ENTRIES.map((file) => `../${file}`)],
  message: "bff/http/ stands under the rooms that answer requests: a room's errors reach the error handler through contract/ (BookingRefused), never by an import of the room.",
};
const BFF_ROOMS_FROM_CONFIG = {
  group: [...[...BFF_ROOMS, 'http'].map((room) => `./${room}/**`), ...BFF_ENTRIES.map((file) => `./${file}`)],
  message: 'bff/config.ts stands under every room that reads the settings: what it parses lives beside it (secrets-key.ts) or in a room under it (outbound/).',
};

/** The same rule from typescript-eslint, which can let `import type` through. */
const walls = (...patterns) => ({
  'no-restricted-imports': 'off',
  '@typescript-eslint/no-restricted-imports': ['error', { patterns }],
});

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'coverage/', 'test-results/', 'widget/dist/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', ignoreRestSiblings: true }],
    },
  },
  // contract/: the schemas of both APIs; imports only zod and itself.
  { files: ['contract/**/*.ts'], rules: walls(SERVER, BFF, WIDGET, PLATFORM) },
  // contract/rules/: zod-free, and nothing from the rest of contract/ (which is zod).
  {
    files: ['contract/rules/**/*.ts'],
    rules: walls(SERVER, BFF, WIDGET, PLATFORM, ZOD, { group: ['../*', '../**'], message: 'contract/rules/ imports only contract/rules/.' }),
  },
  // platform/: plumbing both services use; imports contract/ and itself, and knows no URL of either service.
  {
    files: ['platform/**/*.ts'],
    rules: {
      ...walls(SERVER, BFF, WIDGET, BFF_API),
      'no-restricted-syntax': ['error', ...SERVICE_PATHS],
    },
  },
  // bff/: contract/ and platform/, never server/.
  { files: ['bff/**/*.ts'], rules: walls(SERVER, WIDGET) },
  // Inside bff/, no import runs back up from the floors every room stands on: its HTTP layer and its settings.
  { files: ['bff/http/**/*.ts'], rules: walls(SERVER, WIDGET, BFF_ROOMS_FROM_HTTP) },
  { files: ['bff/config.ts', 'bff/secrets-key.ts'], rules: walls(SERVER, WIDGET, BFF_ROOMS_FROM_CONFIG) },
  // widget/: its own files and contract/rules/ at run time; from the rest of contract/ only types.
  {
    files: ['widget/**/*.ts'],
    rules: walls(
      SERVER,
      BFF,
      PLATFORM,
      ZOD,
      {
        group: ['**/contract/*.js', '**/contract/*.ts'],
        allowTypeImports: true,
        message: 'The widget imports contract/ schemas as types only (import type): their values would bundle zod.',
      },
      {
        group: ['**/contract/rules/booking-time-words.*'],
        message: 'Those are the English sentences for integrators: the widget puts refusal codes in its own words (widget/i18n/).',
      },
    ),
  },
  // The widget's browser tests run in Chromium, Firefox and WebKit: @web/test-runner-commands' setViewport throws in
  // WebKit (a WebDriver launcher), test/widget/support/viewport.ts sizes the page in all three.
  {
    files: ['test/widget/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@web/test-runner-commands',
              importNames: ['setViewport'],
              message: 'Use setViewport from test/widget/support/viewport.ts: this one cannot size WebKit’s window.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.{js,mjs}'],
    languageOptions: { globals: { ...globals.node } },
  },
  // The WordPress plugin's editor script: a classic script in wp-admin, on the browser's and WordPress's globals.
  {
    files: ['wordpress/**/*.js'],
    languageOptions: { sourceType: 'script', globals: { ...globals.browser } },
  },
);
