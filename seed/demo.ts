import { fileURLToPath } from 'node:url';

/**
 * The Midtown Manhattan demo the README and the explorer show, shipped in this folder: the OpenStreetMap
 * extract (ODbL 1.0) and the NYC neighbourhood polygons (CC BY-SA 4.0); see nyc/LICENSE.md.
 */
export const DEMO_DATA = {
  midtownPbf: fileURLToPath(new URL('./nyc/manhattan-midtown.osm.pbf', import.meta.url)),
  neighborhoods: fileURLToPath(new URL('./nyc/nyc-neighborhood-boundaries.geojson', import.meta.url)),
};
