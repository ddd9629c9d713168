// Pure helpers of the explorer page: no DOM, no Leaflet, so they run (and are tested) in Node as well.
// Types: util.d.ts beside this file.

/** Escapes text for HTML element content and attribute values. */
export function escapeHtml(value) {
  return String(value ?? '').replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]);
}

/** A score with two decimals; an em dash when absent. */
export function formatScore(value) {
  return typeof value === 'number' && Number.isFinite(value) ? value.toFixed(2) : '—';
}

/** Metres as "85 m" or "1.2 km". */
export function formatDistance(metres) {
  if (typeof metres !== 'number' || !Number.isFinite(metres)) return '—';
  if (metres < 1000) return `${Math.round(metres)} m`;
  return `${(metres / 1000).toFixed(metres < 10_000 ? 1 : 0)} km`;
}

const clamp01 = (v) => Math.min(1, Math.max(0, v));

/**
 * A candidate's spatial relevance (the x of the Pareto front). The response has it as scores.spatial when
 * the service sends it; otherwise it is recovered from hybrid = wSpatial * spatial + wSemantic * semantic.
 */
export function spatialScore(candidate, tradeOff) {
  const s = candidate?.scores ?? {};
  if (typeof s.spatial === 'number') return s.spatial;
  const ws = tradeOff?.spatialWeight;
  const wm = tradeOff?.semanticWeight ?? 0;
  if (typeof ws === 'number' && ws > 0 && typeof s.hybrid === 'number') {
    return clamp01((s.hybrid - wm * (s.semantic ?? 0)) / ws);
  }
  // No trade-off: the sparse and dense spatial scores with the service's weights (0.6 + 0.15, renormalised).
  return clamp01(((s.sparse ?? 0) * 0.6 + (s.denseSpatial ?? 0) * 0.15) / 0.75);
}

/** Indices of the points that no other point beats on both x and y (maximising both). */
export function paretoIndices(points) {
  const out = [];
  points.forEach((p, i) => {
    const dominated = points.some((q, j) => j !== i && q.x >= p.x && q.y >= p.y && (q.x > p.x || q.y > p.y));
    if (!dominated) out.push(i);
  });
  return out;
}

/**
 * The staircase that bounds the region the front dominates (both axes maximised), as [x, y] pairs: from
 * the y axis at the height of the leftmost front point, down and right through every front point, to the
 * x axis below the rightmost one.
 */
export function paretoStaircase(front, xFloor = 0, yFloor = 0) {
  if (front.length === 0) return [];
  const sorted = [...front].sort((a, b) => a.x - b.x || b.y - a.y);
  const steps = [[xFloor, sorted[0].y]];
  sorted.forEach((p, i) => {
    if (i > 0) steps.push([sorted[i - 1].x, p.y]);
    steps.push([p.x, p.y]);
  });
  steps.push([sorted[sorted.length - 1].x, yFloor]);
  return steps;
}

/** Tick values of a score axis from `floor` to 1 on a round step (0.05, 0.1 or 0.25). */
export function axisTicks(floor) {
  const step = tickStep(floor);
  const ticks = [];
  for (let k = Math.ceil(floor / step - 1e-9); k * step <= 1 + 1e-9; k++) ticks.push(Math.round(k * step * 100) / 100 || 0);
  return ticks;
}

const tickStep = (floor) => {
  const span = 1 - floor;
  return span <= 0.3 + 1e-9 ? 0.05 : span <= 0.6 + 1e-9 ? 0.1 : 0.25;
};

/**
 * The lower end of a score axis that ends at 1: scores often crowd near 1, so the axis starts a little below
 * the smallest value, on a tick, and spans at least 0.2.
 */
export function axisFloor(values) {
  const finite = values.filter((v) => typeof v === 'number' && Number.isFinite(v));
  if (finite.length === 0) return 0;
  const lo = Math.min(0.8, Math.max(0, Math.floor((Math.min(...finite) - 0.02) * 10) / 10));
  // On the tick grid, so the axis starts with a tick.
  const step = tickStep(lo);
  return Math.round(Math.floor(lo / step + 1e-9) * step * 100) / 100;
}

/**
 * Colour of a candidate by rank (0 = best): dark red for the best, to amber for the last.
 * Pareto membership is shown by the fill (solid on the front, hollow off it), not by the hue.
 */
