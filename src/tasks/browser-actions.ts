// Executes the built-in browser actions (all but `done`) on a run's page. A failure is an answer
// for the agent ("element [7] is not on the page"), not an exception: the agent can correct itself.
import type { BrowserContext, Download, Frame, Locator, Page, Request } from 'playwright-core';
import type { DownloadedFile, TaskFileData } from './files.js';
import type { UrlPolicy } from '../net/url-policy.js';
import { observe, type Observation, type TabView } from './observe.js';
import { visionShot } from './vision.js';
import { BLOCKED_HEADER, type PolicyProxy } from './proxy.js';

export type Row = Record<string, unknown>;

export interface ActionOutcome {
  ok: boolean;
  result: string;
  rows?: Row[];
}

/** Where a run keeps what its browser downloads, and how much more it may keep. */
export interface DownloadKeeper {
  maxBytes: number;
  /** Downloads the run may still keep (TASK_MAX_DOWNLOADS less those it has). */
  remaining: number;
  keep(file: DownloadedFile): Promise<unknown>;
}

/** A run's browser context and its current tab (a popup becomes the current tab). */
export class BrowserSession {
  page!: Page;
  /** Without one, downloads are refused. */
  downloads: DownloadKeeper | undefined;
  /** Downloads under way or ended since the last action's result reported them: what to tell the agent. */
  private downloadNotes: Array<{ note: Promise<string>; text?: string }> = [];
  /** Navigations answered with an attachment whose download Playwright has not reported yet. */
  private downloadsAnnounced = 0;
  private downloadStarted: Array<() => void> = [];
  /** Why the latest main-frame navigation was refused by the policy, if it was. */
  blocked: string | undefined;
  private failedNavigation: { url: string; error: string } | undefined;
  /** Embedded frames whose latest navigation the policy refused: the URL and the reason. */
  private refusedFrames = new WeakMap<Frame, { url: string; reason: string }>();
  /** Frames refused since the latest action began, and the frame that action works in. */
  private framesRefusedNow = new Map<Frame, string>();
  target: Frame | undefined;
  /** The frames the latest observation read (0: the page's own). */
  private observedFrames: Frame[] = [];
  /** The frame of each element number of the latest observation (the page's own are not listed). */
  private elementFrames = new Map<number, { frame: Frame; number: number }>();

  private constructor(
    readonly context: BrowserContext,
    private proxy: PolicyProxy,
  ) {}

  static async open(context: BrowserContext, proxy: PolicyProxy): Promise<BrowserSession> {
    const session = new BrowserSession(context, proxy);
    context.on('page', (page) => {
      session.page = page;
      page.on('download', (download) => {
        session.downloadsAnnounced = Math.max(0, session.downloadsAnnounced - 1);
        for (const resolve of session.downloadStarted.splice(0)) resolve();
        const entry: { note: Promise<string>; text?: string } = { note: session.keepDownload(download) };
        void entry.note.then((text) => (entry.text = text));
        session.downloadNotes.push(entry);
      });
      // A tab that closes (a popup, window.close()) hands over to the newest one left.
      page.on('close', () => {
        if (session.page !== page) return;
        const open = context.pages();
        if (open.length) session.page = open[open.length - 1];
        else void context.newPage().catch(() => undefined);
      });
    });
    context.on('response', (response) => {
      const request = response.request();
      if (!request.isNavigationRequest()) return;
      const header = response.headers()[BLOCKED_HEADER];
      // The download event follows such an answer: an action's result waits for it (reportDownloads).
      if (/^\s*attachment/i.test(response.headers()['content-disposition'] ?? '')) session.downloadsAnnounced++;
      const frame = subframeOf(request);
      if (frame) session.noteFrame(frame, request.url(), header ? decodeURIComponent(header) : undefined);
      else if (header) session.blocked = decodeURIComponent(header);
    });
    context.on('requestfailed', (request) => {
      if (!request.isNavigationRequest()) return;
      const frame = subframeOf(request);
      if (frame) session.noteFrame(frame, request.url(), session.denialFor(request.url()));
      else session.failedNavigation = { url: request.url(), error: request.failure()?.errorText ?? 'failed' };
    });
    await context.addInitScript(WATCH_NEW_TABS);
    session.page = await context.newPage();
    return session;
  }

