// One Chromium per worker pool, launched on first use and again if it dies (Debian's, never a
// downloaded one), or, with BROWSER_CDP_URL, an existing one driven over CDP (Browserless, Steel, a
// grid), connected again when the connection drops. Each run gets its own browser context, and all of
// its traffic goes through the policy proxy, whichever browser it is in.
import type { Browser, BrowserContext } from 'playwright-core';
import type { PolicyProxy } from './proxy.js';

export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export const VIEWPORT = { width: 1280, height: 800 };

export type StorageState = Awaited<ReturnType<BrowserContext['storageState']>>;

/** The browser runs use: one launched here, or a remote one reached over CDP. */
export type BrowserSource = { executablePath: string } | { cdpUrl: string };

export class BrowserHost {
  private launching: Promise<Browser> | undefined;
  private closed = false;

  /** `proxyUrl`: where the browser reaches the policy proxy (a remote browser may need another address). */
  constructor(
    private source: BrowserSource,
    private proxy: PolicyProxy,
    private proxyUrl = proxy.url,
  ) {}

  private browser(): Promise<Browser> {
    if (this.closed) return Promise.reject(new Error('the browser host is shut down'));
    // Playwright is loaded with the first browser (~15 MB of code a server without runs never needs).
    this.launching ??= import('playwright-core')
      .then(({ chromium }) =>
        'cdpUrl' in this.source
          ? chromium.connectOverCDP(this.source.cdpUrl, { timeout: 30_000 })
          : chromium.launch({
              executablePath: this.source.executablePath,
              args: CHROMIUM_FLAGS,
              timeout: 30_000,
              // The server's own shutdown closes the browser after handing runs back; Playwright's signal
              // handlers would close it (or exit on SIGINT) first. Its exit hook still kills Chromium.
              handleSIGINT: false,
              handleSIGTERM: false,
              handleSIGHUP: false,
            }),
      )
      .then(
        (browser) => {
          browser.on('disconnected', () => (this.launching = undefined));
          return browser;
        },
        (error) => {
          this.launching = undefined;
          throw new Error(`${this.describe()}: ${(error as Error).message.split('\n')[0]}`);
        },
      );
    return this.launching;
  }

  /** What failed, without the CDP address's credentials (Browserless and Steel take a token in it). */
  private describe(): string {
    if (!('cdpUrl' in this.source)) return `could not start Chromium at ${this.source.executablePath} (CHROMIUM_PATH)`;
    const url = new URL(this.source.cdpUrl);
    return `could not connect to the browser at ${url.protocol}//${url.host} (BROWSER_CDP_URL)`;
  }

  async newContext(storageState?: StorageState): Promise<BrowserContext> {
    const browser = await this.browser();
    return browser.newContext({
      viewport: VIEWPORT,
      acceptDownloads: true,
      serviceWorkers: 'block',
      storageState,
      // Per context, so a remote browser's other users are not proxied. `<-loopback>` removes
      // Chromium's implicit bypass, so loopback requests meet the policy too.
      proxy: { server: this.proxyUrl, bypass: '<-loopback>', ...this.proxy.credentials },
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    const launching = this.launching;
    this.launching = undefined;
    const browser = await launching?.catch(() => undefined);
    await browser?.close().catch(() => undefined);
  }
}
