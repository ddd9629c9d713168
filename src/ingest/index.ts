/** Public surface of the pure ingestion layer (no database): readers, category table, descriptions. */
export * from './feature.js';
export * from './category.js';
export { describePlace, hasProse, type DescribeContext } from './describe.js';
export { readOsmPbf, emptyOsmStats, isAreaTags, AREA_KEYS, type OsmReadOptions, type OsmReadStats } from './osm.js';
export { readGeoJson, type GeoJsonReadOptions } from './geojson.js';
export { readCsv, type CsvReadOptions } from './csv.js';
export { parseWkt } from './wkt.js';
export { readPlaces, detectFormat, SOURCE_PRESETS, type PlaceFormat, type ReadPlacesOptions } from './formats.js';
