// The explorer's map: Leaflet (served from node_modules), a basemap drawn from the database, an optional raster
// tile layer, and the answer: reference geometry, search area, candidates coloured by rank and Pareto membership.
import * as L from '/web/vendor/leaflet/leaflet-src.esm.js';
import { bboxParam, escapeHtml, formatDistance, geometryCentre, metresPerPixel, rankColour, searchAreas } from './util.js';

const AREA_COLOUR = '#2563eb';
const REFERENCE_COLOUR = '#7c3aed';
/** From this zoom on, building footprints join the basemap. */
const BUILDINGS_ZOOM = 16;

const BASEMAP_STYLE = {
  streets: (zoom) => ({ color: '#ffffff', weight: zoom >= 16 ? 5 : zoom >= 14 ? 3 : 1.5, opacity: 1, lineCap: 'round' }),
  areas: () => ({ stroke: false, fillColor: '#c8e6c0', fillOpacity: 1 }),
  buildings: () => ({ color: '#d5cdc2', weight: 0.6, fillColor: '#e4ddd3', fillOpacity: 1 }),
  neighbourhoods: () => ({ color: '#8b7fa8', weight: 1.2, dashArray: '4 4', fill: false, opacity: 0.9 }),
};

const toLatLng = ([lon, lat]) => L.latLng(lat, lon);

export class ExplorerMap {
  /**
   * @param {HTMLElement} element
   * @param {{ tiles: null | { url: string, attribution: string | null, maxZoom: number }, extent: number[] | null,
   *           strings: () => Record<string, any>, onSelect: (index: number) => void }} options
   */
  constructor(element, options) {
    this.element = element;
    this.options = options;
    this.map = L.map(element, { zoomControl: true, keyboard: true, zoomSnap: 0.5, minZoom: 2, maxZoom: options.tiles?.maxZoom ?? 19, worldCopyJump: true });
    this.map.attributionControl.setPrefix('<a href="https://leafletjs.com" title="Leaflet">Leaflet</a>');
    this.map.createPane('basemap').style.zIndex = '250';
    const areaPane = this.map.createPane('searchArea');
    areaPane.style.zIndex = '350';
    // Fill and stroke of the area are drawn opaque and the pane made translucent: overlaps read as one union.
    areaPane.style.opacity = '0.2';
    this.map.createPane('reference').style.zIndex = '450';
    // Reference labels sit below the candidate markers (600) so they never hide one.
    this.map.createPane('referenceLabels').style.zIndex = '590';

    this.basemapRenderer = L.canvas({ pane: 'basemap', padding: 0.2 });
    this.basemap = {
      streets: L.layerGroup(),
      areas: L.layerGroup(),
      buildings: L.layerGroup(),
      neighbourhoods: L.layerGroup(),
    };
    // Draw order: areas, buildings, streets, outlines.
    for (const name of ['areas', 'buildings', 'streets', 'neighbourhoods']) this.basemap[name].addTo(this.map);
    this.tiles = options.tiles
      ? L.tileLayer(options.tiles.url, {
          maxZoom: options.tiles.maxZoom,
          attribution: options.tiles.attribution ? escapeHtml(options.tiles.attribution) : '',
        }).addTo(this.map)
      : null;

    this.areaLayer = L.layerGroup().addTo(this.map);
    this.referenceLayer = L.layerGroup().addTo(this.map);
    this.candidateLayer = L.layerGroup().addTo(this.map);
    this.markers = [];
    this.buffers = [];
    this.selected = -1;
    this.layersControl = null;
    this.buildLayersControl();
    this.setDataAttributes();

    const extent = options.extent;
    if (extent) this.map.fitBounds([[extent[1], extent[0]], [extent[3], extent[2]]]);
    else this.map.setView([0, 0], 2);

    this.map.on('zoomend', () => this.resizeBuffers());
    this.map.on('resize', () => {
      if (this.view) this.fit(this.view);
    });
    this.map.on('moveend', () => this.scheduleBasemap());
    this.scheduleBasemap(0);
  }

  /** Numbers for tests and tools: rendered candidate markers, basemap features, search areas. */
  setDataAttributes() {
    this.element.dataset.candidateMarkers = String(this.markers.length);
    this.element.dataset.searchAreas = String(this.areaCount ?? 0);
  }