export function rankColour(rank, total) {
  const t = total > 1 ? rank / (total - 1) : 0;
  const hue = Math.round(350 + t * 55) % 360;
  const light = Math.round(34 + t * 18);
  return `hsl(${hue} 80% ${light}%)`;
}

/** Web Mercator ground resolution in metres per CSS pixel at a latitude and zoom (256-pixel tiles). */
export function metresPerPixel(lat, zoom) {
  return (156543.03392 * Math.cos((lat * Math.PI) / 180)) / 2 ** zoom;
}

/** Every [lon, lat] position of a GeoJSON geometry. */
export function positions(geometry) {
  const out = [];
  const walk = (c) => {
    if (Array.isArray(c) && typeof c[0] === 'number') out.push(c);
    else if (Array.isArray(c)) c.forEach(walk);
  };
  if (geometry?.type === 'GeometryCollection') geometry.geometries.forEach((g) => out.push(...positions(g)));
  else walk(geometry?.coordinates);
  return out;
}

/** [minLon, minLat, maxLon, maxLat] of a geometry, or null when it has no positions. */
export function geometryBounds(geometry) {
  const ps = positions(geometry);
  if (ps.length === 0) return null;
  const xs = ps.map((p) => p[0]);
  const ys = ps.map((p) => p[1]);
  return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
}

/** The centre of a geometry's bounds as [lon, lat] (the point itself for a point). */
export function geometryCentre(geometry) {
  if (geometry?.type === 'Point') return geometry.coordinates;
  const b = geometryBounds(geometry);
  return b ? [(b[0] + b[2]) / 2, (b[1] + b[3]) / 2] : null;
}

const isPolygonal = (g) => g?.type === 'Polygon' || g?.type === 'MultiPolygon';

/**
 * The search area of each constraint of a plan, drawn from the reference geometries of the response, as the
 * spec of its spatial function says (`functions`: the `spatialFunctions` of GET /web/config, from
 * src/spatial/functions); a function the table does not list is not drawn:
 * - `circle`: a point reference and a radius (`radius` functions; `ring` functions get a ring at the farthest answer);
 * - `buffer`: a line or polygon widened by `metres` (along a street or the route, between two references,
 *   within a distance of a line or area): the map draws it as a round-capped stroke 2 x metres wide,
 *   which is exact for the buffer of a line in the local plane;
 * - `fill`: a polygon: the reference itself (inside, intersects), or a compass sector (direction): a wedge
 *   from the reference's centre reaching `metres` beyond its farthest vertex (the service measures from the
 *   reference's closest point, so the wedge shows the sector, slightly wider than what qualifies).
 * Each area keeps its constraint, for its label (areaLabel).
 */
export function searchAreas(plan, reference, candidates = [], functions = {}) {
  const byRef = new Map();
  for (const f of reference?.features ?? []) if (f?.properties?.ref) byRef.set(f.properties.ref, f.geometry);
  const centreOf = (id) => {
    const g = byRef.get(id);
    return g ? geometryCentre(g) : null;
  };
  const routeLine = () => {
    const route = plan?.route;
    if (!route) return null;
    const a = centreOf(route.from);
    const b = centreOf(route.to);
    return a && b ? { type: 'LineString', coordinates: [a, b] } : null;
  };
  const geometryOf = (ref) => (ref === 'route' ? routeLine() : byRef.get(ref) ?? null);

  const areas = [];
  for (const c of plan?.constraints ?? []) {
    const spec = functions?.[c.fn]?.searchArea;
    if (!spec) continue;
    const metres = spec.metres ? Number(c[spec.metres]) : 0;
    const area = (kind, geometry, m, extra = {}) => areas.push({ fn: c.fn, kind, geometry, metres: m, ...extra, constraint: c });
    if (spec.kind === 'corridor') {
      const a = centreOf(c.refs?.[0]);
      const b = centreOf(c.refs?.[1]);
      if (a && b) area('buffer', { type: 'LineString', coordinates: [a, b] }, metres);
      continue;
    }
    const g = geometryOf(c.ref);
    if (!g) continue;
    if (spec.kind === 'radius') {
      if (g.type === 'Point') area('circle', g, metres);
      else area('buffer', g, metres, { fill: isPolygonal(g) });
    } else if (spec.kind === 'buffer') {
      area('buffer', g, metres, { fill: isPolygonal(g) });
    } else if (spec.kind === 'fill') {
      if (isPolygonal(g)) area('fill', g, 0);
      else area('buffer', g, 5);
    } else if (spec.kind === 'ring') {
      const farthest = Math.max(0, ...candidates.map((x) => (typeof x.distanceM === 'number' ? x.distanceM : 0)));
      const centre = geometryCentre(g);
      if (centre && farthest > 0) area('ring', { type: 'Point', coordinates: centre }, farthest);
    } else if (spec.kind === 'sector' && spec.sector) {
      const axis = spec.sector.degrees[c[spec.sector.field]];
      const centre = geometryCentre(g);
      if (centre && typeof axis === 'number') area('fill', sectorPolygon(centre, g, axis, spec.sector.halfWidthDeg, metres), metres);
    }
  }
  return areas;
}

