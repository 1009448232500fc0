/** wordpress/clinic-booking/languages/clinic-booking.pot. */
export const POT: string;
/** Writes the plugin's translation template to `out` (POT by default); returns its path. */
export function makePot(out?: string): string;