  buildLayersControl() {
    const s = this.options.strings();
    if (this.layersControl) this.layersControl.remove();
    const overlays = {
      [s.layerStreets]: this.basemap.streets,
      [s.layerAreas]: this.basemap.areas,
      [s.layerBuildings]: this.basemap.buildings,
      [s.layerNeighbourhoods]: this.basemap.neighbourhoods,
      [s.layerArea]: this.areaLayer,
      [s.layerReference]: this.referenceLayer,
      [s.layerCandidates]: this.candidateLayer,
    };
    if (this.tiles) overlays[s.layerTiles] = this.tiles;
    this.layersControl = L.control.layers(undefined, overlays, { collapsed: true, position: 'topright' }).addTo(this.map);
    const toggle = this.layersControl.getContainer()?.querySelector('.leaflet-control-layers-toggle');
    if (toggle) {
      toggle.setAttribute('aria-label', s.map);
      toggle.setAttribute('title', s.map);
    }
  }

  /** The UI language changed. */
  relabel() {
    this.buildLayersControl();
    this.element.setAttribute('aria-label', this.options.strings().mapLabel);
  }

  invalidateSize() {
    this.map.invalidateSize();
  }

  // ------------------------------------------------------------------------------------------------
  // Basemap from the database

  scheduleBasemap(delay = 250) {
    clearTimeout(this.basemapTimer);
    this.basemapTimer = setTimeout(() => void this.loadBasemap(), delay);
  }

  async loadBasemap() {
    const bounds = this.map.getBounds().pad(0.2);
    const zoom = this.map.getZoom();
    const layers = ['streets', 'areas', 'neighbourhoods', ...(zoom >= BUILDINGS_ZOOM ? ['buildings'] : [])];
    const bbox = bboxParam(bounds.getWest(), bounds.getSouth(), bounds.getEast(), bounds.getNorth());
    this.basemapAbort?.abort();
    const abort = new AbortController();
    this.basemapAbort = abort;
    this.element.dataset.basemapState = 'loading';
    try {
      const response = await fetch(`/web/basemap?bbox=${bbox}&layers=${layers.join(',')}`, { signal: abort.signal });
      if (!response.ok) throw new Error(`basemap: HTTP ${response.status}`);
      const collection = await response.json();
      if (abort.signal.aborted) return;
      const byLayer = { streets: [], areas: [], buildings: [], neighbourhoods: [] };
      for (const f of collection.features) byLayer[f.properties.layer]?.push(f);
      for (const [name, features] of Object.entries(byLayer)) {
        const group = this.basemap[name];
        group.clearLayers();
        if (features.length === 0) continue;
        group.addLayer(
          L.geoJSON({ type: 'FeatureCollection', features }, {
            renderer: this.basemapRenderer,
            pane: 'basemap',
            interactive: false,
            style: () => BASEMAP_STYLE[name](zoom),
          }),
        );
      }
      this.element.dataset.basemapFeatures = String(collection.features.length);
      this.element.dataset.basemapState = 'loaded';
    } catch (error) {
      if (abort.signal.aborted) return;
      this.element.dataset.basemapState = 'failed';
      console.warn(error);
    }
  }

  // ------------------------------------------------------------------------------------------------
  // The answer

  clearAnswer() {
    this.areaLayer.clearLayers();
    this.referenceLayer.clearLayers();
    this.candidateLayer.clearLayers();
    this.markers = [];
    this.buffers = [];
    this.areaCount = 0;
    this.view = null;
    this.selected = -1;
    this.element.dataset.selected = '';
    this.element.dataset.optionMarkers = '0';
    this.map.closePopup();
    this.setDataAttributes();
  }