  /**
   * Reads a finished download and keeps it, within the run's limits; answers what the agent is told.
   * The browser downloads the whole file first (Playwright has no progress): one over the limit is
   * then refused whole and deleted with the context.
   */
  private async keepDownload(download: Download): Promise<string> {
    const name = download.suggestedFilename();
    const keeper = this.downloads;
    const refuse = async (why: string) => {
      await download.cancel().catch(() => undefined);
      return `the download of ${JSON.stringify(name)} was not kept: ${why}`;
    };
    if (!keeper) return refuse('this run keeps no downloads');
    if (keeper.remaining <= 0) return refuse('the run already kept as many downloads as it may (TASK_MAX_DOWNLOADS)');
    keeper.remaining--;
    try {
      const stream = await download.createReadStream();
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of stream) {
        size += (chunk as Buffer).length;
        if (size > keeper.maxBytes) {
          stream.destroy();
          keeper.remaining++;
          return `the download of ${JSON.stringify(name)} was not kept: it is larger than ${keeper.maxBytes} bytes (TASK_MAX_DOWNLOAD_BYTES)`;
        }
        chunks.push(chunk as Buffer);
      }
      await keeper.keep({ name, url: download.url(), content: Buffer.concat(chunks) });
      return `downloaded ${JSON.stringify(name)} (${size} bytes; kept with the run's result)`;
    } catch (error) {
      keeper.remaining++;
      const failure = await download.failure().catch(() => null);
      return `the download of ${JSON.stringify(name)} failed: ${failure ?? (error as Error).message.split('\n')[0]}`;
    }
  }

  /** What the downloads since the last report came to, waiting for them up to `timeoutMs`. */
  async reportDownloads(timeoutMs: number): Promise<string[]> {
    if (!this.downloadsAnnounced && !this.downloadNotes.length) return [];
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise((resolve) => (timer = setTimeout(resolve, timeoutMs)));
    while (this.downloadsAnnounced > 0) {
      const started = new Promise<void>((resolve) => this.downloadStarted.push(resolve));
      if ((await Promise.race([started.then(() => true), waited.then(() => false)])) === false) {
        this.downloadsAnnounced = 0; // announced, never started: not waited for again
        break;
      }
    }
    if (!this.downloadNotes.length) {
      clearTimeout(timer);
      return [];
    }
    await Promise.race([Promise.all(this.downloadNotes.map((d) => d.note)), waited]);
    clearTimeout(timer);
    const ended = this.downloadNotes.filter((d) => d.text !== undefined);
    this.downloadNotes = this.downloadNotes.filter((d) => d.text === undefined);
    const still = this.downloadNotes.length ? [`${this.downloadNotes.length} download(s) still under way`] : [];
    return [...ended.map((d) => d.text!), ...still];
  }

  /** Observes the current tab and its frames, and remembers which frame each element number is in. */
  async observe(): Promise<Observation> {
    const page = this.page;
    const { observation, frames } = await observe(page, (frame) => {
      const refused = this.refusedFrames.get(frame);
      // The frame shows the proxy's refusal (at the refused URL) or, for a refused tunnel, an error page.
      return refused && (refused.url === frame.url() || frame.url().startsWith('chrome-error:')) ? refused : undefined;
    });
    this.observedFrames = frames;
    this.elementFrames.clear();
    for (const e of observation.elements) if (e.frame) this.elementFrames.set(e.id, { frame: frames[e.frame], number: e.frame });
    observation.tabs = await this.tabs(page);
    return observation;
  }

  /** The latest observation's viewport with its element numbers drawn, for a model that sees (vision.ts). */
  visionShot() {
    return visionShot(this.page, this.observedFrames);
  }

  /** The open tabs, numbered from 1 in the order they were opened. */
  private async tabs(current: Page): Promise<TabView[]> {
    const pages = this.context.pages();
    return Promise.all(
      pages.map(async (page, i) => ({
        number: i + 1,
        // A tab mid-navigation has no title to read yet.
        title: (await page.title().catch(() => '')).slice(0, 200),
        url: page.url(),
        active: page === current,
      })),
    );
  }

  /** Tab `number` of the latest listing's numbering, or why there is none. */
  tab(number: number): Page | string {
    const pages = this.context.pages();
    const page = pages[Number(number) - 1];
    return page ?? `there is no tab ${number}: ${pages.length} tab${pages.length === 1 ? ' is' : 's are'} open`;
  }

  /** The frame element `id` of the latest observation is in (undefined: the page itself). */
  frameOf(id: number): { frame: Frame; number: number } | undefined {
    return this.elementFrames.get(id);
  }

  private noteFrame(frame: Frame, url: string, refusal: string | undefined): void {
    if (refusal) {
      this.refusedFrames.set(frame, { url, reason: refusal });
      this.framesRefusedNow.set(frame, refusal);
    } else {
      this.refusedFrames.delete(frame);
    }
  }

  private denialFor(url: string): string | undefined {
    try {
      return this.proxy.denialFor(new URL(url).hostname);
    } catch {
      return undefined;
    }
  }

  resetSignals(): void {
    this.blocked = undefined;
    this.failedNavigation = undefined;
    this.framesRefusedNow.clear();
    this.target = undefined;
  }

  /**
   * The policy's reason when the latest navigation of the tab, or of the frame the latest action
   * worked in, was refused (plain or tunnelled).
   */
  refusal(): string | undefined {
    const tab = this.blocked ?? (this.failedNavigation && this.denialFor(this.failedNavigation.url));
    return tab ?? (this.target && this.framesRefusedNow.get(this.target));
  }

  navigationError(): string | undefined {
    return this.failedNavigation ? `${this.failedNavigation.url}: ${this.failedNavigation.error}` : undefined;
  }
}

