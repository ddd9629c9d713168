// Types of util.js (the page's pure helpers), for the tests and the type checker.

export interface Geometry {
  type: string;
  coordinates?: unknown;
  geometries?: Geometry[];
}

export interface CandidateLike {
  distanceM?: number;
  scores?: { sparse?: number; denseSpatial?: number; semantic?: number; hybrid?: number; spatial?: number };
}

export interface TradeOffLike {
  spatialWeight?: number;
  semanticWeight?: number;
}

export interface SearchArea {
  fn: string;
  kind: 'circle' | 'ring' | 'buffer' | 'fill';
  geometry: Geometry;
  metres: number;
  fill?: boolean;
  constraint: Record<string, unknown>;
}

/** The explorer's view of the spatial functions' specs (GET /web/config `spatialFunctions`). */
export type SpatialFunctions = Record<
  string,
  {
    searchArea: { kind: string; metres?: string; sector?: { field: string; degrees: Record<string, number>; halfWidthDeg: number } };
    labels: { en: { area: string }; zh: { area: string }; words?: { en: Record<string, string>; zh: Record<string, string> } };
  }
>;

export function escapeHtml(value: unknown): string;
export function formatScore(value: unknown): string;
export function formatDistance(metres: unknown): string;
export function spatialScore(candidate: CandidateLike, tradeOff?: TradeOffLike): number;
export function paretoIndices(points: { x: number; y: number }[]): number[];
export function paretoStaircase(front: { x: number; y: number }[], xFloor?: number, yFloor?: number): [number, number][];
export function axisFloor(values: number[]): number;
export function axisTicks(floor: number): number[];
export function rankColour(rank: number, total: number): string;
export function metresPerPixel(lat: number, zoom: number): number;
export function positions(geometry: Geometry | null | undefined): number[][];
export function geometryBounds(geometry: Geometry | null | undefined): [number, number, number, number] | null;
export function geometryCentre(geometry: Geometry | null | undefined): [number, number] | null;
export function searchAreas(
  plan: { constraints?: unknown[]; route?: { from: string; to: string } } | null | undefined,
  reference: { features?: { geometry: Geometry; properties?: { ref?: string } }[] } | null | undefined,
  candidates?: CandidateLike[],
  functions?: SpatialFunctions,
): SearchArea[];
export function sectorPolygon(centre: [number, number], reference: Geometry, axis: number, halfWidthDeg: number, metres: number): Geometry;
export function areaLabel(area: SearchArea, functions: SpatialFunctions | undefined, lang: 'en' | 'zh'): string;
export function questionWithChoice(question: string, reference: string, name: string): string;
export function bboxParam(west: number, south: number, east: number, north: number): string;
export function formatParameters(parameters: unknown[] | null | undefined): string[];
