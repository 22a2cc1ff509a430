// Debian's Chromium for the tests that use a real browser (the test command installs it when missing),
// with the flags the task workers launch it with.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { CHROMIUM_FLAGS } from '../../src/tasks/browser.js';
import { freePort } from './ports.js';
import { eventually } from './tasks.js';

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_FLAGS });
}

/** One Chromium for a suite (or a describe block): launched before its tests, closed after them;
 *  `artifacts`, when given, is made for the suite's screenshots. */
export function useChromium(artifacts?: string): { readonly browser: Browser } {
  let browser: Browser | undefined;
  beforeAll(async () => {
    if (artifacts) mkdirSync(artifacts, { recursive: true });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });
  return {
    get browser() {
      if (!browser) throw new Error('Chromium is not launched yet (use it inside a test)');
      return browser;
    },
  };
}

export interface CdpChromium {
  /** The address to give BROWSER_CDP_URL. */
  url: string;
  close(): Promise<void>;
}

/** A Chromium of its own, started with --remote-debugging-port, as a remote browser service would run it. */
export async function startCdpChromium(): Promise<CdpChromium> {
  const port = await freePort();
  const profile = await mkdtemp(join(tmpdir(), 'almanac-cdp-'));
  const child = spawn(
    '/usr/bin/chromium',
    [...CHROMIUM_FLAGS, `--remote-debugging-port=${port}`, `--user-data-dir=${profile}`, 'about:blank'],
    {
      detached: true,
      stdio: 'ignore',
    },
  );
  const exited = once(child, 'exit');
  const url = `http://127.0.0.1:${port}`;
  try {
    await eventually(
      async () => {
        if (child.exitCode !== null) throw new Error(`Chromium exited (${child.exitCode}) before opening its DevTools port ${port}`);
        return fetch(`${url}/json/version`).then(
          (response) => response.ok,
          () => false,
        );
      },
      `Chromium's DevTools port ${port}`,
      20_000,
    );
  } catch (error) {
    stopGroup(child);
    throw error;
  }
  return {
    url,
    async close() {
      stopGroup(child);
      await exited;
      await rm(profile, { recursive: true, force: true });
    },
  };
}

/** Chromium's helpers (zygote, renderers) are in its process group: all of them go, by its id. */
function stopGroup(child: ChildProcess) {
  try {
    if (child.pid) process.kill(-child.pid, 'SIGKILL');
  } catch {
    // already gone
  }
}
