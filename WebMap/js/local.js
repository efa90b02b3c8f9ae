// The local panel: news about a position's town, then its region, then its country, as
// GET /v1/headlines?lat=&lon= answers them, each article marked with its level; opened by a long
// press or a right click anywhere, from a pin, and for the user's own position. A switch opens
// the country's national front page.
import { api } from './api.js';
import { flag } from './flags.js';
import { h } from './element.js';
import { openPanel, age } from './panel.js';
import { showArticle } from './article.js';

/**
 * Opens the panel for the position: "Lyon · Auvergne-Rhône-Alpes · France", then the list.
 * `onNational(iso2)` opens the country's own headlines.
 */
export async function showLocalHeadlines(lat, lon, { language, nameLanguage, onNational }) {
  const body = openPanel('Local news', 'local');
  const heading = h('p', { class: 'local-where', 'data-lat': lat, 'data-lon': lon }, `${lat}, ${lon}`);
  const national = h('button', { type: 'button', class: 'national', hidden: true }, 'National front page');
  const list = h('div', { id: 'local-list', 'aria-live': 'polite' });
  body.append(heading, national, list);
  const resolved = api.resolve(lat, lon, nameLanguage()).catch(() => null);
  load(lat, lon, language, list, resolved, heading, national, onNational);
}

async function load(lat, lon, language, list, resolved, heading, national, onNational) {
  list.replaceChildren(h('p', { class: 'muted' }, 'Loading local news…'));
  list.dataset.state = 'loading';
  const reload = () => load(lat, lon, language, list, resolved, heading, national, onNational);
  let result;
  try {
    result = await api.localHeadlines(lat, lon, language());
  } catch (e) {
    list.dataset.state = 'error';
    list.replaceChildren(h('div', { class: 'error', role: 'alert' },
      h('p', {}, `Local news could not be fetched: ${e.message}`),
      h('button', { type: 'button', onclick: reload }, 'Retry')));
    return;
  }
  // The names as the user reads them (the resolution in the names language), else as searched.
  const r = await resolved;
  const country = r?.country ?? (r ? { iso2: r.suggestion.iso2, name: r.suggestion.name } : null);
  const where = [result.town, r?.region?.name ?? result.region, country?.name].filter(Boolean);
  heading.replaceChildren(country ? `${flag(country.iso2)} ` : '', where.join(' · '));
  const newsCountry = r?.suggestion?.iso2 ?? result.country.toUpperCase();
  national.hidden = false;
  national.dataset.iso2 = newsCountry;
  national.onclick = () => onNational(newsCountry);
  const marks = { town: result.town ?? 'Town', region: r?.region?.name ?? result.region ?? 'Region', country: 'National' };
  const articles = result.articles ?? [];
  if (!articles.length) {
    list.dataset.state = 'empty';
    list.replaceChildren(h('div', { class: 'empty' },
      h('p', {}, `No local or national news here right now.`),
      result.error ? h('p', { class: 'muted small' }, result.error) : null,
      h('button', { type: 'button', onclick: reload }, 'Retry')));
    return;
  }
  list.dataset.state = 'loaded';
  // Levels that found nothing are named, so that a list of national news is not taken for local.
  const empty = (result.scopes ?? []).filter((s) => s.articles === 0 && s.scope !== 'country').map((s) => s.name);
  const items = articles.map((a) => h('li', { 'data-scope': a.scope },
    h('button', { type: 'button', class: 'article-link', onclick: () => showArticle(a, list, reload) },
      h('span', { class: `scope scope-${a.scope}` }, marks[a.scope] ?? a.scope),
      h('span', { class: 'title' }, a.title),
      h('span', { class: 'meta' }, [a.source, age(a.publishedAt)].filter(Boolean).join(' · ')))));
  list.replaceChildren(...[
    empty.length ? h('p', { class: 'muted small fallback' }, `No news about ${empty.join(' or ')} right now.`) : null,
    result.warning ? h('p', { class: 'muted small' }, result.warning) : null,
    h('ol', { class: 'articles' }, items)].filter(Boolean));
}
