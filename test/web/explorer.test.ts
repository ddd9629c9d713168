// The web explorer on the Midtown data: its HTTP routes (page, assets, config, basemap from the database), and
// end to end in headless Chromium (Debian's package, driven by playwright-core): ask, see the answer, the
// candidates in the table and on the map, select one, screenshots under docs/; the clarification flow; the
// tools and workflow section; the language toggle.
import { existsSync, mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { questionWithChoice } from '../../src/web/static/util.js';
import { hasNycData, NO_NYC_DATA } from '../helpers/data.ts';
import { testMode } from '../helpers/database.ts';
import { startTestService, type TestService } from '../helpers/service.ts';

const CHROMIUM = '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
const NO_CHROMIUM = `skipped: ${CHROMIUM} not found (install it as root with scripts/install-chromium.sh)`;
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const DOCS = resolve('docs');
/** A bbox around Grand Central Terminal and Bryant Park. */
const MIDTOWN_BBOX = '-73.99,40.748,-73.97,40.758';

interface Candidate {
  id: number;
  name: string;
  pareto: boolean;
  scores: Record<string, number>;
}
interface AskBody {
  answer: string;
  candidates: Candidate[];
  sql: string;
  clarification?: { question: string; reference: string; options: { name: string; category: string | null }[] };
  tools?: unknown[];
  workflow?: unknown;
  [key: string]: unknown;
}
interface BasemapBody {
  type: string;
  features: { geometry: { type: string; coordinates: unknown }; properties: { layer: string; name: string | null } }[];
  layers: Record<string, { count: number; truncated: boolean }>;
}

let service: TestService | undefined;
beforeAll(async () => {
  if (hasNycData) service = await startTestService({}, { fixture: 'nyc' });
});
afterAll(async () => service?.stop());

const url = (path: string) => `${service!.url}${path}`;

function positionsOf(geometry: { coordinates: unknown }): number[][] {
  const out: number[][] = [];
  const walk = (c: unknown) => {
    if (Array.isArray(c) && typeof c[0] === 'number') out.push(c as number[]);
    else if (Array.isArray(c)) c.forEach(walk);
  };
  walk(geometry.coordinates);
  return out;
}

describe.skipIf(!hasNycData)(`web explorer routes (${testMode} mode)`, () => {
  it('serves the page with a strict CSP, its modules and Leaflet from node_modules', async () => {
    const page = await fetch(url('/'));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");
    const html = await page.text();
    expect(html).toContain('<script type="module" src="/web/assets/app.js"></script>');
    expect(html).toContain('<label for="question"');

    for (const [path, type] of [
      ['/web/assets/app.js', 'text/javascript'],
      ['/web/assets/map.js', 'text/javascript'],
      ['/web/assets/style.css', 'text/css'],
      ['/web/vendor/leaflet/leaflet-src.esm.js', 'text/javascript'],
      ['/web/vendor/leaflet/leaflet.css', 'text/css'],
      ['/web/vendor/leaflet/images/layers.png', 'image/png'],
    ] as const) {
      const res = await fetch(url(path));
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type'), path).toContain(type);
      await res.arrayBuffer();
    }
    // Only the allow-listed files: no directory walking, no other file of the tree.
    for (const path of ['/web/assets/nope.js', '/web/assets/index.html', '/web/assets/util.d.ts', '/web/assets/..%2Fweb.routes.ts', '/web/vendor/leaflet/leaflet.js']) {
      const res = await fetch(url(path));
      expect(res.status, path).toBe(404);
      expect(res.headers.get('content-type'), path).toBe('application/problem+json');
      await res.arrayBuffer();
    }
  });

  it('GET /web/config: no tile URL by default, and the extent of the data', async () => {
    const res = await fetch(url('/web/config'));
    expect(res.status).toBe(200);
    const body = (await res.json()) as { tiles: unknown; extent: [number, number, number, number] };
    expect(body.tiles).toBeNull();
    const [minLon, minLat, maxLon, maxLat] = body.extent;
    // Midtown Manhattan: the points of the extract, not the city-wide neighbourhood outlines.
    expect(minLon).toBeGreaterThan(-74.05);
    expect(maxLon).toBeLessThan(-73.93);
    expect(minLat).toBeGreaterThan(40.72);
    expect(maxLat).toBeLessThan(40.78);
  });

  it('GET /web/basemap: streets, areas and neighbourhood outlines of a bbox from the database', async () => {
    const res = await fetch(url(`/web/basemap?bbox=${MIDTOWN_BBOX}`));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/geo+json');
    const body = (await res.json()) as BasemapBody;
    expect(body.type).toBe('FeatureCollection');
    const byLayer = (layer: string) => body.features.filter((f) => f.properties.layer === layer);
    expect(byLayer('streets').length).toBeGreaterThan(20);
    expect(byLayer('areas').length).toBeGreaterThan(3);
    expect(byLayer('neighbourhoods').length).toBeGreaterThan(0);
    expect(byLayer('buildings')).toEqual([]);
    expect(byLayer('streets').every((f) => /LineString$/.test(f.geometry.type))).toBe(true);
    expect([...byLayer('areas'), ...byLayer('neighbourhoods')].every((f) => /Polygon$/.test(f.geometry.type))).toBe(true);
    expect(byLayer('streets').map((f) => f.properties.name)).toContain('Madison Avenue');
    expect(byLayer('areas').map((f) => f.properties.name)).toContain('Bryant Park');
    expect(body.layers.streets).toEqual({ count: byLayer('streets').length, truncated: false });
    // Every feature's envelope meets the bbox (coordinates are rounded to 6 decimals).
    const [w, s, e, n] = MIDTOWN_BBOX.split(',').map(Number).map((v, i) => v + (i < 2 ? -1e-5 : 1e-5)) as [number, number, number, number];
    for (const f of body.features) {
      const ps = positionsOf(f.geometry);
      const xs = ps.map((p) => p[0]!);
      const ys = ps.map((p) => p[1]!);
      expect(Math.min(...xs) <= e && Math.max(...xs) >= w && Math.min(...ys) <= n && Math.max(...ys) >= s).toBe(true);
    }
  });

  it('GET /web/basemap: limits per layer, buildings on request', async () => {
    const res = await fetch(url(`/web/basemap?bbox=${MIDTOWN_BBOX}&layers=streets,buildings&limit=7`));
    const body = (await res.json()) as BasemapBody;
    expect(body.layers).toEqual({ streets: { count: 7, truncated: true }, buildings: { count: 7, truncated: true } });
    expect(body.features).toHaveLength(14);
    expect(body.features.filter((f) => f.properties.layer === 'buildings').every((f) => /Polygon$/.test(f.geometry.type))).toBe(true);
  });

  it.each([
    ['bbox=-73.99,40.75,-73.98', 'bbox'],
    ['bbox=-73.98,40.75,-73.99,40.76', 'bbox'],
    ['bbox=-190,40.75,-73.98,40.76', 'bbox'],
    ['', 'bbox'],
    [`bbox=${MIDTOWN_BBOX}&layers=streets,tunnels`, 'layers'],
    [`bbox=${MIDTOWN_BBOX}&limit=0`, 'limit'],
    [`bbox=${MIDTOWN_BBOX}&colour=red`, 'colour'],
  ])('GET /web/basemap?%s is a problem+json 400 naming %s', async (query, field) => {
    const res = await fetch(url(`/web/basemap?${query}`));
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    const body = (await res.json()) as { errors: { in: string; field: string }[] };
    expect(body.errors.map((e) => [e.in, e.field])).toContainEqual(['query', field]);
  });
});

if (!hasNycData) console.warn(NO_NYC_DATA);
if (!hasChromium) console.warn(NO_CHROMIUM);

describe.skipIf(!hasNycData || !hasChromium)(`web explorer in headless Chromium (${testMode} mode)`, () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
    mkdirSync(DOCS, { recursive: true });
  });
  afterAll(async () => browser?.close());

  /** A page on the explorer that records script errors; the test fails on any. */
  async function openExplorer(viewport = { width: 1280, height: 900 }) {
    const page = await browser.newPage({ viewport, locale: 'en-US' });
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    await page.goto(url('/'));
    await page.waitForSelector('body[data-ready="true"]');
    return { page, errors };
  }

  async function askAndWait(page: Page, ask: () => Promise<void>): Promise<AskBody> {
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/v1/ask') && r.request().method() === 'POST', { timeout: 90_000 }),
      ask(),
    ]);
    expect(response.status()).toBe(200);
    const body = (await response.json()) as AskBody;
    await page.waitForSelector('#answer[data-state="answered"], #answer[data-state="clarification"]', { timeout: 30_000 });
    return body;
  }

  /** The map's counters (data attributes set by the page). */
  const mapData = async (page: Page) => {
    const read = (name: string) => page.getAttribute('#map', `data-${name}`);
    return {
      candidateMarkers: await read('candidate-markers'),
      optionMarkers: await read('option-markers'),
      searchAreas: await read('search-areas'),
      basemapFeatures: await read('basemap-features'),
      basemapState: await read('basemap-state'),
    };
  };
  const scrollToTop = (page: Page) => page.evaluate('window.scrollTo(0, 0)');

  it('asks a question, shows the answer, the candidates in the table and on the map, selects one', async () => {
    const { page, errors } = await openExplorer();
    const question = 'Show me cafés within 200 m of Herald Square';
    // Typed, then asked with the button (the example chips are made from the data: test/places/first-run.test.ts).
    await page.fill('#question', question);
    const body = await askAndWait(page, () => page.getByRole('button', { name: 'Ask', exact: true }).click());
    expect(body.clarification).toBeUndefined();
    expect(body.candidates.length).toBeGreaterThanOrEqual(3);
    expect(await page.inputValue('#question')).toBe(question);
    expect(await page.textContent('#answer')).toBe(body.answer);

    // The table: one row per candidate, best first, with the scores.
    const rows = page.locator('#candidates tbody tr[data-index]');
    expect(await rows.count()).toBe(body.candidates.length);
    expect(await page.$$eval('#candidates tbody tr[data-index] .select-candidate', (els) => els.map((e) => e.textContent))).toEqual(
      body.candidates.map((c) => c.name),
    );
    expect(await page.$$eval('#candidates thead th', (els) => els.map((e) => e.textContent))).toEqual([
      '#', 'Name', 'Distance', 'Sparse', 'Dense spatial', 'Semantic', 'Hybrid', 'Pareto',
    ]);
    const firstRow = await rows.first().locator('td').allTextContents();
    expect(firstRow[6]).toBe(body.candidates[0]!.scores.hybrid!.toFixed(2));

    // The map: one marker per candidate, in rank order, marked as on or off the Pareto front.
    await page.waitForSelector('#map[data-basemap-state="loaded"]', { timeout: 30_000 });
    const data = await mapData(page);
    expect(Number(data.candidateMarkers)).toBe(body.candidates.length);
    expect(Number(data.basemapFeatures)).toBeGreaterThan(50);
    expect(Number(data.searchAreas)).toBe(1);
    const markers = await page.$$eval('#map .leaflet-marker-pane .cand-marker', (els) =>
      els.map((e) => ({ id: Number(e.getAttribute('data-candidate-id')), rank: Number(e.getAttribute('data-rank')), pareto: e.getAttribute('data-pareto') })),
    );
    expect(markers.sort((a, b) => a.rank - b.rank)).toEqual(
      body.candidates.map((c, i) => ({ id: c.id, rank: i + 1, pareto: String(c.pareto) })),
    );
    expect(await page.locator('#map path.search-area').count()).toBeGreaterThanOrEqual(1);
    expect(await page.locator('#map .ref-feature').count()).toBeGreaterThanOrEqual(1);

    // The scatter: one point per candidate; the front's points are the Pareto ones.
    expect(await page.locator('#scatter .scatter-point').count()).toBe(body.candidates.length);
    expect(await page.locator('#scatter .scatter-point.is-pareto').count()).toBe(body.candidates.filter((c) => c.pareto).length);
    expect(await page.locator('#scatter path.front').count()).toBe(1);

    // Tools are shown only when the response has them.
    const hasTools = (Array.isArray(body.tools) && body.tools.length > 0) || Boolean(body.workflow);
    expect(await page.locator('#tools-section').isVisible()).toBe(hasTools);

    // Clicking a marker selects the candidate everywhere: the row, the detail, the popup, the scatter point.
    // The map may still be settling its view when the marker is clicked: a click that missed is made again.
    await page.click('#map .cand-marker[data-rank="2"]');
    const second = body.candidates[1]!;
    await expect
      .poll(
        async () => {
          const selected = await rows.nth(1).getAttribute('aria-selected');
          if (selected !== 'true') await page.click('#map .cand-marker[data-rank="2"]');
          return selected;
        },
        { timeout: 15_000, interval: 1_000 },
      )
      .toBe('true');
    expect(await rows.nth(0).getAttribute('aria-selected')).toBe('false');
    expect(await page.textContent('#detail')).toContain(second.name);
    expect(await page.textContent('#map .leaflet-popup-content')).toContain(second.name);
    expect(await page.getAttribute('#scatter .scatter-point[data-index="1"]', 'aria-pressed')).toBe('true');
    expect(await page.getAttribute('#map .cand-marker[data-rank="2"]', 'class')).toContain('selected');

    // The keyboard selects too: a row's name is a button.
    await page.focus('#candidates tbody tr[data-index="0"] .select-candidate');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getAttribute('#map .cand-marker[data-rank="1"]', 'class')).toContain('selected');
    await page.click('#map .cand-marker[data-rank="2"]');
    await expect.poll(() => rows.nth(1).getAttribute('aria-selected')).toBe('true');

    await scrollToTop(page);
    await page.waitForTimeout(300);
    await page.screenshot({ path: resolve(DOCS, 'screenshot.png'), fullPage: true });

    // The SQL is behind a toggle.
    expect(await page.isVisible('#sql')).toBe(false);
    await page.click('#sql-title');
    expect(await page.isVisible('#sql')).toBe(true);
    expect(await page.textContent('#sql')).toContain('ST_Distance(ST_Affine(p.geom');
    expect(await page.textContent('#sql-parameters')).toContain('$1 = ');

    // Phone width: one column, the map still there with its markers.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.click('#sql-title');
    await page.waitForTimeout(500);
    const mapBox = (await page.locator('#map').boundingBox())!;
    const answerBox = (await page.locator('#results').boundingBox())!;
    expect(mapBox.width).toBeGreaterThan(300);
    expect(mapBox.width).toBeLessThanOrEqual(390);
    expect(mapBox.y).toBeGreaterThan(answerBox.y);
    expect(Number(await page.evaluate('document.documentElement.scrollWidth'))).toBeLessThanOrEqual(390);
    expect(await page.locator('#map .cand-marker').count()).toBe(body.candidates.length);
    await scrollToTop(page);
    await page.screenshot({ path: resolve(DOCS, 'screenshot-phone.png'), fullPage: true });

    expect(errors).toEqual([]);
    await page.close();
  }, 180_000);

  it('asks which place is meant when the reference is ambiguous, and re-asks with the chosen one', async () => {
    const { page, errors } = await openExplorer();
    const question = 'Which cafes are near the station?';
    await page.getByRole('textbox', { name: 'Your question' }).fill(question);
    const body = await askAndWait(page, () => page.keyboard.press('Enter'));
    expect(body.clarification).toBeDefined();
    const options = body.clarification!.options;
    expect(options.length).toBeGreaterThan(1);

    await page.waitForSelector('#answer[data-state="clarification"]');
    expect(await page.isVisible('#clarification')).toBe(true);
    expect(await page.textContent('#clarification-question')).toBe(body.clarification!.question);
    expect(await page.$$eval('#clarification-options .option', (els) => els.map((e) => e.getAttribute('data-name')))).toEqual(
      options.map((o) => o.name),
    );
    // Focus moves to the prompt, for keyboard and screen reader users.
    expect(await page.evaluate('document.activeElement && document.activeElement.id')).toBe('clarification');
    expect(await page.isVisible('#candidates-section')).toBe(false);
    expect((await mapData(page)).candidateMarkers).toBe('0');
    // The options are on the map too, lettered as in the list.
    expect(Number((await mapData(page)).optionMarkers)).toBe(options.length);
    expect(await page.locator('#map .option-marker').count()).toBe(options.length);
    await scrollToTop(page);
    await page.screenshot({ path: resolve(DOCS, 'screenshot-clarification.png'), fullPage: true });

    const choice = options.find((o) => /penn station/i.test(o.name) && o.category === 'station') ?? options[0]!;
    const expected = questionWithChoice(question, body.clarification!.reference, choice.name);
    const [request] = await Promise.all([
      page.waitForRequest((r) => r.url().endsWith('/v1/ask') && r.method() === 'POST'),
      page.locator(`#clarification-options .option[data-name="${choice.name}"]`).first().click(),
    ]);
    expect((request.postDataJSON() as { question: string }).question).toBe(expected);
    const answer = (await (await request.response())!.json()) as AskBody;
    await page.waitForSelector('#answer[data-state="answered"]', { timeout: 30_000 });
    expect(answer.clarification).toBeUndefined();
    expect(answer.candidates.length).toBeGreaterThan(0);
    expect(await page.inputValue('#question')).toBe(expected);
    expect(await page.isVisible('#clarification')).toBe(false);
    expect(await page.locator('#candidates tbody tr[data-index]').count()).toBe(answer.candidates.length);
    expect(Number((await mapData(page)).candidateMarkers)).toBe(answer.candidates.length);
    expect(errors).toEqual([]);
    await page.close();
  }, 180_000);

  it('renders recommended tools and the workflow chain when the response has them; switches the UI to Chinese', async () => {
    // A real answer with tools and a workflow added, as the tools feature will send them.
    const real = (await (
      await fetch(url('/v1/ask'), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ question: 'Museums in Chelsea', k: 5 }),
      })
    ).json()) as AskBody;
    const withTools = {
      ...real,
      tools: [
        { id: 'cloud_masking', name: 'Cloud masking', catalog: 'builtin', function: 'preprocessing', score: 0.91, why: 'removes clouds <b>first</b>', missingPrerequisites: [] },
        { id: 'ndvi', name: 'NDVI', catalog: 'builtin', function: 'index', score: 0.84, why: 'vegetation index of the park', missingPrerequisites: ['cloud_masking'] },
      ],
      workflow: {
        steps: [
          { toolId: 'cloud_masking', why: 'clear sky pixels' },
          { toolId: 'ndvi', why: 'greenness' },
        ],
        valid: true,
        assumptions: ['atmospheric_correction'],
      },
    };
    const { page, errors } = await openExplorer();
    await page.route('**/v1/ask', (route) => route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(withTools) }));
    await page.fill('#question', 'Museums in Chelsea');
    await askAndWait(page, () => page.click('#ask-button'));

    expect(await page.isVisible('#tools-section')).toBe(true);
    expect(await page.$$eval('#tools .tool', (els) => els.map((e) => e.getAttribute('data-tool-id')))).toEqual(['cloud_masking', 'ndvi']);
    // Text from the response is text, never markup.
    expect(await page.textContent('#tools .tool[data-tool-id="cloud_masking"]')).toContain('removes clouds <b>first</b>');
    expect(await page.locator('#tools b').count()).toBe(0);
    expect(await page.textContent('#tools .tool[data-tool-id="ndvi"]')).toContain('Needs first: Cloud masking');
    expect(await page.$$eval('#workflow .step .step-name', (els) => els.map((e) => e.textContent))).toEqual(['Cloud masking', 'NDVI']);
    expect(await page.textContent('#workflow-notes')).toContain('atmospheric_correction');
    // An inside constraint: the polygon is the search area.
    expect(Number((await mapData(page)).searchAreas)).toBe(1);

    // The UI in Chinese and back; the choice is the page's language for assistive technology too.
    await page.click('#lang-toggle');
    expect(await page.getAttribute('html', 'lang')).toBe('zh-CN');
    expect(await page.textContent('#tools-title')).toBe('推荐的对地观测工具');
    expect(await page.textContent('label[for="question"]')).toBe('你的问题');
    expect(await page.$$eval('#candidates thead th', (els) => els.map((e) => e.textContent))).toContain('帕累托');
    expect(await page.textContent('#lang-toggle')).toBe('English');
    await scrollToTop(page);
    await page.screenshot({ path: resolve(DOCS, 'screenshot-tools-zh.png'), fullPage: true });
    await page.click('#lang-toggle');
    expect(await page.getAttribute('html', 'lang')).toBe('en');
    expect(await page.textContent('#tools-title')).toBe('Recommended Earth-observation tools');

    expect(errors).toEqual([]);
    await page.close();
  }, 180_000);

  it('shows the problem details of a refused question', async () => {
    const { page } = await openExplorer({ width: 800, height: 700 });
    await page.route('**/v1/ask', (route) =>
      route.fulfill({
        status: 400,
        contentType: 'application/problem+json',
        body: JSON.stringify({ title: 'Bad Request', status: 400, detail: "invalid body field 'question'", errors: [{ in: 'body', field: 'question', message: 'must not be empty' }] }),
      }),
    );
    await page.fill('#question', 'anything');
    await page.click('#ask-button');
    await page.waitForSelector('#error:not([hidden])');
    expect(await page.textContent('#error')).toContain("invalid body field 'question'");
    expect(await page.textContent('#error')).toContain('must not be empty');
    expect(await page.getAttribute('#error', 'role')).toBe('alert');
    expect(await page.isDisabled('#ask-button')).toBe(false);
    await page.close();
  }, 60_000);
});