/** The embedded frame a navigation request is for; undefined for a tab's main frame. */
function subframeOf(request: Request): Frame | undefined {
  try {
    const frame = request.frame();
    return frame.parentFrame() ? frame : undefined;
  } catch {
    return undefined; // a service worker's request has no frame (and service workers are blocked)
  }
}

// Runs in every document before its scripts: notes that the page asked for a new tab (window.open,
// a link or form aimed at another window), since Playwright reports the tab only once it is set up,
// which on a busy machine comes after the click has settled.
const OPENED_FLAG = '__almanacOpenedTab';
const WATCH_NEW_TABS = `(() => {
  const note = () => { window.${OPENED_FLAG} = true; };
  const open = window.open;
  window.open = function (...args) { note(); return open.apply(this, args); };
  const elsewhere = (t) => t && !/^_(self|parent|top)$/i.test(t);
  addEventListener('click', (e) => {
    const link = e.target && e.target.closest ? e.target.closest('a[target], area[target]') : null;
    if (link && elsewhere(link.target)) note();
  }, true);
  addEventListener('submit', (e) => { if (elsewhere(e.target.target)) note(); }, true);
})()`;

/** After a click: when the page asked for a new tab, waits (up to the action timeout) for it to become the current one. */
async function awaitNewTab(session: BrowserSession, page: Page, frame: Frame, timeout: number): Promise<void> {
  if (session.page !== page) return;
  const asked = await frame.evaluate(`window.${OPENED_FLAG} === true`).catch(() => false);
  // Checked again after the round trip: the tab may have arrived meanwhile.
  if (!asked || session.page !== page) return;
  await session.context.waitForEvent('page', { timeout }).catch(() => undefined);
}

export interface ActionEnv {
  policy: UrlPolicy;
  /** The task's files (upload_file): their names, and a file's bytes by name. */
  files?: { names: string[]; load(name: string): Promise<TaskFileData | null> };
  /** The text to type for the text the model wrote: its secret placeholders replaced by their values. */
  reveal?: (text: string) => string;
  timeoutMs: number;
  signal: AbortSignal;
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });

/** How long a submit waits for the navigation it may start (a page that handles it in script has none). */
const SUBMIT_NAVIGATION_MS = 2000;

