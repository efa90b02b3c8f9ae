// The search box: names in the 26 languages and ISO codes, accents ignored, answered by
// GET /v1/countries?search= (the catalogue's own search) as the user types.
import { api } from './api.js';
import { flag } from './flags.js';
import { h } from './element.js';

export function setUpSearch({ input, list, language, onChoose, onError }) {
  let results = [];
  let active = -1;
  let generation = 0;
  // Enter pressed while the answer for the latest text is on its way: choose when it comes,
  // so that typing fast and pressing Enter never picks a result for an earlier prefix.
  let chooseWhenAnswered = false;

  const close = () => {
    list.hidden = true;
    input.setAttribute('aria-expanded', 'false');
    input.removeAttribute('aria-activedescendant');
    active = -1;
  };
  const highlight = (i) => {
    active = i;
    [...list.children].forEach((li, j) => li.setAttribute('aria-selected', String(j === i)));
    if (i >= 0) input.setAttribute('aria-activedescendant', `search-option-${i}`);
  };
  const choose = (i) => {
    const country = results[i];
    if (!country) return;
    input.value = country.name;
    close();
    onChoose(country);
  };

  input.addEventListener('input', async () => {
    const text = input.value.trim();
    const mine = ++generation;
    list.dataset.query = '';
    if (!text) { close(); return; }
    try {
      const found = await api.countries(text, language());
      if (mine !== generation) return;
      results = (Array.isArray(found) ? found : found.countries ?? []).slice(0, 8);
      list.replaceChildren(...(results.length ? results.map((c, i) =>
        h('li', { id: `search-option-${i}`, role: 'option', 'aria-selected': 'false', 'data-iso2': c.iso2 ?? '' },
          `${flag(c.iso2)} ${c.name} `, h('span', { class: 'muted' }, `${c.iso2 ?? c.id}${c.news ? ' ★' : ''}`)))
        : [h('li', { class: 'muted', role: 'option', 'aria-disabled': 'true' }, 'No country matches')]));
      list.hidden = false;
      input.setAttribute('aria-expanded', 'true');
      list.dataset.query = text;
      highlight(results.length ? 0 : -1);
      if (chooseWhenAnswered) { chooseWhenAnswered = false; choose(active); }
    } catch (e) {
      chooseWhenAnswered = false;
      onError(e);
    }
  });
  input.addEventListener('keydown', (e) => {
    const answered = list.dataset.query === input.value.trim();
    if (e.key === 'Enter' && input.value.trim() && !answered) { chooseWhenAnswered = true; e.preventDefault(); return; }
    if (list.hidden) return;
    if (e.key === 'ArrowDown') { highlight(Math.min(active + 1, results.length - 1)); e.preventDefault(); }
    else if (e.key === 'ArrowUp') { highlight(Math.max(active - 1, 0)); e.preventDefault(); }
    else if (e.key === 'Enter') { choose(active); e.preventDefault(); }
    else if (e.key === 'Escape') close();
  });
  list.addEventListener('mousedown', (e) => {
    const li = e.target.closest('li[id]');
    if (li) { e.preventDefault(); choose([...list.children].indexOf(li)); }
  });
  input.addEventListener('blur', () => setTimeout(close, 150));
}

/** Centres the map on a country's marker (a point inside it; the middle of a bounding box can
 * be at sea), at the zoom that shows its bounding box when it has one. */
export function centreOn(map, country) {
  const m = country.marker;
  if (!m) return;
  let zoom = 5;
  const b = country.bbox;
  const box = Array.isArray(b) ? { west: b[0], south: b[1], east: b[2], north: b[3] } : b;
  if (box && box.east > box.west) zoom = Math.min(map.getBoundsZoom([[box.south, box.west], [box.north, box.east]]), 7);
  map.flyTo([m.lat ?? m.latitude, m.lon ?? m.longitude], zoom, { duration: 0.8 });
}
