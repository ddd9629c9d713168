import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { DEMO_DATA } from '../../seed/index.ts';

/**
 * The Midtown demo ships in seed/; the rest of the shared real data is read from ../shared/data (never copied
 * into the repo), and tests using it skip when it is absent.
 */
export const SHARED_DATA = resolve(process.env.SRAG_SHARED_DATA ?? '../shared/data');
export const MIDTOWN_PBF = DEMO_DATA.midtownPbf;
export const NYC_NEIGHBORHOODS = DEMO_DATA.neighborhoods;
export const WIKIVOYAGE = resolve(SHARED_DATA, 'world/wikivoyage-destinations.geojson');
export const hasNycData = existsSync(MIDTOWN_PBF) && existsSync(NYC_NEIGHBORHOODS);
export const NO_NYC_DATA = `skipped: ${MIDTOWN_PBF} not found (the shared real data is not present)`;
