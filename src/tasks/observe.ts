// What the agent sees of a page: URL, title, the visible interactive elements (numbered; the number
// is written on the element as data-almanac-id so actions can find it again) and a text excerpt.
import { createHash } from 'node:crypto';
import type { Page } from 'playwright-core';

export interface PageElement {
  id: number;
  tag: string;
  type?: string;
  role?: string;
  name?: string;
  label: string;
  value?: string;
  href?: string;
  options?: string[];
  selected?: string;
  checked?: boolean;
}

export interface Observation {
  url: string;
  title: string;
  elements: PageElement[];
  text: string;
  scrollY: number;
  scrollHeight: number;
  viewportHeight: number;
}

export const MAX_ELEMENTS = 150;
export const MAX_TEXT = 4000;

// A string, not a function: page.evaluate would ship a transpiled function, helpers and all.
const OBSERVE_SCRIPT = `(() => {
  const MAX = ${MAX_ELEMENTS};
  const clip = (s, n) => { s = (s || '').replace(/\\s+/g, ' ').trim(); return s.length > n ? s.slice(0, n - 1) + '…' : s; };
  for (const el of document.querySelectorAll('[data-almanac-id]')) el.removeAttribute('data-almanac-id');
  const selector = 'a[href], button, input:not([type=hidden]), select, textarea, summary, [role=button], [role=link], [role=checkbox], [role=radio], [role=tab], [role=menuitem], [role=option], [role=switch], [contenteditable=""], [contenteditable=true], [onclick]';
  const elements = [];
  for (const el of document.querySelectorAll(selector)) {
    if (elements.length >= MAX) break;
    if (el.disabled) continue;
    const rect = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    if (rect.width <= 0 || rect.height <= 0 || style.visibility === 'hidden' || style.display === 'none' || Number(style.opacity) === 0) continue;
    const tag = el.tagName.toLowerCase();
    const labelled = el.labels && el.labels[0] ? el.labels[0].innerText : '';
    const label = clip(el.getAttribute('aria-label') || labelled || (tag === 'input' || tag === 'textarea' || tag === 'select' ? '' : el.innerText) || el.getAttribute('title') || el.getAttribute('alt') || '', 80);
    const item = { id: elements.length + 1, tag, label };
    if (el.getAttribute('type')) item.type = el.getAttribute('type');
    if (el.getAttribute('role')) item.role = el.getAttribute('role');
    if (el.getAttribute('name')) item.name = el.getAttribute('name');
    if (el.getAttribute('placeholder')) item.label = item.label || clip(el.getAttribute('placeholder'), 80);
    if (tag === 'a') item.href = el.getAttribute('href');
    if (tag === 'select') {
      item.options = Array.from(el.options).slice(0, 20).map((o) => clip(o.label || o.value, 40));
      item.selected = el.selectedOptions[0] ? clip(el.selectedOptions[0].label, 40) : '';
    } else if (tag === 'input' && (item.type === 'checkbox' || item.type === 'radio')) {
      item.checked = el.checked;
    } else if (tag === 'input' || tag === 'textarea') {
      item.value = item.type === 'password' ? (el.value ? '••••' : '') : clip(el.value, 80);
    }
    el.setAttribute('data-almanac-id', String(item.id));
    elements.push(item);
  }
  const text = document.body ? document.body.innerText : '';
  return {
    url: location.href,
    title: document.title,
    elements,
    text: text.length > ${MAX_TEXT} ? text.slice(0, ${MAX_TEXT}) + '\\n…' : text,
    scrollY: Math.round(window.scrollY),
    scrollHeight: document.documentElement ? document.documentElement.scrollHeight : 0,
    viewportHeight: window.innerHeight,
  };
})()`;

export async function observe(page: Page): Promise<Observation> {
  try {
    return (await page.evaluate(OBSERVE_SCRIPT)) as Observation;
  } catch {
    // A page mid-navigation (or a non-HTML document) cannot be read: report what is known.
    return { url: page.url(), title: '', elements: [], text: '', scrollY: 0, scrollHeight: 0, viewportHeight: 0 };
  }
}

function describeElement(e: PageElement): string {
  const kind = e.tag === 'a' ? 'link' : e.role && e.tag !== 'button' ? e.role : e.tag;
  const parts = [`[${e.id}] ${kind}`];
  if (e.type && e.tag === 'input') parts.push(`type=${e.type}`);
  if (e.name) parts.push(`name=${e.name}`);
  if (e.label) parts.push(JSON.stringify(e.label));
  if (e.value !== undefined) parts.push(`value=${JSON.stringify(e.value)}`);
  if (e.checked !== undefined) parts.push(e.checked ? 'checked' : 'unchecked');
  if (e.options)
    parts.push(`options: ${e.options.map((o) => JSON.stringify(o)).join(', ')} (selected ${JSON.stringify(e.selected ?? '')})`);
  if (e.href) parts.push(`→ ${e.href.length > 100 ? e.href.slice(0, 99) + '…' : e.href}`);
  return parts.join(' ');
}

/** The observation as the LLM reads it. */
export function formatObservation(o: Observation, step: number, maxSteps: number): string {
  const lines = [`Step ${step} of at most ${maxSteps}.`, `URL: ${o.url}`, `Title: ${o.title}`, '', 'Interactive elements (visible):'];
  lines.push(...(o.elements.length ? o.elements.map(describeElement) : ['(none)']));
  lines.push('', 'Page text (excerpt):', o.text.trim() || '(empty)');
  if (o.scrollHeight > o.viewportHeight) lines.push('', `Scrolled ${o.scrollY} of ${o.scrollHeight - o.viewportHeight} px.`);
  return lines.join('\n');
}

/** One line that stands for an older observation in the conversation. */
export function summarizeObservation(o: Observation, step: number): string {
  return `(Step ${step} page: ${o.url} — "${o.title}"; details omitted.)`;
}

/** Equal for two observations of an unchanged page (repeated-action detection). */
export function fingerprint(o: Observation): string {
  return createHash('sha1')
    .update(JSON.stringify([o.url, o.title, o.elements, o.text, o.scrollY]))
    .digest('hex');
}
