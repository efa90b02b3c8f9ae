// Positions the user points at: a dropped pin (click anywhere), the browser's geolocation for
// "my position", and the first-load question "Centre the map on <suggested country>?".
import { api } from './api.js';
import { flag } from './flags.js';
import { h } from './element.js';
import { formatKm, flyToAltitude, MY_POSITION_ALTITUDE_M } from './map.js';

const ASKED_KEY = 'geonews.asked-to-centre';

/** Why a resolution suggests its country, in one line: "Nearest marker at 161 km: Luxembourg
 * has no news coverage of its own", "You are inside it", or the library's explanation. */
export function describe(r) {
  const s = r.suggestion;
  if (s.reason === 'inside') return 'You are inside it';
  if (s.reason === 'nearest-marker') {
    const why = r.country ? `${r.country.name} has no news coverage of its own` : 'the position is at sea';
    return `Nearest marker at ${formatKm(s.distanceKm)}: ${why}`;
  }
  const text = s.explanation ?? s.reason;
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export function setUpPins(map, language, onError, onLocal) {
  let pin = null;
  map.on('click', async (e) => {
    const { lat, lng } = e.latlng.wrap();
    pin?.remove();
    pin = L.marker(e.latlng, { title: 'Dropped pin', alt: 'Dropped pin', keyboard: true }).addTo(map);
    pin.bindPopup(h('span', {}, 'Resolving…')).openPopup();
    try {
      const r = await api.resolve(lat.toFixed(6), lng.toFixed(6), language());
      const where = r.country ? `${flag(r.country.iso2)} ${r.country.name}`
        : `At sea${r.nearest ? `, ${formatKm(r.nearest.distanceKm)} from ${r.nearest.name}` : ''}`;
      // The region (state, province) of the country, when the server names one: "Canton of
      // Luxembourg" under "Luxembourg"; the finer unit after it where there is one.
      const region = r.region
        ? [h('span', { class: 'region', 'data-region': r.region.geonamesAdmin1 },
          r.region.subregion ? `${r.region.name}, ${r.region.subregion.name}` : r.region.name), h('br')]
        : [];
      // The nearest town (GeoNames), when the server names one: "Near Esch-sur-Alzette, 1.2 km".
      const place = r.place
        ? [h('span', { class: 'place', 'data-geoname': String(r.place.geonameId) },
          `Near ${r.place.name}, ${formatKm(r.place.distanceKm)}`), h('br')]
        : [];
      pin.setPopupContent(h('div', {
        class: 'pin', 'data-suggested': r.suggestion.iso2, 'data-reason': r.suggestion.reason,
        'data-lat': lat.toFixed(6), 'data-lon': lng.toFixed(6),
      },
      h('strong', {}, where), h('br'), ...region, ...place, `${lat.toFixed(4)}, ${lng.toFixed(4)}`, h('br'),
        `News: ${flag(r.suggestion.iso2)} ${r.suggestion.name}`, h('br'),
        h('span', { class: 'muted' }, describe(r)), h('br'),
        h('button', { type: 'button', class: 'local-news', onclick: () => onLocal([lat, lng]) }, 'Local news')));
    } catch (err) {
      pin.setPopupContent(h('span', { class: 'error' }, `Could not resolve: ${err.message}`));
      onError(err);
    }
  });
}

function position() {
  return new Promise((resolve, reject) => {
    if (!navigator.geolocation) { reject(new Error('this browser has no geolocation')); return; }
    navigator.geolocation.getCurrentPosition((p) => resolve([p.coords.latitude, p.coords.longitude]),
      (e) => reject(new Error(e.message || 'position unavailable')), { timeout: 10000, maximumAge: 60000 });
  });
}

/** "My position": the browser's position at 10 km; returns it, or null when it is unknown. */
export async function centreOnMe(map, onError) {
  try {
    const here = await position();
    flyToAltitude(map, here, MY_POSITION_ALTITUDE_M);
    return here;
  } catch (e) {
    onError(new Error(`your position is unknown: ${e.message}`));
    return null;
  }
}

/**
 * On the first load with geolocation allowed: resolve the position and ask whether to centre
 * on the suggested country (with the reason). Yes centres on that country, No on the position.
 */
export async function offerSuggestedCountry(map, language, centreOnCountry) {
  if (localStorage.getItem(ASKED_KEY)) return;
  let here;
  try {
    if (navigator.permissions) {
      const state = (await navigator.permissions.query({ name: 'geolocation' })).state;
      if (state === 'denied') return;
    }
    here = await position();
  } catch {
    return; // not allowed or not known: nothing to offer
  }
  localStorage.setItem(ASKED_KEY, '1');
  const r = await api.resolve(here[0].toFixed(6), here[1].toFixed(6), language());
  const dialog = document.getElementById('suggest-dialog');
  dialog.dataset.suggested = r.suggestion.iso2;
  dialog.dataset.reason = r.suggestion.reason;
  document.getElementById('suggest-question').textContent = `Centre the map on ${r.suggestion.name}?`;
  document.getElementById('suggest-reason').textContent = describe(r);
  dialog.addEventListener('close', () => {
    if (dialog.returnValue === 'yes') centreOnCountry(r.suggestion.iso2);
    else flyToAltitude(map, here, MY_POSITION_ALTITUDE_M);
  }, { once: true });
  dialog.showModal();
}
