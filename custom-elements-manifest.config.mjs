// custom-elements.json, generated from the widget's source and JSDoc (cem analyze).
export default {
  globs: ['widget/**/*.ts'],
  exclude: ['widget/dist/**', 'widget/**/*.styles.ts'],
  outdir: 'widget/dist',
  litelement: true,
  plugins: [
    {
      // Internal state ({ state: true } in static properties) has no attribute; the analyzer lists
      // one for every static property, so drop those of private fields.
      name: 'no-attributes-for-internal-state',
      packageLinkPhase({ customElementsManifest }) {
        for (const declaration of customElementsManifest.modules.flatMap((module) => module.declarations ?? [])) {
          if (!declaration.attributes) continue;
          const internal = new Set((declaration.members ?? []).filter((member) => member.privacy === 'private').map((member) => member.name));
          declaration.attributes = declaration.attributes.filter((attribute) => !internal.has(attribute.fieldName));
        }
      },
    },
  ],
};