  /** Draws a /v1/ask response; returns the search areas drawn (for the legend). */
  showAnswer(response) {
    this.clearAnswer();
    const candidates = response.candidates ?? [];
    const areas = searchAreas(response.plan, response.reference, candidates, this.options.functions?.());
    const bounds = L.latLngBounds([]);

    for (const area of areas) this.drawArea(area, bounds);
    this.areaCount = areas.length;

    for (const feature of response.reference?.features ?? []) {
      if (!feature?.geometry) continue;
      const label = feature.properties?.name || feature.properties?.text || '';
      const layer = L.geoJSON(feature, {
        pane: 'reference',
        style: () => ({ color: REFERENCE_COLOUR, weight: 4, fillColor: REFERENCE_COLOUR, fillOpacity: 0.06, className: 'ref-feature' }),
        pointToLayer: (_f, latlng) =>
          L.circleMarker(latlng, {
            pane: 'reference',
            radius: 8,
            color: '#ffffff',
            weight: 3,
            fillColor: REFERENCE_COLOUR,
            fillOpacity: 1,
            className: 'ref-feature',
          }),
      });
      if (label) layer.bindTooltip(escapeHtml(label), { permanent: true, direction: 'top', className: 'ref-label', offset: [0, -8], pane: 'referenceLabels' });
      layer.addTo(this.referenceLayer);
      extend(bounds, layer.getBounds());
    }

    candidates.forEach((candidate, index) => {
      const colour = rankColour(index, candidates.length);
      const geometry = candidate.geometry;
      if (geometry && geometry.type !== 'Point') {
        const shape = L.geoJSON(geometry, {
          style: () => ({ color: colour, weight: 2, fillColor: colour, fillOpacity: 0.25, className: 'cand-shape' }),
        });
        shape.on('click', () => this.options.onSelect(index));
        shape.addTo(this.candidateLayer);
        extend(bounds, shape.getBounds());
      }
      const centre = geometryCentre(geometry);
      if (!centre) return;
      const s = this.options.strings();
      const marker = L.marker(toLatLng(centre), {
        icon: L.divIcon({
          className: `cand-marker ${candidate.pareto ? 'is-pareto' : 'is-dominated'}`,
          html: `<span class="pin" style="--c:${colour}">${index + 1}</span>`,
          iconSize: [28, 28],
          iconAnchor: [14, 14],
          popupAnchor: [0, -14],
        }),
        title: candidate.name,
        keyboard: true,
        riseOnHover: true,
        zIndexOffset: (candidates.length - index) * 10,
      });
      marker.on('click', () => this.options.onSelect(index));
      marker.addTo(this.candidateLayer);
      const el = marker.getElement();
      if (el) {
        el.dataset.rank = String(index + 1);
        el.dataset.candidateId = String(candidate.id);
        el.dataset.pareto = String(Boolean(candidate.pareto));
        el.setAttribute('role', 'button');
        el.setAttribute('aria-label', `${index + 1}. ${candidate.name}, ${candidate.pareto ? s.onFront : s.offFront}`);
      }
      this.markers.push({ marker, candidate, index });
      bounds.extend(marker.getLatLng());
    });

    this.setDataAttributes();
    this.fit(bounds.isValid() ? { bounds, maxZoom: 17, padding: 36 } : null);
    return areas;
  }

  drawArea(area, bounds) {
    const style = { pane: 'searchArea', color: AREA_COLOUR, fillColor: AREA_COLOUR, opacity: 1, fillOpacity: 1, className: 'search-area' };
    if (area.kind === 'circle') {
      const circle = L.circle(toLatLng(area.geometry.coordinates), { ...style, radius: area.metres, weight: 0 }).addTo(this.areaLayer);
      // A crisp edge on top of the translucent pane.
      L.circle(toLatLng(area.geometry.coordinates), {
        radius: area.metres,
        color: AREA_COLOUR,
        weight: 1.5,
        dashArray: '6 4',
        fill: false,
        interactive: false,
        className: 'search-area-edge',
      }).addTo(this.areaLayer);
      extend(bounds, circle.getBounds());
    } else if (area.kind === 'ring') {
      const ring = L.circle(toLatLng(area.geometry.coordinates), {
        radius: area.metres,
        color: AREA_COLOUR,
        weight: 1.5,
        dashArray: '6 4',
        fill: false,
        interactive: false,
        className: 'search-area-edge',
      }).addTo(this.areaLayer);
      extend(bounds, ring.getBounds());
    } else {
      const fill = area.kind === 'fill' || Boolean(area.fill);
      const layer = L.geoJSON(area.geometry, {
        pane: 'searchArea',
        interactive: false,
        style: () => ({ ...style, fill, weight: area.kind === 'fill' ? 0 : 1, lineCap: 'round', lineJoin: 'round', noClip: true }),
      }).addTo(this.areaLayer);
      if (area.kind === 'fill') {
        L.geoJSON(area.geometry, {
          interactive: false,
          style: () => ({ color: AREA_COLOUR, weight: 1.5, dashArray: '6 4', fill: false, className: 'search-area-edge' }),
        }).addTo(this.areaLayer);
      }
      const layerBounds = layer.getBounds();
      extend(bounds, layerBounds);
      if (area.kind === 'buffer' && layerBounds.isValid()) {
        this.buffers.push({ layer, metres: area.metres, lat: layerBounds.getCenter().lat });
        // The buffer reaches `metres` beyond the line: include it in the view.
        const pad = area.metres / 111_320;
        bounds.extend([layerBounds.getSouth() - pad, layerBounds.getWest() - pad / Math.cos((layerBounds.getCenter().lat * Math.PI) / 180)]);
        bounds.extend([layerBounds.getNorth() + pad, layerBounds.getEast() + pad / Math.cos((layerBounds.getCenter().lat * Math.PI) / 180)]);
      }
    }
    this.resizeBuffers();
  }

