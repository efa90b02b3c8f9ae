// One article, as the headlines list and Read later both open it: title, source, time, image,
// description, the source's link, a copy-link share and "Read later". Both lists import this
// view and it imports neither, so the modules form no cycle.
import { api } from './api.js';
import { h } from './element.js';
import { age } from './panel.js';

/** Shows article `a` in `container`; `back`, when given, is what the ← Back button does. */
export function showArticle(a, container, back) {
  const link = webAddress(a.url), image = webAddress(a.imageURL);
  const host = link ? new URL(link).host : '';
  const status = h('p', { role: 'status', class: 'muted small' });
  container.replaceChildren(h('article', { class: 'article' },
    back ? h('button', { type: 'button', class: 'back', onclick: back }, '← Back') : null,
    h('h3', {}, a.title),
    h('p', { class: 'meta' }, [a.source, a.publishedAt ? new Date(a.publishedAt).toLocaleString() : null, age(a.publishedAt)].filter(Boolean).join(' · ')),
    image ? h('img', { src: image, alt: '', loading: 'lazy' }) : null,
    a.description ? h('p', {}, a.description) : null,
    link ? h('p', {}, h('a', { href: link, target: '_blank', rel: 'noopener' }, `Read on ${host}`)) : null,
    h('div', { class: 'actions' },
      h('button', { type: 'button', onclick: () => copyLink(a.url, status) }, 'Copy link'),
      h('button', { type: 'button', onclick: () => saveForLater(a, status) }, 'Read later')),
    status));
  container.querySelector('h3').tabIndex = -1;
  container.querySelector('h3').focus();
}

/** `url` when it is an http or https address, else null: a `javascript:` or `data:` link in a
 * saved article would run in this page if it were followed or loaded. */
function webAddress(url) {
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : null;
  } catch {
    return null;
  }
}

async function copyLink(url, status) {
  try {
    await navigator.clipboard.writeText(url);
    status.textContent = 'Link copied';
  } catch {
    status.textContent = `Copy this link: ${url}`;
  }
}

async function saveForLater(article, status) {
  try {
    await api.saveFavourite(article);
    status.textContent = 'Saved to Read later';
  } catch (e) {
    status.textContent = `Not saved: ${e.message}`;
  }
}