/** Lets a navigation the action started begin, then waits (briefly) for the page to load. */
async function settle(page: Page, timeoutMs: number, frame?: Frame): Promise<void> {
  await sleep(150);
  await page.waitForLoadState('load', { timeout: Math.min(timeoutMs, 5000) }).catch(() => undefined);
  // An action in an embedded frame may have loaded a new document into that frame.
  if (frame && frame.parentFrame() && !frame.isDetached()) {
    await frame.waitForLoadState('load', { timeout: Math.min(timeoutMs, 5000) }).catch(() => undefined);
  }
}

/**
 * The arguments of the built-in actions, as checkActionArguments has checked them against the
 * action's parameters: each action reads its own, present when its parameters require it (hence `!`).
 */
export interface ActionArgs {
  url?: string;
  element?: number;
  text?: string;
  submit?: boolean;
  option?: string;
  direction?: 'up' | 'down';
  pages?: number;
  tab?: number;
  seconds?: number;
  selector?: string;
  file?: string;
}

export async function executeAction(session: BrowserSession, name: string, args: ActionArgs, env: ActionEnv): Promise<ActionOutcome> {
  session.resetSignals();
  const page = session.page;
  try {
    const outcome = await perform(session, page, name, args, env);
    const refusal = session.refusal();
    if (refusal) return { ok: false, result: `blocked by policy: ${refusal}` };
    const downloads = await session.reportDownloads(env.timeoutMs);
    return downloads.length ? { ...outcome, result: `${outcome.result}; ${downloads.join('; ')}` } : outcome;
  } catch (error) {
    const refusal = session.refusal();
    if (refusal) return { ok: false, result: `blocked by policy: ${refusal}` };
    const message = (error as Error).message.split('\n')[0].replace(/^\w+\.\w+: /, '');
    // A remote browser (BROWSER_CDP_URL) that cannot reach the proxy opens nothing: say where to look.
    const proxyDown = message.includes('ERR_PROXY_CONNECTION_FAILED')
      ? " (the browser cannot reach Almanac's URL-policy proxy: see BROWSER_PROXY_URL)"
      : '';
    return { ok: false, result: `${name} failed: ${message}${proxyDown}` };
  }
}

