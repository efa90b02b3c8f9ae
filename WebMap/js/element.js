// The one way the page builds its DOM: elements made by h(), text set as text nodes. No
// module sets innerHTML from data, and Leaflet's icons, tooltips and popups are given
// elements, not HTML strings, so a value from the server or a file can never become markup.

/** Makes an element from a tag, attributes and children (strings become text, never HTML). */
export function h(tag, attributes = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attributes)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v === true ? '' : v);
  }
  el.append(...children.flat().filter((c) => c !== null && c !== undefined && c !== false));
  return el;
}
