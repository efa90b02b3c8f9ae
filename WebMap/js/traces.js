// A trace dropped on the map: sent to POST /v1/resolve (GPX is turned into NDJSON first, the
// server reads CSV, NDJSON and GeoJSON), drawn one colour per country with its border
// crossings marked, and listed as segments (country, km, time).
import { api } from './api.js';
import { flag } from './flags.js';
import { h } from './element.js';

const PALETTE = ['#d1495b', '#00798c', '#edae49', '#66a182', '#8d5a97', '#2e4057', '#f4743b', '#3c91e6'];
const EARTH_RADIUS_KM = 6371.0088; // the library's mean radius

function haversineKm(a, b) {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad, dLon = (b.lon - a.lon) * rad;
  const s = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(s)));
}

/** GPX track, route and waypoints as NDJSON lines of lat, lon, time and trace_id. */
export function gpxToNDJSON(text) {
  const doc = new DOMParser().parseFromString(text, 'application/xml');
  if (doc.querySelector('parsererror')) throw new Error('the GPX file is not well-formed XML');
  const lines = [];
  doc.querySelectorAll('trk, rte').forEach((t, i) => {
    const id = t.querySelector(':scope > name')?.textContent || `trace ${i + 1}`;
    t.querySelectorAll('trkpt, rtept').forEach((p) => lines.push(JSON.stringify({
      lat: Number(p.getAttribute('lat')), lon: Number(p.getAttribute('lon')),
      time: p.querySelector('time')?.textContent ?? null, trace_id: id,
    })));
  });
  if (!lines.length) throw new Error('the GPX file has no track or route points');
  return lines.join('\n') + '\n';
}

function contentType(file) {
  const name = file.name.toLowerCase();
  if (name.endsWith('.csv')) return 'text/csv';
  if (name.endsWith('.ndjson') || name.endsWith('.jsonl')) return 'application/x-ndjson';
  if (name.endsWith('.geojson') || name.endsWith('.json')) return 'application/geo+json';
  if (name.endsWith('.gpx')) return 'application/gpx+xml';
  throw new Error(`${file.name}: not a GPX, CSV, NDJSON or GeoJSON file`);
}

/** Rows of the server's answer as fixes: { lat, lon, time, iso2 } in input order. */
function fixes(rows) {
  const list = Array.isArray(rows) ? rows : rows.features?.map((f) => ({ ...f.properties, lat: f.geometry?.coordinates?.[1], lon: f.geometry?.coordinates?.[0] })) ?? [];
  return list.filter((r) => !r.error).map((r) => ({
    lat: Number(r.lat ?? r.latitude), lon: Number(r.lon ?? r.lng ?? r.longitude),
    time: r.time ?? null, iso2: r.country_iso2 || null, trace: r.trace_id ?? '',
  })).filter((f) => Number.isFinite(f.lat) && Number.isFinite(f.lon));
}

/** Consecutive fixes in one country (null at sea) as segments, with the library's rules (the
 * trace summary of `geonews resolve`): a segment's km are those between its own fixes, and a
 * crossing sits at the midpoint of the two fixes either side of the border, at the middle time.
 * Lines are drawn on to the crossing so the trace has no gap. */
export function segmentsOf(points) {
  const segments = [];
  const crossings = [];
  points.forEach((p, i) => {
    const q = i > 0 ? points[i - 1] : null;
    const last = segments[segments.length - 1];
    const sameTrace = q !== null && q.trace === p.trace;
    if (sameTrace && last.iso2 === p.iso2) {
      last.km += haversineKm(q, p);
      last.points.push(p);
      last.end = p.time ?? last.end;
      return;
    }
    const line = [p];
    if (sameTrace) {
      const middle = { lat: (q.lat + p.lat) / 2, lon: (q.lon + p.lon) / 2 };
      const t0 = Date.parse(q.time), t1 = Date.parse(p.time);
      const time = Number.isFinite(t0) && Number.isFinite(t1) ? new Date((t0 + t1) / 2).toISOString().replace('.000Z', 'Z') : null;
      crossings.push({ from: q.iso2, to: p.iso2, ...middle, time, trace: p.trace });
      last.points.push(middle);
      line.unshift(middle);
    }
    segments.push({ iso2: p.iso2, trace: p.trace, km: 0, points: line, start: p.time, end: p.time });
  });
  return { segments, crossings };
}

/** A line's tooltip: the trace's name, when the file gives one, over `text`. The name is the
 * file's own text (a GPX name, a trace_id), so it goes in as a text node, never as HTML. */