async function perform(session: BrowserSession, page: Page, name: string, args: ActionArgs, env: ActionEnv): Promise<ActionOutcome> {
  const timeout = env.timeoutMs;
  switch (name) {
    case 'navigate': {
      const verdict = await env.policy.check(args.url!);
      if (!verdict.allowed) return { ok: false, result: `blocked by policy: ${verdict.reason}` };
      const response = await page.goto(args.url!, { waitUntil: 'domcontentloaded', timeout }).catch((error: Error) => {
        // A URL that answers with a file opens no page: the download is reported with the result.
        if (error.message.includes('Download is starting')) return 'download' as const;
        throw error;
      });
      // Its answer announced the download, which the result waits for (reportDownloads).
      if (response === 'download') return { ok: true, result: `${args.url} started a download; the tab stays at ${page.url()}` };
      await settle(page, timeout);
      return { ok: true, result: `opened ${page.url()}${response ? ` (HTTP ${response.status()})` : ''}` };
    }
    case 'click': {
      const target = await element(session, page, args.element!);
      if (typeof target === 'string') return { ok: false, result: target };
      await target.frame.evaluate(`window.${OPENED_FLAG} = false`).catch(() => undefined);
      await target.locator.click({ timeout });
      await awaitNewTab(session, page, target.frame, timeout);
      await settle(session.page, timeout, target.frame);
      // A page the click opened (target=_blank, window.open) is the current tab now.
      const opened = session.page !== page ? ' (in a new tab, now the current one)' : '';
      return { ok: true, result: `clicked [${args.element}]${target.where}; now at ${session.page.url()}${opened}` };
    }
    case 'type': {
      const target = await element(session, page, args.element!);
      if (typeof target === 'string') return { ok: false, result: target };
      // The value goes into the page only; the result names the text as the model wrote it.
      await target.locator.fill(env.reveal ? env.reveal(args.text!) : args.text!, { timeout });
      if (args.submit) {
        // Enter in a form field usually submits it: wait (briefly) for that navigation (of the tab or
        // of the field's frame) to begin, so a slow machine does not observe the old page as the
        // result; then for the new page to load.
        const navigation = page
          .waitForEvent('framenavigated', {
            predicate: (frame) => frame === page.mainFrame() || frame === target.frame,
            timeout: SUBMIT_NAVIGATION_MS,
          })
          .catch(() => undefined);
        await target.locator.press('Enter', { timeout });
        await navigation;
        await settle(session.page, timeout, target.frame);
      }
      return {
        ok: true,
        result: `typed ${JSON.stringify(args.text)} into [${args.element}]${target.where}${args.submit ? ' and pressed Enter' : ''}`,
      };
    }
    case 'select': {
      const target = await element(session, page, args.element!);
      if (typeof target === 'string') return { ok: false, result: target };
      const chosen = await target.locator
        .selectOption({ label: args.option }, { timeout })
        .catch(() => target.locator.selectOption(args.option!, { timeout }));
      await settle(page, timeout, target.frame);
      return {
        ok: true,
        result: `selected ${JSON.stringify(args.option)} in [${args.element}]${target.where} (value ${JSON.stringify(chosen[0] ?? '')})`,
      };
    }
    case 'scroll': {
      const sign = args.direction === 'up' ? -1 : 1;
      const y = await page.evaluate(`(window.scrollBy(0, ${sign * (args.pages ?? 1)} * window.innerHeight), Math.round(window.scrollY))`);
      return { ok: true, result: `scrolled ${args.direction}; now ${y} px from the top` };
    }
    case 'back': {
      const response = await page.goBack({ waitUntil: 'domcontentloaded', timeout });
      if (!response) return { ok: false, result: 'there is no previous page in this tab' };
      return { ok: true, result: `went back to ${page.url()}` };
    }
    case 'switch_tab': {
      const tab = session.tab(args.tab!);
      if (typeof tab === 'string') return { ok: false, result: tab };
      session.page = tab;
      await tab.bringToFront().catch(() => undefined);
      return { ok: true, result: `switched to tab ${args.tab}: ${tab.url()}` };
    }
    case 'close_tab': {
      const tab = args.tab === undefined ? session.page : session.tab(args.tab);
      if (typeof tab === 'string') return { ok: false, result: tab };
      if (session.context.pages().length === 1) return { ok: false, result: 'the last open tab cannot be closed' };
      const url = tab.url();
      // The tab's close handler hands the current tab over to the newest one left.
      await tab.close();
      return { ok: true, result: `closed the tab at ${url}; the current tab is at ${session.page.url()}` };
    }
    case 'wait': {
      await sleep(Math.min(10, Math.max(0, args.seconds!)) * 1000, env.signal);
      return { ok: true, result: `waited ${args.seconds} s` };
    }
    case 'upload_file':
      return uploadFile(session, page, args, env);
    case 'extract': {
      const found = (await page.evaluate(`(${EXTRACT_SOURCE})(${JSON.stringify(args.selector ?? '')})`)) as {
        rows?: Row[];
        error?: string;
      };
      if (found.error) return { ok: false, result: found.error };
      if (!found.rows?.length)
        return { ok: false, result: `found no rows${args.selector ? ` in ${args.selector}` : ' (no table on the page)'}` };
      const preview = JSON.stringify(found.rows.slice(0, 50));
      return {
        ok: true,
        rows: found.rows,
        result: `extracted ${found.rows.length} rows: ${preview.length > 4000 ? preview.slice(0, 4000) + '…' : preview}`,
      };
    }
    default:
      return { ok: false, result: `unknown action ${name}` };
  }
}

/**
 * Sets one of the task's files into a file input: element `element` when it is one, else the file
 * chooser that clicking it opens (a styled button); without an element, the page's only file input.
 */
