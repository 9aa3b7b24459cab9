// DOM helpers of the dashboard. Every string from the API reaches the page as a text node or an
// attribute value set through the DOM (never parsed as HTML), so a connector named
// `<img onerror=…>` shows up as those characters and nothing runs. escapeHtml exists for the one
// place text must be spliced into markup by hand (none today) and is tested on its own.

const SVG_NS = 'http://www.w3.org/2000/svg';

/** Escapes the five HTML-significant characters. */
export function escapeHtml(value) {
  return String(value).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
}

function build(el, attrs, children) {
  for (const [key, value] of Object.entries(attrs ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith('on') && typeof value === 'function') el.addEventListener(key.slice(2), value);
    else if (key.startsWith('on')) throw new Error(`refusing inline handler attribute ${key}`);
    else if (key === 'dataset') Object.assign(el.dataset, value);
    // Through CSSOM: the page's CSP forbids inline style attributes.
    else if (key === 'style') Object.assign(el.style, value);
    else el.setAttribute(key, value === true ? '' : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/** An HTML element: h('td', {class: 'x'}, 'text', otherNode). */
export function h(tag, attrs, ...children) {
  return build(document.createElement(tag), attrs, children);
}

/** An SVG element. */
export function s(tag, attrs, ...children) {
  return build(document.createElementNS(SVG_NS, tag), attrs, children);
}

/** Replaces the children of a node. */
export function fill(node, ...children) {
  node.replaceChildren();
  return build(node, {}, children);
}

export function fmtTime(iso) {
  if (!iso) return '—';
  const d = new Date(iso);
  return d.toLocaleString(undefined, { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit' });
}

export function fmtDuration(ms) {
  if (ms === null || ms === undefined) return '—';
  if (ms < 1000) return `${ms} ms`;
  const sec = ms / 1000;
  if (sec < 60) return `${sec.toFixed(1)} s`;
  const min = Math.floor(sec / 60);
  return min < 60 ? `${min} m ${Math.round(sec % 60)} s` : `${Math.floor(min / 60)} h ${min % 60} m`;
}

export function fmtNum(n) {
  return Number(n ?? 0).toLocaleString();
}
