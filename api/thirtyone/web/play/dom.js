// Building the page's elements without innerHTML: every text goes in as a text node, so
// nothing from the server is ever read as markup.

/** An element with attributes (`class`, `data-*`, `aria-*`...) and children (nodes or texts). */
export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === null || value === undefined || value === false) continue;
    if (name === "class") element.className = value;
    else element.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child instanceof Node ? child : String(child));
  }
  return element;
}

/** `template` with each `{name}` replaced by `params[name]` (unknown names stay as they are). */
export function format(template, params = {}) {
  return template.replace(/\{(\w+)\}/g, (whole, name) =>
    Object.hasOwn(params, name) ? String(params[name]) : whole);
}

/** Say `text` through the page's one live region (a polite status, outside every redraw). */
export function announce(text) {
  const region = document.getElementById("announce");
  if (region) region.textContent = text;
}
