// What the agent sees of a page: URL, title, the visible interactive elements (numbered; the number
// is written on the element as data-almanac-id so actions can find it again) and a text excerpt;
// then the same for each visible embedded frame (iframes, nested ones and cross-origin ones
// included, each read through its own Playwright Frame), numbered in one sequence with the page.
import { createHash } from 'node:crypto';
import type { Frame, Page } from 'playwright-core';
import { ellipsize } from '../values.js';

export interface PageElement {
  id: number;
  /** The number of the frame the element is in; absent for the page itself. */
  frame?: number;
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

/** A visible embedded frame: numbered from 1 in document order, `parent` 0 for the page itself. */
export interface FrameView {
  number: number;
  parent: number;
  url: string;
  title: string;
  text: string;
  /** Why its content is not shown (refused by the URL policy, not a web page, not answering). */
  skipped?: string;
}

export interface Observation {
  url: string;
  title: string;
  elements: PageElement[];
  text: string;
  scrollY: number;
  scrollHeight: number;
  viewportHeight: number;
  frames: FrameView[];
  /** Frames left unread: over a limit (count, depth, time). */
  framesOmitted: number;
  /** The run's open tabs, numbered from 1 in the order they were opened (set by the session). */
  tabs?: TabView[];
}

export interface TabView {
  number: number;
  title: string;
  url: string;
  active: boolean;
}

/** An observation and the frames its elements are in (index = frame number, 0 the page's own). */
export interface Observed {
  observation: Observation;
  frames: Frame[];
}

/** Elements listed in all (page and frames together). */
export const MAX_ELEMENTS = 150;
export const MAX_TEXT = 4000;
/** Frames shown, how deep they nest, how many are examined at all (hidden ones count). */
export const MAX_FRAMES = 20;
export const MAX_FRAME_DEPTH = 5;
export const MAX_FRAMES_EXAMINED = 60;
/** Text excerpt of one frame, and of all frames together. */
export const MAX_FRAME_TEXT = 500;
export const MAX_FRAMES_TEXT = 2000;
/** Time all frames together may take to be read (a frame busy in a script must not hold a step). */
const FRAMES_DEADLINE_MS = 10_000;

// A string, not a function: page.evaluate would ship a transpiled function, helpers and all.
// Numbers elements from `first`, at most `max` of them; the text excerpt is at most `maxText` long.
const OBSERVE_SOURCE = `function (first, max, maxText) {
  const clip = (s, n) => { s = (s || '').replace(/\\s+/g, ' ').trim(); return s.length > n ? s.slice(0, n - 1) + '…' : s; };
  for (const el of document.querySelectorAll('[data-almanac-id]')) el.removeAttribute('data-almanac-id');
  const selector = 'a[href], button, input:not([type=hidden]), select, textarea, summary, [role=button], [role=link], [role=checkbox], [role=radio], [role=tab], [role=menuitem], [role=option], [role=switch], [contenteditable=""], [contenteditable=true], [onclick]';
  const elements = [];
  for (const el of document.querySelectorAll(selector)) {
    if (elements.length >= max) break;
    if (el.disabled) continue;
    const rect = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    // A file input is often hidden behind a styled label: it is listed anyway, for upload_file.
    const fileInput = el.tagName === 'INPUT' && el.type === 'file';
    if (!fileInput && (rect.width <= 0 || rect.height <= 0 || style.visibility === 'hidden' || style.display === 'none' || Number(style.opacity) === 0)) continue;
    const tag = el.tagName.toLowerCase();
    const labelled = el.labels && el.labels[0] ? el.labels[0].innerText : '';
    const label = clip(el.getAttribute('aria-label') || labelled || (tag === 'input' || tag === 'textarea' || tag === 'select' ? '' : el.innerText) || el.getAttribute('title') || el.getAttribute('alt') || '', 80);
    const item = { id: first + elements.length, tag, label };
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
    title: clip(document.title, 200),
    elements,
    text: text.length > maxText ? text.slice(0, maxText) + '\\n…' : text,
    scrollY: Math.round(window.scrollY),
    scrollHeight: document.documentElement ? document.documentElement.scrollHeight : 0,
    viewportHeight: window.innerHeight,
  };
}`;

const observeScript = (first: number, max: number, maxText: number) => `(${OBSERVE_SOURCE})(${first}, ${max}, ${maxText})`;

type Seen = Omit<Observation, 'frames' | 'framesOmitted'>;

/** The URL the policy refused to load in a frame, and why. */
export type FrameRefusal = (frame: Frame) => { url: string; reason: string } | undefined;

/**
 * Reads the page and its frames. `refusal` tells whether the URL policy refused a frame's document
 * (the frame then shows the proxy's refusal or an error page, not the page's content).
 */
export async function observe(page: Page, refusal: FrameRefusal = () => undefined): Promise<Observed> {
  let seen: Seen;
  try {
    seen = (await page.evaluate(observeScript(1, MAX_ELEMENTS, MAX_TEXT))) as Seen;
  } catch {
    // A page mid-navigation (or a non-HTML document) cannot be read: report what is known.
    seen = { url: page.url(), title: '', elements: [], text: '', scrollY: 0, scrollHeight: 0, viewportHeight: 0 };
  }
  const observation: Observation = { ...seen, frames: [], framesOmitted: 0 };
  const frames = [page.mainFrame()];
  await observeFrames(observation, frames, refusal);
  return { observation, frames };
}

/**
 * Adds the visible frames under the page to the observation: depth first, each parent's children in
 * the order Playwright lists them (the order they were attached: document order for a static page).
 */
async function observeFrames(observation: Observation, frames: Frame[], refusal: FrameRefusal): Promise<void> {
  const deadline = Date.now() + FRAMES_DEADLINE_MS;
  const pending = frames[0].childFrames().map((frame) => ({ frame, parent: 0, depth: 1 }));
  let examined = 0;
  let textLeft = MAX_FRAMES_TEXT;
  let tooDeep = 0;
  while (pending.length) {
    if (observation.frames.length >= MAX_FRAMES || examined >= MAX_FRAMES_EXAMINED || Date.now() >= deadline) break;
    const { frame, parent, depth } = pending.shift()!;
    examined++;
    if (frame.isDetached() || !(await within(isFrameVisible(frame), deadline))) continue;
    const view: FrameView = { number: frames.length, parent, url: frame.url(), title: '', text: '' };
    frames.push(frame);
    observation.frames.push(view);
    const refused = refusal(frame);
    if (refused) Object.assign(view, { url: refused.url, skipped: `blocked by policy: ${refused.reason}` });
    else view.skipped = notWeb(view.url);
    if (view.skipped) continue;
    const room = MAX_ELEMENTS - observation.elements.length;
    const maxText = Math.max(0, Math.min(MAX_FRAME_TEXT, textLeft));
    const seen = (await within(frame.evaluate(observeScript(observation.elements.length + 1, room, maxText)), deadline)) as
      Seen | undefined;
    if (!seen) {
      view.skipped = 'its content could not be read (loading, or busy)';
      continue;
    }
    Object.assign(view, { url: seen.url, title: seen.title, text: seen.text });
    textLeft -= seen.text.length;
    observation.elements.push(...seen.elements.map((e) => ({ ...e, frame: view.number })));
    const children = frame.childFrames();
    if (depth < MAX_FRAME_DEPTH) pending.unshift(...children.map((child) => ({ frame: child, parent: view.number, depth: depth + 1 })));
    else tooDeep += children.length;
  }
  observation.framesOmitted = pending.length + tooDeep;
}

/** A frame is observed when its element is rendered, at least 2 px each way inside its border, and not transparent. */
async function isFrameVisible(frame: Frame): Promise<boolean> {
  const owner = await frame.frameElement();
  try {
    // No function defined inside: the transpiled arrow needs no helpers in the page.
    return await owner.evaluate((node) => {
      const el = node as HTMLElement;
      const style = getComputedStyle(el);
      return (
        el.clientWidth >= 2 &&
        el.clientHeight >= 2 &&
        style.visibility !== 'hidden' &&
        style.display !== 'none' &&
        Number(style.opacity) !== 0
      );
    });
  } finally {
    void owner.dispose().catch(() => undefined);
  }
}

/** Why a frame's document is left out when it is not a web page (data:, an error page…). */
function notWeb(url: string): string | undefined {
  // about:blank and about:srcdoc documents are written by the page that holds the frame.
  if (/^https?:/i.test(url) || url === 'about:blank' || url === 'about:srcdoc' || url === '') return undefined;
  return `not a web page (${url.split(':')[0]}:); only http(s) frames are read`;
}

/** The promise's value, or undefined when it fails or the deadline passes first. */
async function within<T>(promise: Promise<T>, deadline: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), Math.max(0, deadline - Date.now()))));
  try {
    return await Promise.race([promise.catch(() => undefined), late]);
  } finally {
    clearTimeout(timer);
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
  if (e.href) parts.push(`→ ${ellipsize(e.href, 100)}`);
  return parts.join(' ');
}