  /** A buffer is a stroke 2 x metres wide, in pixels at the current zoom. */
  resizeBuffers() {
    const zoom = this.map.getZoom();
    if (zoom === undefined) return;
    for (const b of this.buffers) {
      const weight = Math.max(1, (2 * b.metres) / metresPerPixel(b.lat, zoom));
      b.layer.setStyle({ weight });
    }
  }

  /** The places a clarification offers, lettered A, B, C… as in the list; choosing one on the map re-asks. */
  showOptions(options, onChoose) {
    this.clearAnswer();
    const bounds = L.latLngBounds([]);
    options.forEach((option, i) => {
      if (typeof option.lon !== 'number' || typeof option.lat !== 'number') return;
      const letter = optionLetter(i);
      const marker = L.marker([option.lat, option.lon], {
        icon: L.divIcon({ className: 'option-marker', html: `<span class="pin">${letter}</span>`, iconSize: [26, 26], iconAnchor: [13, 13] }),
        title: `${letter}. ${option.name}`,
        keyboard: true,
      });
      marker.bindTooltip(escapeHtml(`${letter}. ${option.name}`), { direction: 'top', offset: [0, -12] });
      marker.on('click', () => onChoose(option));
      marker.addTo(this.candidateLayer);
      const el = marker.getElement();
      if (el) {
        el.dataset.option = letter;
        el.setAttribute('role', 'button');
        el.setAttribute('aria-label', `${letter}. ${option.name}${option.hint ? `, ${option.hint}` : ''}`);
      }
      bounds.extend(marker.getLatLng());
    });
    this.element.dataset.optionMarkers = String(this.candidateLayer.getLayers().length);
    this.fit(bounds.isValid() ? { bounds, maxZoom: 16, padding: 48 } : null);
  }

  /** Fits the view to what was drawn, and again when the map changes size (a phone turned, a window resized). */
  fit(view) {
    this.view = view;
    if (view) this.map.fitBounds(view.bounds, { padding: [view.padding, view.padding], maxZoom: view.maxZoom });
  }

  select(index) {
    const s = this.options.strings();
    this.markers.forEach(({ marker, index: i }) => {
      const el = marker.getElement();
      el?.classList.toggle('selected', i === index);
      el?.setAttribute('aria-pressed', String(i === index));
      marker.setZIndexOffset(i === index ? 10_000 : (this.markers.length - i) * 10);
    });
    const entry = this.markers.find((m) => m.index === index);
    this.selected = index;
    this.element.dataset.selected = String(index + 1);
    if (!entry) return;
    const c = entry.candidate;
    const html =
      `<strong>${index + 1}. ${escapeHtml(c.name)}</strong>` +
      `<br><span class="muted">${escapeHtml(c.category ?? '')} · ${escapeHtml(formatDistance(c.distanceM))} · ${escapeHtml(c.pareto ? s.onFront : s.offFront)}</span>` +
      (c.why ? `<br>${escapeHtml(c.why)}` : '');
    // A popup of the map, not bound to the marker: a bound one would toggle shut on a second click.
    this.popup ??= L.popup({ maxWidth: 280, autoPanPadding: [24, 24], offset: [0, -12] });
    this.popup.setLatLng(entry.marker.getLatLng()).setContent(html).openOn(this.map);
  }
}

/** A, B, … Z, then AA, AB, … */
export function optionLetter(i) {
  return i < 26 ? String.fromCharCode(65 + i) : optionLetter(Math.floor(i / 26) - 1) + optionLetter(i % 26);
}

function extend(bounds, other) {
  if (other && other.isValid && other.isValid()) bounds.extend(other);
}
