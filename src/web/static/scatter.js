// The spatial vs semantic scatter of the candidates, with the Pareto front, as hand-drawn SVG.
import { axisFloor, axisTicks, escapeHtml, formatScore, paretoStaircase, rankColour, spatialScore } from './util.js';

const W = 360;
const H = 260;
const M = { left: 44, right: 14, top: 14, bottom: 40 };
const PW = W - M.left - M.right;
const PH = H - M.top - M.bottom;

const f = (v) => v.toFixed(1);
const tickLabel = (v) => String(Math.round(v * 100) / 100);

/**
 * SVG markup for the candidates of a response. Points are focusable buttons (Enter/Space select them);
 * `data-index` is the candidate's position in the response.
 */
export function scatterSvg(response, strings, selected = -1) {
  const candidates = response.candidates ?? [];
  const points = candidates.map((c, i) => ({
    x: spatialScore(c, response.tradeOff),
    y: typeof c.scores?.semantic === 'number' ? c.scores.semantic : 0,
    c,
    i,
  }));
  const front = points.filter((p) => p.c.pareto);
  // Both axes end at 1 and start just below the lowest score, so crowded scores stay apart.
  const xlo = axisFloor(points.map((p) => p.x));
  const ylo = axisFloor(points.map((p) => p.y));
  const sx = (v) => M.left + ((v - xlo) / (1 - xlo)) * PW;
  const sy = (v) => M.top + (1 - (v - ylo) / (1 - ylo)) * PH;

  let svg = `<svg class="scatter" viewBox="0 0 ${W} ${H}" role="group" aria-labelledby="scatter-title scatter-desc">`;
  svg += `<title id="scatter-title">${escapeHtml(strings.scatter)}</title><desc id="scatter-desc">${escapeHtml(strings.scatterDesc)}</desc>`;
  svg += `<rect class="plot" x="${M.left}" y="${M.top}" width="${PW}" height="${PH}"/>`;
  for (const t of axisTicks(xlo)) {
    svg += `<line class="grid" x1="${f(sx(t))}" y1="${M.top}" x2="${f(sx(t))}" y2="${M.top + PH}"/>`;
    svg += `<text class="tick" x="${f(sx(t))}" y="${M.top + PH + 14}" text-anchor="middle">${tickLabel(t)}</text>`;
  }
  for (const t of axisTicks(ylo)) {
    svg += `<line class="grid" x1="${M.left}" y1="${f(sy(t))}" x2="${M.left + PW}" y2="${f(sy(t))}"/>`;
    svg += `<text class="tick" x="${M.left - 6}" y="${f(sy(t) + 4)}" text-anchor="end">${tickLabel(t)}</text>`;
  }
  svg += `<text class="axis" x="${M.left + PW / 2}" y="${H - 6}" text-anchor="middle">${escapeHtml(strings.spatialAxis)} →</text>`;
  svg += `<text class="axis" transform="translate(12 ${M.top + PH / 2}) rotate(-90)" text-anchor="middle">${escapeHtml(strings.semanticAxis)} →</text>`;

  if (front.length > 0) {
    const steps = paretoStaircase(front, xlo, ylo);
    const d = steps.map(([x, y], k) => `${k === 0 ? 'M' : 'L'}${f(sx(x))} ${f(sy(y))}`).join(' ');
    // The region the front dominates, lightly shaded, and its staircase boundary.
    svg += `<path class="dominated" d="${d} L${f(sx(xlo))} ${f(sy(ylo))} Z"/>`;
    svg += `<path class="front" d="${d}"><title>${escapeHtml(strings.onFront)}</title></path>`;
  }

  // Dominated points first, so the front is drawn on top; the best rank last of all.
  const order = [...points].sort((a, b) => Number(a.c.pareto) - Number(b.c.pareto) || b.i - a.i);
  for (const p of order) {
    const colour = rankColour(p.i, candidates.length);
    const label = `${p.i + 1}. ${p.c.name}: ${strings.spatialAxis} ${formatScore(p.x)}, ${strings.semanticAxis} ${formatScore(p.y)}, ${p.c.pareto ? strings.onFront : strings.offFront}`;
    const cls = `scatter-point${p.c.pareto ? ' is-pareto' : ''}${p.i === selected ? ' selected' : ''}`;
    svg += `<g class="${cls}" data-index="${p.i}" tabindex="0" role="button" aria-label="${escapeHtml(label)}" aria-pressed="${p.i === selected}">`;
    svg += `<title>${escapeHtml(label)}</title>`;
    svg += `<circle cx="${f(sx(p.x))}" cy="${f(sy(p.y))}" r="${p.i === selected ? 10 : 8}" style="--c:${colour}"/>`;
    svg += `<text x="${f(sx(p.x))}" y="${f(sy(p.y) + 3.5)}" text-anchor="middle">${p.i + 1}</text></g>`;
  }
  svg += '</svg>';
  return svg;
}
