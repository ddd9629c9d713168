/**
 * The Citus test mode: DATABASE_URL names the coordinator of scripts/setup-citus.sh and CITUS_ADMIN_URL its
 * superuser login (both printed by the script). Each test database is made a Citus database by
 * src/db/citus-admin.ts.
 */
import * as admin from '../../src/db/citus-admin.ts';

const adminUrl = process.env.CITUS_ADMIN_URL;
export const isCitus = Boolean(process.env.DATABASE_URL && adminUrl);

/** The template every worker database is copied from (scripts/setup-citus.sh: postgis, vector, pg_trgm). */
const WORKER_TEMPLATE = process.env.SRAG_TEST_TEMPLATE_DB ?? 'spatial_rag_template';

export const citusWorkers = (serverUrl = process.env.DATABASE_URL!) => admin.citusWorkers(adminUrl!, serverUrl);
export const prepareCitusDatabase = (serverUrl: string, name: string) => admin.prepareCitusDatabase(adminUrl!, serverUrl, name, WORKER_TEMPLATE);
export const dropCitusDatabase = (serverUrl: string, name: string) => admin.dropCitusDatabase(adminUrl!, serverUrl, name);
