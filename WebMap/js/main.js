// Wires the page together: the map and its base layer, the clustered markers, search, the
// panel, pins, traces and the first-load suggestion. Each concern lives in its own module.
import { api } from './api.js';
import { createMap, addBasemap, trackView, flyToAltitude, GLOBAL_ALTITUDE_M } from './map.js';
import { ClusterLayer } from './clusters.js';
import { setUpSearch, centreOn } from './search.js';
import { showHeadlines } from './headlines.js';
import { showFavourites, showSettings, loadSettings, settings } from './favourites.js';
import { setUpPins, centreOnMe, offerSuggestedCountry } from './pin.js';
import { setUpTraces } from './traces.js';
import { showLocalHeadlines } from './local.js';

const status = document.getElementById('status');
function report(error) {
  status.textContent = error.message;
  status.dataset.state = 'error';
  clearTimeout(report.timer);
  report.timer = setTimeout(() => { status.textContent = ''; delete status.dataset.state; }, 8000);
}

const params = new URLSearchParams(location.search);
const dataset = params.get('dataset');
const nameLanguage = () => settings().namesLanguage || 'en';
const newsLanguage = () => settings().newsLanguage || undefined;

const map = createMap(document.getElementById('map'));
trackView(map, document.getElementById('readout'));
flyToAltitude(map, [20, 10], GLOBAL_ALTITUDE_M, false);

// The news countries by iso2, for marker names, search results and settings.
const newsCountries = new Map();
async function loadCountries() {
  const answer = await api.countries('', nameLanguage(), true);
  newsCountries.clear();
  for (const c of Array.isArray(answer) ? answer : answer.countries ?? []) if (c.iso2) newsCountries.set(c.iso2, c);
}

async function countryByIso2(iso2) {
  return newsCountries.get(iso2) ?? api.country(iso2, nameLanguage());
}

async function openCountry(iso2, markerLatLng) {
  try {
    showHeadlines(await countryByIso2(iso2), { language: newsLanguage });
  } catch (e) {
    report(e);
    return;
  }
  // On a phone the panel is a bottom sheet: lift the marker into the part of the map left free.
  const sheet = document.getElementById('panel');
  if (markerLatLng && window.matchMedia('(max-width: 600px)').matches) {
    const free = map.getSize().y - sheet.offsetHeight;
    const y = map.latLngToContainerPoint(markerLatLng).y;
    if (y > free - 40) map.panBy([0, y - free / 2]);
  }
}

const clusters = new ClusterLayer(map, newsCountries, { dataset, onCountry: openCountry, onError: report });

document.getElementById('global-view').addEventListener('click', () => flyToAltitude(map, [20, 10], GLOBAL_ALTITUDE_M));
// Local news: a long press or a right click anywhere, a pin's button, and the user's own position.
const openLocal = ([lat, lon]) => showLocalHeadlines(Number(lat).toFixed(5), Number(lon).toFixed(5), {
  language: newsLanguage, nameLanguage, onNational: (iso2) => openCountry(iso2),
});
map.on('contextmenu', (e) => { const { lat, lng } = e.latlng.wrap(); openLocal([lat, lng]); });
document.getElementById('my-position').addEventListener('click', async () => {
  const here = await centreOnMe(map, report);
  if (here) openLocal(here);
});
document.getElementById('open-favourites').addEventListener('click', () => showFavourites());
document.getElementById('open-settings').addEventListener('click', () =>
  showSettings([...newsCountries.values()], async () => { await loadCountries().catch(report); clusters.refresh(); }));

setUpSearch({
  input: document.getElementById('search-input'),
  list: document.getElementById('search-results'),
  language: nameLanguage,
  onChoose: (c) => { centreOn(map, c); if (c.news) openCountry(c.iso2); },
  onError: report,
});
setUpPins(map, nameLanguage, report, openLocal);
setUpTraces(map, report);

addBasemap(map).catch(report);
(async () => {
  await loadSettings().catch(report); // without settings, the defaults serve
  await Promise.all([loadCountries().catch(report), clusters.refresh()]);
  if (dataset) return;
  const favourite = settings().newsCountry?.toUpperCase();
  if (favourite) countryByIso2(favourite).then((c) => centreOn(map, c)).catch(report); // the user's own choice wins
  else offerSuggestedCountry(map, nameLanguage, async (iso2) => centreOn(map, await countryByIso2(iso2))).catch(report);
})();