/** The observation as the LLM reads it. */
export function formatObservation(o: Observation, step: number, maxSteps: number): string {
  const lines = [`Step ${step} of at most ${maxSteps}.`, `URL: ${o.url}`, `Title: ${o.title}`];
  // One tab is the page itself: the list only appears once the site opened another.
  if (o.tabs && o.tabs.length > 1) lines.push('', 'Open tabs (switch_tab, close_tab):', ...o.tabs.map(describeTab));
  lines.push('', 'Interactive elements (visible):');
  const own = o.elements.filter((e) => !e.frame);
  lines.push(...(own.length ? own.map(describeElement) : ['(none)']));
  lines.push('', 'Page text (excerpt):', o.text.trim() || '(empty)');
  if (o.frames.length) {
    lines.push('', 'Frames (pages embedded in this one; act on their elements by number, like on any other):');
    for (const frame of o.frames) lines.push(...describeFrame(frame, o.elements));
  }
  if (o.framesOmitted) {
    lines.push(
      `(${o.framesOmitted} more frame${o.framesOmitted === 1 ? '' : 's'} not read: at most ${MAX_FRAMES} frames, ${MAX_FRAME_DEPTH} levels deep, are read, within ${FRAMES_DEADLINE_MS / 1000} s)`,
    );
  }
  if (o.scrollHeight > o.viewportHeight) lines.push('', `Scrolled ${o.scrollY} of ${o.scrollHeight - o.viewportHeight} px.`);
  return lines.join('\n');
}

