// The one DOM helper: an element with attributes and children. Strings become text nodes, so data
// from the API is never parsed as HTML.

export function el(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    element.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children) {
    if (child === undefined || child === null || child === false) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return element;
}

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

/** A <time> for an ISO date, or a dash. */
export function time(iso) {
  if (!iso) return el('span', { class: 'muted' }, '—');
  return el('time', { datetime: iso }, dateFormat.format(new Date(iso)));
}
