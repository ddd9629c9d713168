/**
 * A small, dependency-free SVG bar chart for the evaluation report: one panel per section, one row per
 * method, one horizontal bar per series (metric or phase). Bar lengths are proportional to the value over
 * the panel's maximum; the output has no timestamps, so the same numbers give the same bytes.
 */

export interface BarPanel {
  title: string;
  /** Names of the bars drawn in each row (e.g. ["MRR@5", "NDCG@5"] or ["before", "after"]). */
  series: string[];
  /** `null` draws no bar and prints "–" (a metric that does not apply). */
  rows: { label: string; values: (number | null)[] }[];
  /** The value drawn full width (default 1). */
  max?: number;
  format?: (value: number) => string;
}

export interface ChartOptions {
  title?: string;
  width?: number;
}

const COLOURS = ['#4e79a7', '#f28e2b', '#59a14f', '#e15759', '#76b7b2'];
const LABEL_WIDTH = 290;
const VALUE_WIDTH = 56;
const BAR_HEIGHT = 12;
const BAR_GAP = 2;
const ROW_GAP = 8;
const TITLE_HEIGHT = 26;
const LEGEND_HEIGHT = 18;
const PANEL_GAP = 14;

/** Text and attribute values: the five XML special characters. */
export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

const r2 = (x: number) => Math.round(x * 100) / 100;

export function renderBarChart(panels: readonly BarPanel[], options: ChartOptions = {}): string {
  const width = options.width ?? 760;
  const barArea = width - LABEL_WIDTH - VALUE_WIDTH - 10;
  const out: string[] = [];
  let y = 0;
  if (options.title) {
    out.push(`<text x="0" y="18" font-size="15" font-weight="bold">${escapeXml(options.title)}</text>`);
    y = TITLE_HEIGHT;
  }
  for (const panel of panels) {
    const max = panel.max ?? 1;
    const format = panel.format ?? ((v: number) => v.toFixed(3));
    out.push(`<g class="panel">`);
    out.push(`<text x="0" y="${y + 16}" font-size="13" font-weight="bold">${escapeXml(panel.title)}</text>`);
    y += TITLE_HEIGHT - 4;
    let x = LABEL_WIDTH;
    panel.series.forEach((name, i) => {
      out.push(`<rect x="${x}" y="${y + 3}" width="10" height="10" fill="${COLOURS[i % COLOURS.length]}"/>`);
      out.push(`<text x="${x + 14}" y="${y + 12}" font-size="11">${escapeXml(name)}</text>`);
      x += 30 + 7 * name.length;
    });
    y += LEGEND_HEIGHT;
    for (const row of panel.rows) {
      const rowHeight = panel.series.length * (BAR_HEIGHT + BAR_GAP) - BAR_GAP;
      out.push(`<text x="${LABEL_WIDTH - 6}" y="${r2(y + rowHeight / 2 + 4)}" font-size="11" text-anchor="end">${escapeXml(row.label)}</text>`);
      panel.series.forEach((name, i) => {
        const value = row.values[i] ?? null;
        const by = y + i * (BAR_HEIGHT + BAR_GAP);
        if (value === null || !Number.isFinite(value)) {
          out.push(`<text x="${LABEL_WIDTH + 4}" y="${by + 10}" font-size="10" fill="#555">–</text>`);
          return;
        }
        const length = r2((Math.min(max, Math.max(0, value)) / max) * barArea);
        out.push(
          `<rect class="bar" x="${LABEL_WIDTH}" y="${by}" width="${length}" height="${BAR_HEIGHT}" fill="${COLOURS[i % COLOURS.length]}" data-value="${value}"><title>${escapeXml(`${row.label}, ${name}: ${format(value)}`)}</title></rect>`,
        );
        out.push(`<text x="${r2(LABEL_WIDTH + length + 4)}" y="${by + 10}" font-size="10">${escapeXml(format(value))}</text>`);
      });
      y += rowHeight + ROW_GAP;
    }
    out.push(`</g>`);
    y += PANEL_GAP;
  }
  const height = y;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" role="img">`,
    `<rect x="0" y="0" width="${width}" height="${height}" fill="#ffffff"/>`,
    ...out,
    `</svg>`,
    '',
  ].join('\n');
}
