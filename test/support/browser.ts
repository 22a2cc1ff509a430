// Debian's Chromium for the tests that use a real browser (the test command installs it when missing),
// with the flags the task workers launch it with.
import { chromium, type Browser } from 'playwright-core';
import { CHROMIUM_FLAGS } from '../../src/tasks/browser.js';

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_FLAGS });
}
