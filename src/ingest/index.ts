/** Public surface of the pure ingestion layer (no database): readers, category table, descriptions. */
export * from './feature.ts';
export * from './category.ts';
export { describePlace, hasProse, type DescribeContext } from './describe.ts';
export { readOsmPbf, emptyOsmStats, isAreaTags, AREA_KEYS, type OsmReadOptions, type OsmReadStats } from './osm.ts';
export { readGeoJson, type GeoJsonReadOptions } from './geojson.ts';
export { readCsv, type CsvReadOptions } from './csv.ts';
export { parseWkt } from './wkt.ts';
export { readPlaces, detectFormat, SOURCE_PRESETS, type PlaceFormat, type ReadPlacesOptions } from './formats.ts';
