// A country's headlines: tabs for the seven categories, the article list (an article opens in
// article.js), and honest failures (the reason, a retry, and the age of a stale answer).
import { api } from './api.js';
import { flag } from './flags.js';
import { h } from './element.js';
import { openPanel, age, ago } from './panel.js';
import { showArticle } from './article.js';

export const CATEGORIES = ['general', 'business', 'entertainment', 'health', 'science', 'sports', 'technology'];

export function showHeadlines(country, { language, category = 'general' } = {}) {
  const body = openPanel(`${flag(country.iso2)} ${country.name}`, 'headlines');
  const tabs = h('div', { role: 'tablist', 'aria-label': 'Categories', class: 'tabs' });
  const list = h('div', { role: 'tabpanel', id: 'headlines-list', 'aria-live': 'polite' });
  const select = (c) => {
    for (const t of tabs.children) {
      const on = t.dataset.category === c;
      t.setAttribute('aria-selected', String(on));
      t.tabIndex = on ? 0 : -1;
    }
    load(country, c, language, list);
  };
  for (const c of CATEGORIES) {
    tabs.append(h('button', {
      role: 'tab', type: 'button', 'data-category': c, 'aria-controls': 'headlines-list',
      onclick: () => select(c),
      onkeydown: (e) => {
        const i = CATEGORIES.indexOf(c) + (e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0);
        if (i !== CATEGORIES.indexOf(c) && i >= 0 && i < CATEGORIES.length) { select(CATEGORIES[i]); tabs.children[i].focus(); }
      },
    }, c[0].toUpperCase() + c.slice(1)));
  }
  body.append(tabs, list);
  select(category);
  tabs.querySelector('[aria-selected="true"]').focus();
}

async function load(country, category, language, list) {
  list.replaceChildren(h('p', { class: 'muted' }, 'Loading headlines…'));
  list.dataset.state = 'loading';
  let result;
  try {
    result = await api.headlines(country.iso2.toLowerCase(), category, language());
  } catch (e) {
    return failed(list, e.message, () => load(country, category, language, list));
  }
  const articles = result.articles ?? [];
  const reload = () => load(country, category, language, list);
  if (!articles.length) {
    // Every provider answered, with nothing: not a failure, but say so and offer another look.
    list.dataset.state = 'empty';
    list.replaceChildren(h('div', { class: 'empty' },
      h('p', {}, `No ${category === 'general' ? '' : `${category} `}headlines for ${country.name} right now.`),
      result.error ? h('p', { class: 'muted small' }, result.error) : null,
      h('button', { type: 'button', onclick: reload }, 'Retry')));
    return;
  }
  list.dataset.state = 'loaded';
  const items = articles.map((a) => h('li', {},
    h('button', { type: 'button', class: 'article-link', onclick: () => showArticle(a, list, reload) },
      h('span', { class: 'title' }, a.title),
      h('span', { class: 'meta' }, [a.source, age(a.publishedAt)].filter(Boolean).join(' · ')))));
  list.replaceChildren(...[
    staleNote(result, reload),
    h('p', { class: 'muted small' }, `${articles.length} articles from ${providerName(result.provider)}`),
    h('ol', { class: 'articles' }, items)].filter(Boolean));
}

/** For an answer the server kept because the providers failed: its age, why, and a retry. */
function staleNote(result, retry) {
  if (!result.stale && !result.warning) return null;
  const when = Number.isFinite(result.cacheAgeSeconds) ? `cached ${ago(result.cacheAgeSeconds)}` : 'cached earlier';
  const why = result.staleReason || result.warning;
  return h('div', { class: 'stale', role: 'note' },
    h('p', {}, h('strong', {}, `Showing headlines ${when}`), why ? ` because ${why}.` : '.'),
    h('button', { type: 'button', onclick: retry }, 'Retry'));
}

function failed(list, reason, retry) {
  list.dataset.state = 'error';
  list.replaceChildren(h('div', { class: 'error', role: 'alert' },
    h('p', {}, `Headlines could not be fetched: ${reason}`),
    h('button', { type: 'button', onclick: retry }, 'Retry')));
}

function providerName(p) {
  return { 'google-news': 'Google News', newsapi: 'NewsAPI', gnews: 'GNews' }[p] ?? p ?? 'the cache';
}
