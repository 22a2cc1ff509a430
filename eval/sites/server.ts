// The eval sites on one HTTP server on 127.0.0.1: /shop/, /signup/, /branches/, /chart/, /login/, /tabs/, /invoices/. Each start has fresh
// state (searches, submissions), which the checkers read.
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createBranches } from './branches.js';
import { createChart } from './chart.js';
import { html, notFound, page, type SiteRequest } from './html.js';
import { createLogin } from './login.js';
import { createShop } from './shop.js';
import { createSignup } from './signup.js';
import { createTabs } from './tabs.js';
import { createInvoices } from './invoices.js';

export interface EvalSites {
  url: string;
  /** host:port, for TASK_ALLOWED_HOSTS. */
  host: string;
  shop: ReturnType<typeof createShop>;
  signup: ReturnType<typeof createSignup>;
  branches: ReturnType<typeof createBranches>;
  chart: ReturnType<typeof createChart>;
  login: ReturnType<typeof createLogin>;
  tabs: ReturnType<typeof createTabs>;
  invoices: ReturnType<typeof createInvoices>;
  /** Starts every site afresh (no searches, drafts or submissions): before each task. */
  reset(): void;
  close(): Promise<void>;
}

const MAX_BODY = 64 * 1024;

export async function startEvalSites(): Promise<EvalSites> {
  const fresh = () => ({
    shop: createShop(),
    signup: createSignup(),
    branches: createBranches(),
    chart: createChart(),
    login: createLogin(),
    tabs: createTabs(),
    invoices: createInvoices(),
  });
  let sites = fresh();
  const server = http.createServer(async (req, res) => {
    let text = '';
    for await (const chunk of req) {
      text += chunk;
      if (text.length > MAX_BODY) return void res.writeHead(413).end();
    }
    const url = new URL(req.url ?? '/', 'http://eval.local');
    const cookies = Object.fromEntries(
      (req.headers.cookie ?? '')
        .split(';')
        .map((c) => c.trim().split('='))
        .filter((kv) => kv.length === 2),
    );
    const request: SiteRequest = {
      method: req.method ?? 'GET',
      url,
      form: new URLSearchParams(req.method === 'POST' ? text : ''),
      cookies,
    };
    const site = url.pathname.split('/')[1] as keyof typeof sites;
    const response =
      url.pathname === '/'
        ? html(
            page(
              'Eval sites',
              '<a href="/shop/">Shop</a> <a href="/signup/">Sign up</a> <a href="/branches/">Branches</a> <a href="/chart/">Chart</a> <a href="/login/">Login</a> <a href="/tabs/">Tabs</a> <a href="/invoices/">Invoices</a>',
            ),
          )
        : Object.hasOwn(sites, site)
          ? sites[site].handle(request)
          : notFound();
    res.writeHead(response.status, { 'content-type': 'text/html; charset=utf-8', ...response.headers });
    res.end(response.body);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    host: `127.0.0.1:${port}`,
    get shop() {
      return sites.shop;
    },
    get signup() {
      return sites.signup;
    },
    get branches() {
      return sites.branches;
    },
    get chart() {
      return sites.chart;
    },
    get login() {
      return sites.login;
    },
    get tabs() {
      return sites.tabs;
    },
    get invoices() {
      return sites.invoices;
    },
    reset() {
      sites = fresh();
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
