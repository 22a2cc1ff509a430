// Executes the built-in browser actions (all but `done`) on a run's page. A failure is an answer
// for the agent ("element [7] is not on the page"), not an exception: the agent can correct itself.
import type { BrowserContext, Locator, Page } from 'playwright-core';
import type { UrlPolicy } from '../http/url-policy.js';
import { BLOCKED_HEADER, type PolicyProxy } from './proxy.js';

export type Row = Record<string, unknown>;

export interface ActionOutcome {
  ok: boolean;
  result: string;
  rows?: Row[];
}

/** A run's browser context and its current tab (a popup becomes the current tab). */
export class BrowserSession {
  page!: Page;
  /** Why the latest main-frame navigation was refused by the policy, if it was. */
  blocked: string | undefined;
  private failedNavigation: { url: string; error: string } | undefined;

  private constructor(
    readonly context: BrowserContext,
    private proxy: PolicyProxy,
  ) {}

  static async open(context: BrowserContext, proxy: PolicyProxy): Promise<BrowserSession> {
    const session = new BrowserSession(context, proxy);
    context.on('page', (page) => {
      session.page = page;
      // A tab that closes (a popup, window.close()) hands over to the newest one left.
      page.on('close', () => {
        if (session.page !== page) return;
        const open = context.pages();
        if (open.length) session.page = open[open.length - 1];
        else void context.newPage().catch(() => undefined);
      });
    });
    context.on('response', (response) => {
      const header = response.headers()[BLOCKED_HEADER];
      if (header && response.request().isNavigationRequest()) session.blocked = decodeURIComponent(header);
    });
    context.on('requestfailed', (request) => {
      if (request.isNavigationRequest()) session.failedNavigation = { url: request.url(), error: request.failure()?.errorText ?? 'failed' };
    });
    session.page = await context.newPage();
    return session;
  }

  resetSignals(): void {
    this.blocked = undefined;
    this.failedNavigation = undefined;
  }

  /** The policy's reason when the latest navigation was refused (plain or tunnelled). */
  refusal(): string | undefined {
    if (this.blocked) return this.blocked;
    if (!this.failedNavigation) return undefined;
    try {
      return this.proxy.denialFor(new URL(this.failedNavigation.url).hostname);
    } catch {
      return undefined;
    }
  }

  navigationError(): string | undefined {
    return this.failedNavigation ? `${this.failedNavigation.url}: ${this.failedNavigation.error}` : undefined;
  }
}

export interface ActionEnv {
  policy: UrlPolicy;
  timeoutMs: number;
  signal: AbortSignal;
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });

/** Lets a navigation the action started begin, then waits (briefly) for the page to load. */
/** How long a submit waits for the navigation it may start (a page that handles it in script has none). */
const SUBMIT_NAVIGATION_MS = 2000;

async function settle(page: Page, timeoutMs: number): Promise<void> {
  await sleep(150);
  await page.waitForLoadState('load', { timeout: Math.min(timeoutMs, 5000) }).catch(() => undefined);
}

export async function executeAction(
  session: BrowserSession,
  name: string,
  args: Record<string, any>,
  env: ActionEnv,
): Promise<ActionOutcome> {
  session.resetSignals();
  const page = session.page;
  try {
    const outcome = await perform(session, page, name, args, env);
    const refusal = session.refusal();
    if (refusal) return { ok: false, result: `blocked by policy: ${refusal}` };
    return outcome;
  } catch (error) {
    const refusal = session.refusal();
    if (refusal) return { ok: false, result: `blocked by policy: ${refusal}` };
    const message = (error as Error).message.split('\n')[0].replace(/^\w+\.\w+: /, '');
    return { ok: false, result: `${name} failed: ${message}` };
  }
}

async function perform(
  session: BrowserSession,
  page: Page,
  name: string,
  args: Record<string, any>,
  env: ActionEnv,
): Promise<ActionOutcome> {
  const timeout = env.timeoutMs;
  switch (name) {
    case 'navigate': {
      const verdict = await env.policy.check(args.url);
      if (!verdict.allowed) return { ok: false, result: `blocked by policy: ${verdict.reason}` };
      const response = await page.goto(args.url, { waitUntil: 'domcontentloaded', timeout });
      await settle(page, timeout);
      return { ok: true, result: `opened ${page.url()}${response ? ` (HTTP ${response.status()})` : ''}` };
    }
    case 'click': {
      const target = await element(page, args.element);
      if (typeof target === 'string') return { ok: false, result: target };
      await target.click({ timeout });
      await settle(session.page, timeout);
      return { ok: true, result: `clicked [${args.element}]; now at ${session.page.url()}` };
    }
    case 'type': {
      const target = await element(page, args.element);
      if (typeof target === 'string') return { ok: false, result: target };
      await target.fill(args.text, { timeout });
      if (args.submit) {
        // Enter in a form field usually submits it: wait (briefly) for that navigation to begin, so a
        // slow machine does not observe the old page as the result; then for the new page to load.
        const navigation = page
          .waitForEvent('framenavigated', { predicate: (frame) => frame === page.mainFrame(), timeout: SUBMIT_NAVIGATION_MS })
          .catch(() => undefined);
        await target.press('Enter', { timeout });
        await navigation;
        await settle(session.page, timeout);
      }
      return { ok: true, result: `typed ${JSON.stringify(args.text)} into [${args.element}]${args.submit ? ' and pressed Enter' : ''}` };
    }
    case 'select': {
      const target = await element(page, args.element);
      if (typeof target === 'string') return { ok: false, result: target };
      const chosen = await target
        .selectOption({ label: args.option }, { timeout })
        .catch(() => target.selectOption(args.option, { timeout }));
      await settle(page, timeout);
      return {
        ok: true,
        result: `selected ${JSON.stringify(args.option)} in [${args.element}] (value ${JSON.stringify(chosen[0] ?? '')})`,
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
    case 'wait': {
      await sleep(Math.min(10, Math.max(0, args.seconds)) * 1000, env.signal);
      return { ok: true, result: `waited ${args.seconds} s` };
    }
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

async function element(page: Page, id: number): Promise<Locator | string> {
  const locator = page.locator(`[data-almanac-id="${Number(id)}"]`).first();
  if ((await locator.count()) === 0) return `element [${id}] is not on the page (any more); use a number from the latest listing`;
  return locator;
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
