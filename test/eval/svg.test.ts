/**
 * The report's SVG writer: golden output, well-formed XML, bars proportional to their values, labels
 * escaped. Run with UPDATE_GOLDEN=1 to rewrite the golden file after an intended change, then review it.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { escapeXml, renderBarChart, type BarPanel } from '../../eval/svg.ts';

const GOLDEN = 'test/golden/svg/bar-chart.svg';
const PANELS: BarPanel[] = [
  { title: 'Spatial QA: both-pass and p@5', series: ['both', 'p@5'], rows: [{ label: 'Spatial-RAG', values: [1, 0.799] }, { label: 'SD (sort by distance)', values: [0.25, 0.235] }] },
  { title: 'Tools <MRR@5 & NDCG@5>', series: ['MRR@5', 'NDCG@5'], rows: [{ label: 'BM25 "over" tool texts', values: [0.804, null] }, { label: 'a <script>alert(1)</script> & co', values: [0.5, 1.7] }] },
  { title: 'Counts', series: ['runs'], max: 40, format: (v) => String(v), rows: [{ label: 'accepted', values: [30] }, { label: 'rejected', values: [10] }] },
];

/**
 * A strict little XML well-formedness check: one root, every tag closed in order, quoted attributes,
 * no raw '<' or unknown entity in text. (No XML parser is a dependency of the project.)
 */
function assertWellFormed(xml: string): void {
  const stack: string[] = [];
  const token = /<(\/?)([A-Za-z][\w:-]*)((?:\s+[\w:-]+="[^"<]*")*)\s*(\/?)>|<!--[\s\S]*?-->|([^<]+)|(<)/g;
  let roots = 0;
  for (const m of xml.matchAll(token)) {
    const [, closing, name, , selfClosing, text, stray] = m;
    if (stray) throw new Error(`stray '<' at ${m.index}: ${xml.slice(m.index!, m.index! + 40)}`);
    if (text !== undefined) {
      if (stack.length === 0 && text.trim()) throw new Error(`text outside the root: ${text.slice(0, 40)}`);
      for (const e of text.matchAll(/&([^;\s]*);?/g)) if (!/^(amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+)$/.test(e[1]!) || !e[0].endsWith(';')) throw new Error(`bad entity ${e[0]}`);
      continue;
    }
    if (!name) continue;
    if (closing) {
      if (stack.pop() !== name) throw new Error(`</${name}> closes the wrong element`);
    } else if (!selfClosing) {
      if (stack.length === 0) roots++;
      stack.push(name);
    } else if (stack.length === 0) roots++;
  }
  if (stack.length) throw new Error(`unclosed: ${stack.join(' > ')}`);
  if (roots !== 1) throw new Error(`${roots} root elements`);
}

const bars = (svg: string) =>
  [...svg.matchAll(/<rect class="bar"[^>]*\swidth="([\d.]+)"[^>]*data-value="([\d.]+)"/g)].map((m) => ({ width: Number(m[1]), value: Number(m[2]) }));

describe('evaluation SVG writer', () => {
  const svg = renderBarChart(PANELS, { title: 'Evaluation & <ablations>' });

  it('matches the golden file', () => {
    if (process.env.UPDATE_GOLDEN === '1') {
      mkdirSync(dirname(GOLDEN), { recursive: true });
      writeFileSync(GOLDEN, svg);
    }
    if (!existsSync(GOLDEN)) throw new Error(`golden file ${GOLDEN} is missing; run with UPDATE_GOLDEN=1 to create it`);
    expect(svg).toBe(readFileSync(GOLDEN, 'utf8'));
  });

  it('is well-formed SVG', () => {
    expect(() => assertWellFormed(svg)).not.toThrow();
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    // The checker itself rejects what it must.
    expect(() => assertWellFormed('<svg><g></svg>')).toThrow();
    expect(() => assertWellFormed('<svg><text>a < b</text></svg>')).toThrow();
    expect(() => assertWellFormed('<svg><text>R&D</text></svg>')).toThrow();
  });

  it('draws bars proportional to their values, clamped to the panel maximum', () => {
    const drawn = bars(svg);
    // 2 + 2 rows × 2 series, minus the null one; 2 rows × 1 series.
    expect(drawn).toHaveLength(4 + 3 + 2);
    const full = drawn.find((b) => b.value === 1)!.width;
    expect(full).toBeGreaterThan(100);
    for (const b of drawn.slice(0, 7)) expect(b.width).toBeCloseTo(Math.min(1, b.value) * full, 1);
    // Another maximum in the third panel: 30 of 40 is three quarters of the full length.
    expect(drawn[7]!.width).toBeCloseTo(0.75 * full, 1);
    expect(drawn[8]!.width).toBeCloseTo(0.25 * full, 1);
    // The value printed beside a bar is the value, not the clamped one.
    expect(svg).toContain('>1.700</text>');
    expect(svg).toContain('>–</text>');
  });

  it('escapes labels, titles and series names', () => {
    expect(escapeXml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
    expect(svg).not.toContain('<script');
    expect(svg).toContain('a &lt;script&gt;alert(1)&lt;/script&gt; &amp; co');
    expect(svg).toContain('Tools &lt;MRR@5 &amp; NDCG@5&gt;');
    expect(svg).toContain('BM25 &quot;over&quot; tool texts');
  });

  it('gives the same bytes for the same numbers', () => {
    expect(renderBarChart(PANELS, { title: 'Evaluation & <ablations>' })).toBe(svg);
  });
});
