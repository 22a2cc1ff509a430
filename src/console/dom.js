// @ts-check
// The one DOM helper: an element with attributes and children. Strings become text nodes, so data
// from the API is never parsed as HTML.

/** @typedef {string | number | boolean | null | undefined} Attribute */
/** @typedef {Node | string | number | boolean | null | undefined} Child */

/**
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Record<string, Attribute>} [attributes]
 * @param {...Child} children
 * @returns {HTMLElementTagNameMap[K]}
 */
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

/**
 * The element with this id, checked to be of the expected class (HTMLInputElement…): a page
 * missing one of its own elements is a bug, reported at once rather than as a null later.
 * @template {HTMLElement} E
 * @param {string} id
 * @param {new (...args: never[]) => E} [type] HTMLElement when left out
 * @returns {E}
 */
export function byId(id, type = /** @type {new (...args: never[]) => E} */ (/** @type {unknown} */ (HTMLElement))) {
  const element = document.getElementById(id);
  if (!(element instanceof type)) throw new Error(`#${id} is missing or not a ${type.name}.`);
  return element;
}

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

/**
 * A <time> for an ISO date, or a dash.
 * @param {string | null | undefined} iso
 */
export function time(iso) {
  if (!iso) return el('span', { class: 'muted' }, '—');
  return el('time', { datetime: iso }, dateFormat.format(new Date(iso)));
}
