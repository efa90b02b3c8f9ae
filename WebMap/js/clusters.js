// Markers and counted bubbles, clustered by the server for each view (GET /v1/clusters), the
// way supercluster's Leaflet demo does it: one request per map move, the answer drawn as is.
import { api } from './api.js';
import { flag } from './flags.js';
import { h } from './element.js';

// Below this zoom the whole world is asked for, so the bubbles account for every point
// even where the view shows less than the world (the sum at 15,000 km is all 54 markers).
const WORLD_QUERY_BELOW_ZOOM = 4;

export class ClusterLayer {
  /**
   * @param map the Leaflet map
   * @param names iso2 -> { name } for the markers' labels (the 54 news countries)
   * @param options.dataset a dataset id other than the markers, or null
   * @param options.onCountry called with an iso2 when a single marker is chosen
   */
  constructor(map, names, { dataset = null, onCountry = () => {}, onError = () => {} } = {}) {
    this.map = map;
    this.names = names;
    this.dataset = dataset;
    this.onCountry = onCountry;
    this.onError = onError;
    this.layer = L.layerGroup().addTo(map);
    this.pending = null;
    map.on('moveend', () => this.refresh());
  }

  /** The query for the current view: bbox (west > east across the antimeridian) and zoom. */
  query() {
    const zoom = this.map.getZoom();
    let bbox = '-180,-85,180,85';
    if (zoom >= WORLD_QUERY_BELOW_ZOOM) {
      const b = this.map.getBounds().pad(0.25);
      const west = b.getWest(), east = b.getEast();
      if (east - west < 360) bbox = [west, Math.max(b.getSouth(), -85), east, Math.min(b.getNorth(), 85)].map((v) => v.toFixed(5)).join(',');
    }
    return { bbox, zoom: zoom.toFixed(3), tileSize: 256, dataset: this.dataset };
  }

  async refresh() {
    this.pending?.abort();
    const controller = new AbortController();
    this.pending = controller;
    const view = this.map.getContainer().dataset.view;
    try {
      const collection = await api.clusters(this.query(), controller.signal);
      if (controller.signal.aborted) return;
      this.draw(collection.features);
      // Read by the budgets in Benchmarks/webmap: the time from navigation to the first markers.
      if (!performance.getEntriesByName('geonews:first-markers').length) performance.mark('geonews:first-markers');
      this.map.getContainer().dataset.clustersView = view;
    } catch (e) {
      if (e.name !== 'AbortError') this.onError(e);
    }
  }

  draw(features) {
    this.layer.clearLayers();
    this.drawFeatures(features);
    if (!this.dataset) this.declutter();
    this.tabOnlyToVisible();
  }

  /**
   * Takes the markers outside the view out of the tab order: Tab then walks what a person sees,
   * and never makes the browser scroll the map's box to show a marker Leaflet placed off it.
   */
  tabOnlyToVisible() {
    const view = this.map.getContainer().getBoundingClientRect();
    for (const el of this.map.getPane('markerPane').querySelectorAll('.leaflet-marker-icon')) {
      const r = el.getBoundingClientRect();
      const inside = r.right > view.left && r.left < view.right && r.bottom > view.top && r.top < view.bottom;
      el.tabIndex = inside ? 0 : -1;
    }
  }

  /**
   * Hides the names that would cover a bubble or an earlier label, as a map app does with its
   * annotation titles: the marker keeps its flag, and its name stays in its accessible label
   * and its tooltip. Bubbles are placed first; then markers in the server's order.
   */
  declutter() {
    const icons = [...this.map.getPane('markerPane').querySelectorAll('.leaflet-marker-icon')];
    const placed = icons.filter((el) => el.classList.contains('bubble')).map((el) => el.getBoundingClientRect());
    const overlaps = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
    for (const el of icons.filter((e) => e.classList.contains('country-marker'))) {
      el.classList.remove('flag-only');
      let box = el.getBoundingClientRect();
      if (placed.some((p) => overlaps(box, p))) {
        el.classList.add('flag-only');
        box = el.getBoundingClientRect();
      }
      placed.push(box);
    }
  }

  drawFeatures(features) {
    for (const f of features) {
      const [lon, lat] = f.geometry.coordinates;
      const p = f.properties;
      const marker = p.cluster ? this.bubble(p) : this.point(p);
      marker.setLatLng([lat, lon]);
      const act = () => (p.cluster ? this.expand(p, [lat, lon]) : this.choose(p, [lat, lon]));
      marker.on('click', act);
      this.layer.addLayer(marker);
      const el = marker.getElement();
      if (el) {
        // Leaflet 1.6 makes markers focusable but opens only popups from the keyboard.
        el.setAttribute('role', 'button');
        el.addEventListener('keydown', (e) => {
          if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); act(); }
        });
      }
    }
  }

  bubble(p) {
    const count = p.point_count;
    const size = count < 10 ? 34 : count < 100 ? 40 : 48;
    const label = `${count} ${this.dataset ? 'points' : 'countries'}: zoom in`;
    return L.marker([0, 0], {
      title: label, alt: label, zIndexOffset: 1000, // above the wide country labels
      icon: elementIcon('bubble', [size, size], h('span', {}, String(p.point_count_abbreviated ?? count))),
    }).on('add', (e) => {
      const el = e.target.getElement();
      el.dataset.count = String(count);
      el.dataset.clusterId = String(p.cluster_id);
      el.dataset.expansionZoom = String(p.expansion_zoom ?? '');
      el.setAttribute('aria-label', label);
    });
  }

  point(p) {
    const iso2 = typeof p.id === 'string' ? p.id.toUpperCase() : null;
    const name = (iso2 && this.names.get(iso2)?.name) || p.name || (iso2 ?? 'point');
    const label = this.dataset ? name : `${name}: headlines`;
    const icon = this.dataset ? elementIcon('point', null, h('span', { class: 'dot' }))
      : elementIcon('country-marker', null, h('span', { class: 'flag' }, flag(iso2)), h('span', { class: 'name' }, name));
    return L.marker([0, 0], {
      title: label, alt: label, icon,
    }).on('add', (e) => {
      const el = e.target.getElement();
      el.dataset.count = '1';
      if (iso2) el.dataset.iso2 = iso2;
      el.setAttribute('aria-label', label);
    });
  }

  async expand(p, latlng) {
    let zoom = p.expansion_zoom;
    if (zoom === undefined || zoom === null) {
      try {
        const answer = await api.expansionZoom(p.cluster_id, this.dataset);
        zoom = typeof answer === 'number' ? answer : answer.expansionZoom ?? answer.expansion_zoom;
      } catch (e) {
        this.onError(e);
        return;
      }
    }
    this.map.flyTo(latlng, zoom, { duration: 0.6 });
  }

  choose(p, latlng) {
    if (!this.dataset && typeof p.id === 'string') this.onCountry(p.id.toUpperCase(), latlng);
  }
}

/**
 * A div icon that holds `children` (elements and text, never HTML). Leaflet 1.6 takes one
 * element as a div icon's html, and a country marker's flex box holds two: flag and name.
 */
function elementIcon(className, iconSize, ...children) {
  const icon = L.divIcon({ html: false, className, iconSize });
  const createIcon = icon.createIcon.bind(icon);
  icon.createIcon = (old) => {
    const div = createIcon(old);
    div.replaceChildren(...children);
    return div;
  };
  return icon;
}
