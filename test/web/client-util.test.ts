// The explorer page's pure helpers (src/web/static/util.js, i18n.js) run in Node as they do in the browser.
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config.ts';
import { initialLang, STRINGS } from '../../src/web/static/i18n.js';
import { explorerFunctions } from '../../src/spatial/functions/labels.ts';
import {
  areaLabel,
  axisFloor,
  axisTicks,
  bboxParam,
  escapeHtml,
  formatDistance,
  formatParameters,
  geometryCentre,
  metresPerPixel,
  paretoIndices,
  paretoStaircase,
  questionWithChoice,
  searchAreas,
  spatialScore,
} from '../../src/web/static/util.js';
import { readTileSettings } from '../../src/web/web.handlers.ts';
import { webRouter } from '../../src/web/web.index.ts';

const point = (lon: number, lat: number) => ({ type: 'Point', coordinates: [lon, lat] });
const ref = (id: string, geometry: { type: string; coordinates: unknown }) => ({ type: 'Feature', geometry, properties: { ref: id } });

describe('explorer helpers', () => {
  it('escapes HTML in names and texts', () => {
    expect(escapeHtml(`<img src=x onerror="alert('1')">&`)).toBe('&lt;img src=x onerror=&quot;alert(&#39;1&#39;)&quot;&gt;&amp;');
    expect(escapeHtml(null)).toBe('');
  });

  it('recovers the spatial score from the hybrid score and the trade-off, or uses scores.spatial when sent', () => {
    const tradeOff = { spatialWeight: 0.75, semanticWeight: 0.25 };
    const spatial = 0.8;
    const semantic = 0.4;
    const hybrid = Math.round((0.75 * spatial + 0.25 * semantic) * 1000) / 1000;
    expect(spatialScore({ scores: { hybrid, semantic } }, tradeOff)).toBeCloseTo(spatial, 2);
    expect(spatialScore({ scores: { hybrid, semantic, spatial: 0.5 } }, tradeOff)).toBe(0.5);
    expect(spatialScore({ scores: { sparse: 1, denseSpatial: 1 } }, undefined)).toBe(1);
  });

  it('finds the Pareto front and its staircase (both axes maximised)', () => {
    const pts = [
      { x: 0.9, y: 0.5 },
      { x: 0.5, y: 0.9 },
      { x: 0.4, y: 0.4 },
      { x: 0.7, y: 0.7 },
    ];
    expect(paretoIndices(pts)).toEqual([0, 1, 3]);
    const front = [0, 1, 3].map((i) => pts[i]!);
    expect(paretoStaircase(front)).toEqual([
      [0, 0.9],
      [0.5, 0.9],
      [0.5, 0.7],
      [0.7, 0.7],
      [0.7, 0.5],
      [0.9, 0.5],
      [0.9, 0],
    ]);
    expect(paretoStaircase([{ x: 0.8, y: 0.9 }], 0.5, 0.6)).toEqual([
      [0.5, 0.9],
      [0.8, 0.9],
      [0.8, 0.6],
    ]);
    expect(paretoStaircase([])).toEqual([]);
  });

  it('starts the score axes just below the lowest score, on a round tick', () => {
    expect(axisFloor([0.95, 0.99])).toBe(0.8);
    expect(axisFloor([0.71, 1])).toBe(0.6);
    expect(axisFloor([0.05, 1])).toBe(0);
    expect(axisFloor([])).toBe(0);
    expect(axisTicks(0)).toEqual([0, 0.25, 0.5, 0.75, 1]);
    expect(axisTicks(0.6)).toEqual([0.6, 0.7, 0.8, 0.9, 1]);
    expect(axisTicks(0.8)).toEqual([0.8, 0.85, 0.9, 0.95, 1]);
  });

  it('draws the search area of every spatial function from the reference geometries', () => {
    const gct = point(-73.9772, 40.7527);
    const penn = point(-73.9935, 40.7506);
    const broadway = { type: 'MultiLineString', coordinates: [[[-73.99, 40.75], [-73.98, 40.76]]] };
    const chelsea = { type: 'Polygon', coordinates: [[[-74.01, 40.74], [-73.99, 40.74], [-73.99, 40.75], [-74.01, 40.74]]] };
    const reference = { features: [ref('r1', gct), ref('r2', penn), ref('r3', broadway), ref('r4', chelsea)] };
    const plan = {
      route: { from: 'r2', to: 'r1' },
      constraints: [
        { fn: 'within_distance', ref: 'r1', distanceM: 200 },
        { fn: 'within_distance', ref: 'r4', distanceM: 100 },
        { fn: 'along', ref: 'r3', bufferM: 50 },
        { fn: 'along', ref: 'route', bufferM: 150 },
        { fn: 'between', refs: ['r1', 'r2'], bufferM: 120 },
        { fn: 'inside', ref: 'r4' },
        { fn: 'intersects', ref: 'r3' },
        { fn: 'nearest', ref: 'r1', k: 3 },
        { fn: 'direction', ref: 'r1', bearing: 'north_east', distanceM: 300 },
      ],
    };
    const functions = explorerFunctions();
    const areas = searchAreas(plan, reference, [{ distanceM: 80 }, { distanceM: 310 }], functions);
    expect(areas.map((a) => [a.fn, a.kind, a.metres, a.fill ?? null])).toEqual([
      ['within_distance', 'circle', 200, null],
      ['within_distance', 'buffer', 100, true],
      ['along', 'buffer', 50, false],
      ['along', 'buffer', 150, false],
      ['between', 'buffer', 120, null],
      ['inside', 'fill', 0, null],
      ['intersects', 'buffer', 5, null],
      ['nearest', 'ring', 310, null],
      ['direction', 'fill', 300, null],
    ]);
    // The sector of a point: a wedge from it, every vertex 300 m away between north and east.
    const wedge = (areas[8]!.geometry.coordinates as number[][][])[0]!;
    expect(wedge[0]).toEqual(gct.coordinates);
    const kx = Math.cos((gct.coordinates[1]! * Math.PI) / 180);
    for (const [x, y] of wedge.slice(1, -1)) {
      const east = (x! - gct.coordinates[0]!) * kx;
      const north = y! - gct.coordinates[1]!;
      expect(east).toBeGreaterThanOrEqual(-1e-9);
      expect(north).toBeGreaterThanOrEqual(-1e-9);
      expect(Math.hypot(east, north) * 111_195).toBeCloseTo(300, 3);
    }
    // Each legend text from the function's labels, in either language.
    expect(areas.map((a) => areaLabel(a, functions, 'en'))).toEqual([
      'within 200 m',
      'within 100 m',
      'within 50 m of the line',
      'within 150 m of the line',
      'corridor 120 m wide each side',
      'inside',
      'intersects',
      'nearest (up to 310 m)',
      'north-east of the reference, within 300 m',
    ]);
    expect(areaLabel(areas[8]!, functions, 'zh')).toBe('东北侧 300 米以内');
    // A negated area says where answers are not; an alternative says it is one of several.
    const outside = { ...areas[5]!, constraint: { fn: 'inside', ref: 'r2', negated: true } };
    expect(areaLabel(outside, functions, 'en')).toBe('outside');
    expect(areaLabel(outside, functions, 'zh')).toBe('在区域以外');
    const either = { ...areas[0]!, constraint: { fn: 'within_distance', ref: 'r1', distanceM: 200, anyOf: 'g1' } };
    expect(areaLabel(either, functions, 'en')).toBe('within 200 m (or)');
    const notNorth = { ...areas[8]!, constraint: { ...areas[8]!.constraint, negated: true } };
    expect(areaLabel(notNorth, functions, 'en')).toBe('not north-east of the reference, within 300 m');
    // Without the table (the settings not loaded yet) nothing is drawn.
    expect(searchAreas(plan, reference)).toEqual([]);
    // The route and the corridor are the straight segment between the two references.
    expect(areas[3]!.geometry).toEqual({ type: 'LineString', coordinates: [penn.coordinates, gct.coordinates] });
    expect(areas[4]!.geometry).toEqual({ type: 'LineString', coordinates: [gct.coordinates, penn.coordinates] });
    // Nothing for a reference the response does not have (a clarification has no reference).
    expect(searchAreas(plan, { features: [] }, [], functions)).toEqual([]);
    expect(searchAreas(undefined, undefined)).toEqual([]);
  });

  it('re-asks a clarified question with the chosen name', () => {
    expect(questionWithChoice('Which cafes are near the Station?', 'station', 'New York Penn Station')).toBe(
      'Which cafes are near the New York Penn Station?',
    );
    expect(questionWithChoice('宾州车站附近的药店', '宾州车站', 'New York Penn Station')).toBe('New York Penn Station附近的药店');
    expect(questionWithChoice('cafes near it', 'the station', 'Penn Station')).toBe('cafes near it (Penn Station)');
    expect(questionWithChoice('附近的药店', '车站', 'Penn Station')).toBe('附近的药店（Penn Station）');
  });

  it('formats distances, parameters, bbox and map scale', () => {
    expect(formatDistance(84.6)).toBe('85 m');
    expect(formatDistance(1234)).toBe('1.2 km');
    expect(formatDistance(undefined)).toBe('—');
    expect(formatParameters(['a', 200, ['x']])).toEqual(["$1 = 'a'", '$2 = 200', '$3 = ["x"]']);
    expect(bboxParam(-200, -95, 200, 95)).toBe('-180,-90,180,90');
    expect(bboxParam(-73.9912345, 40.7512345, -73.97, 40.76)).toBe('-73.99123,40.75123,-73.97,40.76');
    expect(metresPerPixel(0, 0)).toBeCloseTo(156543.03, 1);
    expect(metresPerPixel(60, 1)).toBeCloseTo(156543.03 / 4, 0);
    expect(geometryCentre({ type: 'LineString', coordinates: [[0, 0], [2, 4]] })).toEqual([1, 2]);
    expect(geometryCentre({ type: 'Polygon', coordinates: [] })).toBeNull();
  });

  it('has every UI text in English and Chinese', () => {
    expect(Object.keys(STRINGS.zh).sort()).toEqual(Object.keys(STRINGS.en).sort());
    expect(initialLang('zh', ['en-US'])).toBe('zh');
    expect(initialLang(null, ['zh-CN', 'en'])).toBe('zh');
    expect(initialLang('fr', ['de'])).toBe('en');
  });
});

