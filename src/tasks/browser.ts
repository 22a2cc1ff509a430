// One Chromium per worker pool (Debian's, never a downloaded one), launched on first use and again
// if it dies; each run gets its own browser context. All traffic goes through the policy proxy.
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

export class BrowserHost {
  private launching: Promise<Browser> | undefined;
  private closed = false;

  constructor(
    private executablePath: string,
    private proxy: PolicyProxy,
  ) {}

  private browser(): Promise<Browser> {
    if (this.closed) return Promise.reject(new Error('the browser host is shut down'));
    // Playwright is loaded with the first browser (~15 MB of code a server without runs never needs).
    this.launching ??= import('playwright-core')
      .then(({ chromium }) =>
        chromium.launch({
          executablePath: this.executablePath,
          args: CHROMIUM_FLAGS,
          // `<-loopback>` removes Chromium's implicit bypass, so loopback requests meet the policy too.
          proxy: { server: this.proxy.url, bypass: '<-loopback>' },
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
          throw new Error(`could not start Chromium at ${this.executablePath} (CHROMIUM_PATH): ${(error as Error).message.split('\n')[0]}`);
        },
      );
    return this.launching;
  }

  async newContext(storageState?: StorageState): Promise<BrowserContext> {
    const browser = await this.browser();
    return browser.newContext({
      viewport: VIEWPORT,
      acceptDownloads: false,
      serviceWorkers: 'block',
      storageState,
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