/** Metres per degree of latitude (mean), for drawing only. */
const METRES_PER_DEGREE = 111_195;

/** A wedge from `centre` around the bearing `axis` (degrees clockwise from north), `metres` beyond the reference's farthest vertex. */
export function sectorPolygon(centre, reference, axis, halfWidthDeg, metres) {
  const kx = Math.cos((centre[1] * Math.PI) / 180) * METRES_PER_DEGREE;
  const extent = Math.max(0, ...positions(reference).map(([x, y]) => Math.hypot((x - centre[0]) * kx, (y - centre[1]) * METRES_PER_DEGREE)));
  const radius = extent + metres;
  const ring = [centre];
  for (let d = axis - halfWidthDeg; d <= axis + halfWidthDeg + 1e-9; d += halfWidthDeg / 8) {
    const t = (d * Math.PI) / 180;
    ring.push([centre[0] + (Math.sin(t) * radius) / kx, centre[1] + (Math.cos(t) * radius) / METRES_PER_DEGREE]);
  }
  ring.push(centre);
  return { type: 'Polygon', coordinates: [ring] };
}

/**
 * The legend's words for a search area, from its function's labels: `{m}` the area's metres, `{field}` a
 * field of the constraint (said in the function's words for the language when it lists them).
 */
export function areaLabel(area, functions, lang) {
  const labels = functions?.[area.fn]?.labels;
  const own = labels?.[lang];
  if (!own?.area) return area.fn;
  // A negated constraint's area is where answers are NOT ("outside"); an alternative is one of several areas.
  const negated = area.constraint?.negated === true;
  const template = negated ? (own.notArea ?? `${NOT_WORD[lang] ?? 'not '}${own.area}`) : own.area;
  const words = labels.words?.[lang] ?? {};
  const text = template.replace(/\{(\w+)\}/g, (whole, name) => {
    if (name === 'm') return String(Math.round(area.metres));
    const value = area.constraint?.[name];
    if (typeof value === 'string') return words[value] ?? value;
    return typeof value === 'number' ? String(value) : whole;
  });
  return area.constraint?.anyOf ? `${text}${ANY_OF_WORD[lang] ?? ' (or)'}` : text;
}

/** The words of negation and of alternatives, as the service's labels say them (src/spatial/functions/labels.ts). */
const NOT_WORD = { en: 'not ', zh: '不' };
const ANY_OF_WORD = { en: ' (or)', zh: '（或）' };

/**
 * The question to ask again once the user picked an option of a clarification: the ambiguous reference
 * replaced by the option's name (case-insensitive, first occurrence), or the name added when the question
 * does not contain the reference as written.
 */
export function questionWithChoice(question, reference, name) {
  const q = String(question ?? '').trim();
  const ref = String(reference ?? '').trim();
  if (ref) {
    const at = q.toLowerCase().indexOf(ref.toLowerCase());
    if (at >= 0) return q.slice(0, at) + name + q.slice(at + ref.length);
  }
  return /[\u3400-\u9fff]/.test(q) ? `${q}（${name}）` : `${q} (${name})`;
}

/** A view box as the basemap route's bbox parameter, clamped to valid WGS84 and rounded. */
export function bboxParam(west, south, east, north) {
  const r = (v) => Math.round(v * 1e5) / 1e5;
  const w = Math.max(-180, west);
  const e = Math.min(180, east);
  const s = Math.max(-90, south);
  const n = Math.min(90, north);
  return [r(w), r(s), r(Math.max(e, w + 1e-5)), r(Math.max(n, s + 1e-5))].join(',');
}

/** `$1 = 'Grand Central'` lines for the SQL parameters. */
export function formatParameters(parameters) {
  return (parameters ?? []).map((p, i) => `$${i + 1} = ${typeof p === 'string' ? `'${p}'` : JSON.stringify(p)}`);
}