describe('MAP_TILE_URL', () => {
  it('is optional', () => {
    expect(readTileSettings({})).toBeNull();
    expect(readTileSettings({ MAP_TILE_URL: '  ' })).toBeNull();
  });

  it('accepts an XYZ template and allows its origin in the page CSP', async () => {
    const tiles = readTileSettings({ MAP_TILE_URL: 'http://tiles.internal:8080/osm/{z}/{x}/{y}.png', MAP_TILE_ATTRIBUTION: '© local tiles' });
    expect(tiles).toEqual({
      url: 'http://tiles.internal:8080/osm/{z}/{x}/{y}.png',
      attribution: '© local tiles',
      maxZoom: 19,
      cspSource: 'http://tiles.internal:8080',
    });
    expect(readTileSettings({ MAP_TILE_URL: 'https://{s}.tiles.example/{z}/{x}/{y}.png' })!.cspSource).toBe('https:');
    // The page route needs no database.
    const routes = webRouter({ db: undefined as never, env: { MAP_TILE_URL: 'http://tiles.internal:8080/{z}/{x}/{y}.png' } });
    const page = await routes.request('/');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("img-src 'self' data: http://tiles.internal:8080");
  });

  it.each([
    [{ MAP_TILE_URL: 'http://tiles.internal/{z}/{x}.png' }, 'MAP_TILE_URL'],
    [{ MAP_TILE_URL: 'file:///tiles/{z}/{x}/{y}.png' }, 'MAP_TILE_URL'],
    [{ MAP_TILE_URL: 'not a url {z}{x}{y}' }, 'MAP_TILE_URL'],
    [{ MAP_TILE_URL: 'http://t/{z}/{x}/{y}.png', MAP_TILE_MAX_ZOOM: '30' }, 'MAP_TILE_MAX_ZOOM'],
  ])('refuses %j naming %s', (env, variable) => {
    expect(() => readTileSettings(env)).toThrow(ConfigError);
    expect(() => readTileSettings(env)).toThrow(new RegExp(`^invalid configuration: ${variable}=`));
  });
});
