import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

/** The shared real data (read from there, never copied into the repo). Tests using it skip when it is absent. */
export const SHARED_DATA = resolve(process.env.SRAG_SHARED_DATA ?? '../shared/data');
export const MIDTOWN_PBF = resolve(SHARED_DATA, 'nyc/manhattan-midtown.osm.pbf');
export const NYC_NEIGHBORHOODS = resolve(SHARED_DATA, 'nyc/nyc-neighborhood-boundaries.geojson');
export const WIKIVOYAGE = resolve(SHARED_DATA, 'world/wikivoyage-destinations.geojson');
export const hasNycData = existsSync(MIDTOWN_PBF) && existsSync(NYC_NEIGHBORHOODS);
export const NO_NYC_DATA = `skipped: ${MIDTOWN_PBF} not found (the shared real data is not present)`;
