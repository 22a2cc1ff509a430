// The eval suite: each task is a site to start on, a prompt, optional create options (more fields of
// POST /api/v1/task/create: outputSchema, secrets, maxSteps…) and a checker that judges the run by
// the site's own state or against the site's known data, never by the model's word alone.
import { BRANCHES } from './sites/branches.js';
import { VISITS } from './sites/chart.js';
import { LOGIN_PASSWORD, LOGIN_TOTP_KEY, LOGIN_USER } from './sites/login.js';
import type { EvalSites } from './sites/server.js';
import { searchCatalogue } from './sites/shop.js';

export interface RunOutcome {
  status: string;
  error: string | null;
  output: unknown;
  dataTable: Array<Record<string, unknown>>;
  /** The files the run downloaded and kept. */
  downloads: Array<{ name: string; sha256: string }>;
}

export interface Verdict {
  ok: boolean;
  /** Why, in a few words: shown in the table. */
  detail: string;
}

export interface EvalTask {
  name: string;
  /** Where the browser starts: a path on the eval sites (the task's startUrl). */
  start: string;
  prompt: string;
  /** More fields of the create request. */
  options?: Record<string, unknown>;
  /** Only a model that sees pictures can do it (LLM_VISION): skipped for one that does not. */
  needsVision?: boolean;
  /** Judges a completed run (a run that ended in error has failed already). */
  check(run: RunOutcome, sites: EvalSites): Verdict;
}

const text = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value ?? ''));
/** Numbers written in a text ("€1,234.50" → 1234.5). */
const numbersIn = (s: string) => [...s.replace(/(\d),(\d{3})/g, '$1$2').matchAll(/\d+(?:\.\d+)?/g)].map((m) => Number(m[0]));
/** Compared without case, spacing or punctuation ("182,400" = "182400", "NW1 6XE" = "nw16xe"). */
const same = (a: unknown, b: unknown) =>
  String(a ?? '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}@.]/gu, '') ===
  String(b ?? '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}@.]/gu, '');

export const SHOP_QUERY = 'wireless headphones';

const shopSearch: EvalTask = {
  name: 'shop-search',
  start: '/shop/',
  prompt: `Use the shop's search box to find ${SHOP_QUERY}. Which of the ${SHOP_QUERY} is the cheapest? Answer with its name and price.`,
  check(run, sites) {
    if (!sites.shop.searches.length) return { ok: false, detail: 'the search box was never used' };
    const matching = searchCatalogue(SHOP_QUERY);
    const cheapest = Math.min(...matching.map((p) => p.price));
    const said = numbersIn(text(run.output));
    if (!said.includes(cheapest)) return { ok: false, detail: `the answer does not give the price ${cheapest.toFixed(2)}` };
    const others = matching.filter((p) => p.price !== cheapest && said.includes(p.price));
    if (others.length) return { ok: false, detail: `the answer also gives ${others.map((p) => p.price.toFixed(2)).join(', ')}` };
    return { ok: true, detail: `price ${cheapest.toFixed(2)}` };
  },
};

export const SIGNUP_DETAILS: Record<string, string> = {
  'Full name': 'Ada Lovelace',
  Email: 'ada@example.org',
  'Street and number': '12 Analytical Street',
  City: 'London',
  Postcode: 'NW1 6XE',
  Plan: 'Pro',
};
const SIGNUP_FIELDS: Record<string, string> = {
  'Full name': 'fullName',
  Email: 'email',
  'Street and number': 'street',
  City: 'city',
  Postcode: 'postcode',
  Plan: 'plan',
};

const multiPageForm: EvalTask = {
  name: 'multi-page-form',
  start: '/signup/',
  prompt:
    'Sign up on this site with these details, going through every page of the form, and submit it. ' +
    Object.entries(SIGNUP_DETAILS)
      .map(([label, value]) => `${label}: ${value}`)
      .join('; ') +
    '.',
  check(_run, sites) {
    const submitted = sites.signup.submissions;
    if (submitted.length !== 1) return { ok: false, detail: `${submitted.length} submissions recorded (expected 1)` };
    const wrong = Object.entries(SIGNUP_FIELDS).filter(([label, field]) => !same(submitted[0][field], SIGNUP_DETAILS[label]));
    if (wrong.length) return { ok: false, detail: `wrong ${wrong.map(([label]) => label).join(', ')}` };
    return { ok: true, detail: 'the site recorded the sign-up' };
  },
};

const tableExtract: EvalTask = {
  name: 'table-extract',
  start: '/branches/',
  prompt:
    'Report every library branch listed on this site (the table runs over several pages) as data rows with the columns Branch, District, Books and Opened.',
  check(run) {
    const rows = run.dataTable.map((row) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k.trim().toLowerCase(), v])));
    const missing = BRANCHES.filter(
      (b) => rows.filter((r) => Object.entries(b).every(([k, v]) => same(r[k.toLowerCase()], v))).length !== 1,
    );
    if (missing.length) return { ok: false, detail: `${missing.length} of ${BRANCHES.length} branches missing or repeated` };
    if (rows.length !== BRANCHES.length) return { ok: false, detail: `${rows.length} rows reported (expected ${BRANCHES.length})` };
    return { ok: true, detail: `${rows.length} rows match` };
  },
};

