// The Leaflet map over our own base layer (Data/basemap.geojson, no tiles), and camera
// altitude <-> zoom by the rule the library uses (README, "Camera altitude → zoom"): a 30°
// vertical field of view looking straight down, Web Mercator scale at the centre latitude.

const EARTH_CIRCUMFERENCE_M = 2 * Math.PI * 6378137;
const TAN_HALF_FOV = Math.tan((15 * Math.PI) / 180);
const TILE_SIZE = 256; // Leaflet's zoom levels are for 256-pixel tiles

export const GLOBAL_ALTITUDE_M = 15_000_000;
export const MY_POSITION_ALTITUDE_M = 10_000;

/** Leaflet zoom at which a camera `altitudeM` metres up shows `heightPx` pixels at `latitude`. */
export function zoomForAltitude(altitudeM, latitude, heightPx) {
  const metresPerPixel = (altitudeM * 2 * TAN_HALF_FOV) / heightPx;
  return Math.log2((Math.cos((latitude * Math.PI) / 180) * EARTH_CIRCUMFERENCE_M) / metresPerPixel / TILE_SIZE);
}

/** The camera altitude in metres that the current view of `map` corresponds to. */
export function altitudeOf(map) {
  const { lat } = map.getCenter();
  const metresPerPixel = (Math.cos((lat * Math.PI) / 180) * EARTH_CIRCUMFERENCE_M) / (TILE_SIZE * 2 ** map.getZoom());
  return (metresPerPixel * map.getSize().y) / (2 * TAN_HALF_FOV);
}

export function formatKm(km) {
  return km >= 100 ? `${Math.round(km).toLocaleString('en')} km` : `${km.toFixed(km >= 10 ? 0 : 1)} km`;
}

export function createMap(element) {
  const map = L.map(element, {
    zoomSnap: 0, zoomDelta: 1, wheelPxPerZoomLevel: 120, minZoom: 1, maxZoom: 18,
    worldCopyJump: true, attributionControl: true, preferCanvas: true,
  });
  map.attributionControl.setPrefix('Leaflet · boundaries: Natural Earth');
  // Focusing anything Leaflet placed outside the view makes the browser scroll the map's box,
  // which Leaflet does not know of (drawing and clicks would be off by the scroll): undo it.
  element.addEventListener('scroll', () => { element.scrollLeft = 0; element.scrollTop = 0; });
  map.setView([20, 0], 2);
  return map;
}

/** Adds the base layer: news countries filled, the others quiet. Resolves once drawn. */
export async function addBasemap(map) {
  const response = await fetch('/basemap.geojson');
  if (!response.ok) throw new Error(`base map: ${response.status} ${response.statusText}`);
  const layer = L.geoJSON(await response.json(), {
    interactive: false,
    style: (f) => (f.properties.news
      ? { className: 'land news', weight: 0.8, color: '#5b7f6a', fillColor: '#cfe3c6', fillOpacity: 1 }
      : { className: 'land', weight: 0.5, color: '#9aa39f', fillColor: '#eceae4', fillOpacity: 1 }),
  });
  layer.addTo(map);
  return layer;
}

/** Sets the view to `altitudeM` over `center` ([lat, lon]). */
export function flyToAltitude(map, center, altitudeM, animate = true) {
  const zoom = zoomForAltitude(altitudeM, center[0], map.getSize().y);
  if (animate) map.flyTo(center, zoom, { duration: 0.8 });
  else map.setView(center, zoom, { animate: false });
}

/**
 * Keeps the altitude readout and the map's data-* view attributes current: data-zoom, -lat,
 * -lon, data-moving while the view changes, and data-view, a count of finished moves (the
 * markers drawn for a view carry its number in data-clusters-view). Tests read these.
 */
export function trackView(map, readout) {
  const el = map.getContainer();
  let moves = 0;
  map.on('movestart zoomstart', () => { el.dataset.moving = 'true'; });
  map.on('moveend', () => { delete el.dataset.moving; el.dataset.view = String(++moves); });
  el.dataset.view = '0';
  const update = () => {
    const c = map.getCenter();
    const z = map.getZoom();
    readout.textContent = `altitude ${formatKm(altitudeOf(map) / 1000)} · zoom ${z.toFixed(2)}`;
    el.dataset.zoom = String(z);
    el.dataset.lat = c.lat.toFixed(5);
    el.dataset.lon = c.lng.toFixed(5);
  };
  map.on('moveend zoomend resize', update);
  update();
}
