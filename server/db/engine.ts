// Moved to platform/ so the BFF's own database (bff/sites/) reads DATABASE_URL the same way.
export { engineOfUrl, type Engine } from '../../platform/database/database-url.js';