const chartRead: EvalTask = {
  name: 'chart-read',
  start: '/chart/',
  prompt: 'Look at the bar chart on this page. In which month were there the most visitors? Answer with the name of the month only.',
  needsVision: true,
  check(run) {
    const said = text(run.output).toLowerCase();
    const best = VISITS.reduce((a, b) => (b.visitors > a.visitors ? b : a)).month;
    // A month named in full or by its three letters, as a word ("may" in "maybe" is not May).
    const named = VISITS.filter((v) => new RegExp(`\\b(${v.month}|${v.month.slice(0, 3)})\\b`, 'i').test(said));
    if (!named.some((v) => v.month === best)) return { ok: false, detail: `the answer does not name ${best}` };
    if (named.length > 1) return { ok: false, detail: `the answer names ${named.length} months` };
    return { ok: true, detail: best };
  },
};

const loginTotp: EvalTask = {
  name: 'login-totp',
  start: '/login/',
  prompt:
    `Sign in to this site as user ${LOGIN_USER} with the password <secret:password>; when it asks for a one-time code, ` +
    'enter <totp:otp>. Answer with the heading of the page you reach once signed in.',
  // The password and the TOTP key reach the browser only as typed: the model sees placeholders.
  options: { secrets: { password: LOGIN_PASSWORD, otp: { totp: LOGIN_TOTP_KEY } } },
  check(run, sites) {
    if (sites.login.logins.length !== 1) return { ok: false, detail: `${sites.login.logins.length} logins recorded (expected 1)` };
    if (!/welcome/i.test(text(run.output))) return { ok: false, detail: 'the answer does not give the signed-in page' };
    return { ok: true, detail: 'the site recorded the login with its one-time code' };
  },
};

const newTab: EvalTask = {
  name: 'new-tab',
  start: '/tabs/',
  prompt: 'Open the annual report on this site (it opens in a new tab) and answer with its report reference only.',
  check(run, sites) {
    if (!sites.tabs.reportViews) return { ok: false, detail: 'the report was never opened' };
    if (!text(run.output).includes(sites.tabs.reference)) return { ok: false, detail: `the answer does not give ${sites.tabs.reference}` };
    return { ok: true, detail: sites.tabs.reference };
  },
};

export const INVOICE_MONTH = 'October';

const download: EvalTask = {
  name: 'download',
  start: '/invoices/',
  prompt: `Download the ${INVOICE_MONTH} invoice from this site (only that one), then finish.`,
  check(run, sites) {
    const months = sites.invoices.downloaded;
    if (months.length !== 1 || months[0] !== INVOICE_MONTH.toLowerCase())
      return { ok: false, detail: `the site sent ${months.join(', ') || 'nothing'} (expected ${INVOICE_MONTH.toLowerCase()} only)` };
    const kept = run.downloads.filter((d) => d.sha256 === sites.invoices.sha256Of(INVOICE_MONTH));
    if (kept.length !== 1 || run.downloads.length !== 1)
      return { ok: false, detail: `${run.downloads.length} files kept, ${kept.length} of them the ${INVOICE_MONTH} invoice` };
    return { ok: true, detail: `${kept[0].name} kept with the run` };
  },
};

export const EVAL_TASKS: EvalTask[] = [shopSearch, multiPageForm, tableExtract, chartRead, loginTotp, newTab, download];