function tooltip(trace, text) {
  return h('div', { class: 'trace-tooltip' }, trace ? [h('strong', {}, trace), h('br')] : [], text);
}

function duration(a, b) {
  const ms = Date.parse(b) - Date.parse(a);
  if (!Number.isFinite(ms)) return '';
  const m = Math.round(ms / 60000);
  return m >= 60 ? `${Math.floor(m / 60)} h ${String(m % 60).padStart(2, '0')}` : `${m} min`;
}

export function setUpTraces(map, onError) {
  const container = map.getContainer();
  const hint = document.getElementById('drop-hint');
  const section = document.getElementById('trace');
  const body = document.getElementById('trace-body');
  const layer = L.layerGroup().addTo(map);
  // SVG (the base layer is on canvas): each segment and crossing is an element with its class.
  const renderer = L.svg();
  document.getElementById('trace-close').addEventListener('click', () => { section.hidden = true; layer.clearLayers(); });

  // The same from the keyboard: the toolbar's Trace button opens a file chooser.
  const picker = document.getElementById('trace-file');
  document.getElementById('open-trace').addEventListener('click', () => picker.click());
  picker.addEventListener('change', async () => {
    const file = picker.files?.[0];
    picker.value = ''; // choosing the same file again loads it again
    if (file) await load(file);
  });

  container.addEventListener('dragover', (e) => { e.preventDefault(); hint.hidden = false; });
  container.addEventListener('dragleave', () => { hint.hidden = true; });
  container.addEventListener('drop', async (e) => {
    e.preventDefault();
    hint.hidden = true;
    const file = e.dataTransfer?.files?.[0];
    if (file) await load(file);
  });

  async function load(file) {
    section.hidden = false;
    section.dataset.state = 'loading';
    body.replaceChildren(h('p', { class: 'muted' }, `Resolving ${file.name}…`));
    try {
      let type = contentType(file);
      let text = await file.text();
      if (type === 'application/gpx+xml') { text = gpxToNDJSON(text); type = 'application/x-ndjson'; }
      const points = fixes(await api.resolveBatch(text, type));
      draw(file.name, points);
    } catch (err) {
      section.dataset.state = 'error';
      body.replaceChildren(h('p', { class: 'error', role: 'alert' }, `The trace could not be resolved: ${err.message}`));
      onError(err);
    }
  }

  function draw(name, points) {
    layer.clearLayers();
    const { segments, crossings } = segmentsOf(points);
    const colours = new Map();
    for (const s of segments) {
      const key = s.iso2 ?? 'sea';
      if (!colours.has(key)) colours.set(key, key === 'sea' ? '#6b7b8c' : PALETTE[colours.size % PALETTE.length]);
      L.polyline(s.points.map((p) => [p.lat, p.lon]), { renderer, color: colours.get(key), weight: 5, opacity: 0.9, className: `trace-segment trace-${key}` })
        .bindTooltip(tooltip(s.trace, `${s.iso2 ?? 'at sea'}: ${s.km.toFixed(1)} km`)).addTo(layer);
    }
    for (const c of crossings) {
      L.circleMarker([c.lat, c.lon], { renderer, radius: 6, color: '#222', weight: 2, fillColor: '#fff', fillOpacity: 1, className: 'crossing' })
        .bindTooltip(tooltip(c.trace, `${c.from ?? 'sea'} → ${c.to ?? 'sea'}${c.time ? ` at ${c.time}` : ''}`)).addTo(layer);
    }
    section.dataset.state = 'loaded';
    section.dataset.countries = [...new Set(segments.map((s) => s.iso2 ?? 'sea'))].join(',');
    body.replaceChildren(
      h('p', { class: 'muted small' }, `${name}: ${points.length} fixes, ${crossings.length} border crossings`),
      h('table', { class: 'segments' },
        h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Country'), h('th', { scope: 'col' }, 'km'), h('th', { scope: 'col' }, 'Time'))),
        h('tbody', {}, segments.map((s) => h('tr', { 'data-iso2': s.iso2 ?? '' },
          h('td', {}, h('span', { class: 'swatch', style: `background:${colours.get(s.iso2 ?? 'sea')}` }), ` ${s.iso2 ? `${flag(s.iso2)} ${s.iso2}` : 'at sea'}`),
          h('td', {}, s.km.toFixed(1)),
          h('td', {}, s.start && s.end ? duration(s.start, s.end) : ''))))));
    // Fit the trace in the part of the map the segment list leaves free.
    if (points.length) {
      map.fitBounds(points.map((p) => [p.lat, p.lon]), { paddingTopLeft: [30, section.offsetHeight + 30], paddingBottomRight: [30, 30] });
    }
  }
}
