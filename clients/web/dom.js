// dom.js: tiny helpers to build HTML and SVG elements without a framework or innerHTML.
// h('button.primary', {onclick, 'aria-label': 'x'}, 'text', child...) -> HTMLElement.
// Text is always inserted as text nodes, so names and chat from other players cannot inject markup.

const SVG_NS = 'http://www.w3.org/2000/svg';

function build(el, attrs, children) {
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
    else if (k === 'dataset') Object.assign(el.dataset, v);
    else if (k === 'class') el.setAttribute('class', Array.isArray(v) ? v.filter(Boolean).join(' ') : v);
    else if (k === 'text') el.textContent = v;
    else if (k in el && !(el instanceof SVGElement) && typeof v !== 'string') el[k] = v;
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

function parseTag(tag) {
  // 'name#id.class.class' or 'name.class#id': the id and the classes in any order.
  const parts = tag.split(/(?=[.#])/);
  let name = 'div';
  let id = null;
  const classes = [];
  for (const p of parts) {
    if (p[0] === '#') id = p.slice(1);
    else if (p[0] === '.') classes.push(p.slice(1));
    else if (p) name = p;
  }
  return { name, id, classes };
}

export function h(tag, attrs, ...children) {
  const { name, id, classes } = parseTag(tag);
  const el = document.createElement(name);
  if (id) el.id = id;
  if (classes.length) el.className = classes.join(' ');
  if (attrs !== undefined && attrs !== null &&
      (attrs instanceof Node || typeof attrs !== 'object' || Array.isArray(attrs))) {
    children.unshift(attrs);
    attrs = {};
  }
  if (attrs && attrs.class && classes.length) {
    attrs = { ...attrs, class: [...classes, ...(Array.isArray(attrs.class) ? attrs.class : [attrs.class])] };
  }
  return build(el, attrs, children);
}

export function s(tag, attrs, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  return build(el, attrs, children);
}

export function clear(el) {
  while (el.firstChild) el.removeChild(el.firstChild);
  return el;
}
