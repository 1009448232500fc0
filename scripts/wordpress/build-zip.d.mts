/** wordpress/dist/clinic-booking.zip. */
export const DEFAULT_ZIP: string;
/** Writes the plugin's zip (its folder at the top) to `out`, replacing one there; returns its path. */
export function buildPluginZip(out?: string): string;
