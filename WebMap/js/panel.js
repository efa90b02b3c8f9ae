// The side panel (a bottom sheet on phones) that headlines, read-later and settings share.

const panel = document.getElementById('panel');
const title = document.getElementById('panel-title');
const body = document.getElementById('panel-body');
let returnFocus = null;

document.getElementById('panel-close').addEventListener('click', () => closePanel());
panel.addEventListener('keydown', (e) => { if (e.key === 'Escape') closePanel(); });

/** Shows the panel with `heading`; returns its body element, emptied, for the caller to fill. */
export function openPanel(heading, kind) {
  if (panel.hidden) returnFocus = document.activeElement;
  title.textContent = heading;
  panel.dataset.kind = kind;
  body.replaceChildren();
  panel.hidden = false;
  return body;
}

export function closePanel() {
  panel.hidden = true;
  returnFocus?.focus?.();
}

/** "5 min ago", "3 h ago" for an ISO 8601 time; '' when there is none. */
export function age(iso) {
  if (!iso) return '';
  const seconds = (Date.now() - Date.parse(iso)) / 1000;
  if (!Number.isFinite(seconds)) return '';
  return seconds < 30 ? 'just now' : ago(seconds);
}

/** "40 s ago", "5 min ago", "3 h ago", "2 days ago" for an age in seconds. */
export function ago(seconds) {
  const minutes = Math.round(seconds / 60);
  if (minutes < 1) return `${Math.max(0, Math.round(seconds))} s ago`;
  if (minutes < 60) return `${minutes} min ago`;
  if (minutes < 48 * 60) return `${Math.round(minutes / 60)} h ago`;
  return `${Math.round(minutes / 1440)} days ago`;
}
