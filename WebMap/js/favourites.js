// "Read later" favourites and the user's settings, both kept by the server (/v1/favourites,
// /v1/settings) under this browser's bearer token, so they survive reloads and restarts.
import { api, hasToken } from './api.js';
import { h } from './element.js';
import { openPanel, age } from './panel.js';
import { showArticle } from './article.js';
import { flag } from './flags.js';

export const NAME_LANGUAGES = ['ar', 'bn', 'de', 'el', 'en', 'es', 'fa', 'fr', 'he', 'hi', 'hu', 'id', 'it', 'ja', 'ko',
  'nl', 'pl', 'pt', 'ru', 'sv', 'tr', 'uk', 'ur', 'vi', 'zh', 'zht'];
// The wire form of /v1/settings: newsCountry (lower-case iso2), newsLanguage, categories, namesLanguage.
export const DEFAULT_SETTINGS = { newsCountry: null, newsLanguage: null, categories: [], namesLanguage: null };

let current = { ...DEFAULT_SETTINGS };

/** A language code's name in English ("fr" → "French"); `zht` is Natural Earth's traditional Chinese. */
function languageName(code) {
  if (code === 'zht') return 'Chinese (traditional)';
  try {
    return new Intl.DisplayNames(['en'], { type: 'language' }).of(code);
  } catch {
    return code;
  }
}

export const settings = () => current;

export async function loadSettings() {
  if (!hasToken()) return current;
  current = { ...DEFAULT_SETTINGS, ...(await api.settings()) };
  return current;
}

export async function showFavourites() {
  const body = openPanel('🔖 Read later', 'favourites');
  body.append(h('p', { class: 'muted' }, 'Loading…'));
  let favourites;
  try {
    const answer = await api.favourites();
    favourites = Array.isArray(answer) ? answer : answer.favourites ?? [];
  } catch (e) {
    body.replaceChildren(h('div', { class: 'error', role: 'alert' },
      h('p', {}, `Read later could not be loaded: ${e.message}`),
      h('button', { type: 'button', onclick: showFavourites }, 'Retry')));
    return;
  }
  if (!favourites.length) {
    body.replaceChildren(h('p', { class: 'muted' }, 'Nothing saved yet. Open an article and choose “Read later”.'));
    return;
  }
  body.replaceChildren(h('ol', { class: 'articles', id: 'favourites-list' }, favourites.map((f) => {
    const a = f.article ?? f;
    return h('li', {},
      h('button', { type: 'button', class: 'article-link', onclick: () => showArticle(a, body, showFavourites) },
        h('span', { class: 'title' }, a.title),
        h('span', { class: 'meta' }, [a.source, age(a.publishedAt)].filter(Boolean).join(' · '))),
      h('button', {
        type: 'button', class: 'remove', 'aria-label': `Remove “${a.title}” from Read later`,
        onclick: async () => { await api.removeFavourite(f.id ?? a.url).catch(() => {}); showFavourites(); },
      }, '✕'));
  })));
}

/** The settings form. `countries` are the news countries for the favourite-country choice. */
export function showSettings(countries, onChange) {
  const body = openPanel('⚙️ Settings', 'settings');
  const status = h('p', { role: 'status', class: 'muted small' });
  const choice = (label, id, value, options) => h('p', {},
    h('label', { for: id }, label), ' ',
    h('select', { id, name: id }, options.map(([v, text]) => h('option', { value: v, selected: v === (value ?? '') }, text))));
  const form = h('form', {
    class: 'settings',
    onsubmit: async (e) => {
      e.preventDefault();
      const data = new FormData(form);
      const next = {
        ...current,
        newsCountry: data.get('newsCountry') || null,
        newsLanguage: data.get('newsLanguage') || null,
        namesLanguage: data.get('namesLanguage') || null,
      };
      try {
        current = { ...DEFAULT_SETTINGS, ...(await api.saveSettings(next)) };
        status.textContent = 'Saved';
        onChange(current);
      } catch (err) {
        status.textContent = `Not saved: ${err.message}`;
      }
    },
  },
  choice('Favourite news country', 'newsCountry', current.newsCountry,
    [['', 'None'], ...countries.map((c) => [c.iso2.toLowerCase(), `${flag(c.iso2)} ${c.name}`])]),
  choice('News language', 'newsLanguage', current.newsLanguage,
    [['', 'The country’s own'], ...NAME_LANGUAGES.filter((l) => l !== 'zht').map((l) => [l, languageName(l)])]),
  choice('Country names in', 'namesLanguage', current.namesLanguage ?? 'en', NAME_LANGUAGES.map((l) => [l, languageName(l)])),
  h('div', { class: 'actions' },
    h('button', { type: 'submit' }, 'Save'),
    h('button', {
      type: 'button',
      onclick: async () => {
        try {
          current = { ...DEFAULT_SETTINGS, ...(await api.saveSettings(DEFAULT_SETTINGS)) };
          status.textContent = 'Reset to defaults';
          onChange(current);
          showSettings(countries, onChange);
        } catch (err) {
          status.textContent = `Not reset: ${err.message}`;
        }
      },
    }, 'Reset')),
  status);
  body.append(form);
}