async function uploadFile(session: BrowserSession, page: Page, args: ActionArgs, env: ActionEnv): Promise<ActionOutcome> {
  const timeout = env.timeoutMs;
  const names = env.files?.names ?? [];
  const file = names.includes(args.file!) ? await env.files!.load(args.file!) : null;
  if (!file) {
    const given = names.length ? `the task's files are ${names.map((n) => JSON.stringify(n)).join(', ')}` : 'the task has no files';
    return { ok: false, result: `there is no file ${JSON.stringify(args.file)}: ${given}` };
  }
  const payload = { name: file.name, mimeType: file.mimeType, buffer: file.content };
  const what = `${JSON.stringify(file.name)} (${file.content.length} bytes)`;
  if (args.element === undefined) {
    const inputs = page.locator('input[type=file]');
    const count = await inputs.count();
    if (count !== 1)
      return {
        ok: false,
        result: count
          ? `the page has ${count} file inputs: give the element of the one to use`
          : 'the page has no file input: give the element that opens the file chooser',
      };
    await inputs.setInputFiles(payload, { timeout });
    await settle(page, timeout);
    return { ok: true, result: `set ${what} into the page's file input` };
  }
  const target = await element(session, page, args.element);
  if (typeof target === 'string') return { ok: false, result: target };
  if ((await target.locator.getAttribute('type', { timeout }))?.toLowerCase() === 'file') {
    await target.locator.setInputFiles(payload, { timeout });
  } else {
    const chooser = page.waitForEvent('filechooser', { timeout }).catch(() => null);
    await target.locator.click({ timeout });
    const opened = await chooser;
    if (!opened) return { ok: false, result: `clicking [${args.element}]${target.where} opened no file chooser` };
    await opened.setFiles(payload, { timeout });
  }
  await settle(page, timeout, target.frame);
  return { ok: true, result: `set ${what} into [${args.element}]${target.where}` };
}

interface Target {
  locator: Locator;
  frame: Frame;
  /** " in frame 2" for an element of an embedded frame, else empty. */
  where: string;
}

/** Element `id` of the latest observation, looked up in the frame it was listed in. */
async function element(session: BrowserSession, page: Page, id: number): Promise<Target | string> {
  const listed = session.frameOf(Number(id));
  const frame = listed?.frame ?? page.mainFrame();
  const gone = `element [${id}] is not on the page (any more); use a number from the latest listing`;
  if (frame.isDetached()) return gone;
  const locator = frame.locator(`[data-almanac-id="${Number(id)}"]`).first();
  if ((await locator.count()) === 0) return gone;
  session.target = frame;
  return { locator, frame, where: listed ? ` in frame ${listed.number}` : '' };
}

// Runs in the page: rows of the tables (or items of the lists) under the selector.
const EXTRACT_SOURCE = `function (selector) {
  const clip = (s) => (s || '').replace(/\\s+/g, ' ').trim().slice(0, 500);
  let roots;
  try { roots = Array.from(document.querySelectorAll(selector || 'table')); }
  catch (e) { return { error: 'invalid CSS selector: ' + selector }; }
  const rows = [];
  const tableRows = (table) => {
    const all = Array.from(table.rows);
    const first = all[0];
    const head = table.tHead && table.tHead.rows[0] ? table.tHead.rows[0]
      : first && first.querySelectorAll('th').length && !first.querySelectorAll('td').length ? first : null;
    const headers = head ? Array.from(head.cells).map((c, i) => clip(c.innerText) || 'column' + (i + 1)) : [];
    for (const r of all) {
      if (r === head || (table.tHead && table.tHead.contains(r)) || !r.cells.length) continue;
      const row = {};
      Array.from(r.cells).forEach((c, i) => { row[headers[i] || 'column' + (i + 1)] = clip(c.innerText); });
      rows.push(row);
    }
  };
  for (const root of roots) {
    const tables = root.tagName === 'TABLE' ? [root] : Array.from(root.querySelectorAll('table'));
    if (tables.length) { tables.forEach(tableRows); continue; }
    const list = root.matches('ul, ol') ? root : root.querySelector('ul, ol');
    for (const item of Array.from((list || root).children)) { const text = clip(item.innerText); if (text) rows.push({ text }); }
  }
  return { rows: rows.slice(0, 500) };
}`;