function describeTab(t: TabView): string {
  const url = ellipsize(t.url, 200);
  return `Tab ${t.number}${t.active ? ' (current)' : ''}: ${url}${t.title ? ` — ${JSON.stringify(t.title)}` : ''}`;
}

function describeFrame(f: FrameView, elements: PageElement[]): string[] {
  const url = ellipsize(f.url, 200);
  const where = f.parent ? `in frame ${f.parent}` : 'in the page';
  const head = `Frame ${f.number} (${where}): ${url}${f.title ? ` — ${JSON.stringify(f.title)}` : ''}`;
  if (f.skipped) return [`${head} — not shown: ${f.skipped}`];
  const own = elements.filter((e) => e.frame === f.number);
  const text = f.text.replace(/\s+/g, ' ').trim();
  return [head, ...(own.length ? own.map(describeElement) : ['(no interactive elements)']), `Frame ${f.number} text: ${text || '(empty)'}`];
}

/** One line that stands for an older observation in the conversation. */
export function summarizeObservation(o: Observation, step: number): string {
  return `(Step ${step} page: ${o.url} — "${o.title}"; details omitted.)`;
}

/** Equal for two observations of an unchanged page (repeated-action detection). */
export function fingerprint(o: Observation): string {
  return createHash('sha1')
    .update(JSON.stringify([o.url, o.title, o.elements, o.text, o.scrollY, o.frames, o.tabs]))
    .digest('hex');
}
