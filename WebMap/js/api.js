// The HTTP API of geonews-serve (/v1), in one place: every request, its errors read from
// RFC 9457 problem JSON, and the bearer token of this browser's user.

const TOKEN_KEY = 'geonews.token';

/** An API failure a person can act on: the server's problem detail, or why it was not reached. */
export class ApiError extends Error {
  constructor(message, status = 0) {
    super(message);
    this.status = status;
  }
}

async function request(path, { method = 'GET', body, headers = {}, auth = false, signal } = {}) {
  const h = { Accept: 'application/json', ...headers };
  if (auth) h.Authorization = `Bearer ${await token()}`;
  let response;
  try {
    response = await fetch(path, { method, body, headers: h, signal });
  } catch (e) {
    if (e.name === 'AbortError') throw e;
    throw new ApiError(`the server could not be reached (${e.message})`);
  }
  if (!response.ok) {
    let detail = `${response.status} ${response.statusText}`;
    try {
      const problem = await response.json();
      detail = problem.detail || problem.title || detail;
    } catch { /* not problem JSON: keep the status line */ }
    if (auth && response.status === 401) localStorage.removeItem(TOKEN_KEY);
    throw new ApiError(detail, response.status);
  }
  if (response.status === 204) return null;
  const type = response.headers.get('Content-Type') || '';
  return type.includes('json') && !type.includes('ndjson') ? response.json() : response.text();
}

/** Whether this browser has a user yet (one is made only when something is saved). */
export const hasToken = () => localStorage.getItem(TOKEN_KEY) !== null;

/** The bearer token of this browser, made once with POST /v1/users and kept in localStorage. */
export async function token() {
  let t = localStorage.getItem(TOKEN_KEY);
  if (!t) {
    const user = await request('/v1/users', { method: 'POST' });
    t = user.token ?? user.accessToken ?? user.access_token;
    if (!t) throw new ApiError('the server made a user but sent no token');
    localStorage.setItem(TOKEN_KEY, t);
  }
  return t;
}

const json = (value) => ({ body: JSON.stringify(value), headers: { 'Content-Type': 'application/json' } });
const query = (params) => new URLSearchParams(Object.entries(params).filter(([, v]) => v !== undefined && v !== null && v !== '')).toString();

export const api = {
  resolve: (lat, lon, lang) => request(`/v1/resolve?${query({ lat, lon, lang })}`),
  clusters: (params, signal) => request(`/v1/clusters?${query(params)}`, { signal }),
  expansionZoom: (id, dataset) => request(`/v1/clusters/${id}/expansion-zoom?${query({ dataset })}`),
  countries: (search, lang, newsOnly) => request(`/v1/countries?${query({ search, lang, newsOnly })}`),
  country: (iso2, lang) => request(`/v1/countries/${encodeURIComponent(iso2)}?${query({ lang })}`),
  headlines: (country, category, language, limit = 20) =>
    request(`/v1/headlines?${query({ country, category, language, limit })}`),
  localHeadlines: (lat, lon, language, limit = 20) => request(`/v1/headlines?${query({ lat, lon, language, limit })}`),
  favourites: () => request('/v1/favourites', { auth: true }),
  saveFavourite: (article) => request('/v1/favourites', { method: 'POST', auth: true, ...json(article) }),
  removeFavourite: (id) => request(`/v1/favourites/${encodeURIComponent(id)}`, { method: 'DELETE', auth: true }),
  settings: () => request('/v1/settings', { auth: true }),
  saveSettings: (settings) => request('/v1/settings', { method: 'PUT', auth: true, ...json(settings) }),
  /** Resolves a trace body (CSV, NDJSON or GeoJSON, by `type`) and returns the NDJSON rows as objects. */
  resolveBatch: async (body, type) => {
    const text = await request('/v1/resolve', { method: 'POST', body, headers: { 'Content-Type': type, Accept: 'application/x-ndjson' } });
    return (typeof text === 'string' ? text.split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l)) : text);
  },
};
