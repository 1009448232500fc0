/**
 * The colours used where a clinic gave none, or gave one that is not a hex
 * colour: the BFF falls back to them when it sanitises, the widget when it themes.
 */
export const DEFAULT_THEME = {
  primary: '#0f766e',
  secondary: '#b45309',
  dark: '#134e4a',
} as const;
