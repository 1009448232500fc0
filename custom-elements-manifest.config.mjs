// custom-elements.json, generated from the widget's source and JSDoc (cem analyze).
export default {
  globs: ['widget/**/*.ts'],
  exclude: ['widget/dist/**', 'widget/**/*.styles.ts'],
  outdir: 'widget/dist',
  litelement: true,
};
