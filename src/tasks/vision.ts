// Vision: when the model accepts images (LLM_VISION), each observation carries a JPEG of the tab's
// viewport with the element numbers drawn on it, as browser-use and Skyvern do. The numbers are an
// overlay injected into the page and each read frame for the shot, and removed right after; Chromium
// scales the picture down to VISION_MAX_WIDTH, and the quality (then the size) drops until the
// JPEG fits VISION_MAX_BYTES.
import type { Frame, Page } from 'playwright-core';

export const OVERLAY_ID = 'almanac-vision-overlay';
export const VISION_MAX_WIDTH = 1024;
export const VISION_MAX_BYTES = 150_000;
const QUALITIES = [70, 50, 35, 20];
/** Narrower than this, a picture says too little to be worth its tokens. */
const MIN_WIDTH = 256;

/**
 * Whether runs send pictures: LLM_VISION `on` or `off`, or `auto`: when the model's name matches one
 * of the patterns (`*` any characters, case ignored) of models known to take images.
 */
export function visionEnabled(setting: string, model: string, patterns: readonly string[]): boolean {
  if (setting !== 'auto') return setting === 'on';
  const name = model.toLowerCase();
  return patterns.some((pattern) => {
    const regex = pattern
      .toLowerCase()
      .replace(/[.+?^${}()|[\]\\]/g, '\\$&')
      .replace(/\*/g, '.*');
    return new RegExp(`^${regex}$`).test(name);
  });
}

/** Models known to accept image_url parts (LLM_VISION_MODELS replaces the list). */
export const VISION_MODELS = [
  'gpt-4o*',
  'gpt-4.1*',
  'gpt-4-turbo*',
  'gpt-5*',
  'o1',
  'o1-20*',
  'o3*',
  'o4*',
  'claude-3*',
  'claude-*-4*',
  'gemini*',
  'pixtral*',
  '*llava*',
  '*-vl*',
  '*vl:*',
  '*vision*',
];

// Strings, not functions: page.evaluate would ship a transpiled function, helpers and all.
// Draws a box and the number of each numbered element that is in the viewport.
const DRAW_SOURCE = `(id) => {
  const old = document.getElementById(id);
  if (old) old.remove();
  const layer = document.createElement('div');
  layer.id = id;
  layer.setAttribute('aria-hidden', 'true');
  layer.style.cssText = 'position:fixed;left:0;top:0;width:0;height:0;overflow:visible;pointer-events:none;z-index:2147483647;';
  for (const el of document.querySelectorAll('[data-almanac-id]')) {
    const r = el.getBoundingClientRect();
    if (r.width <= 0 || r.height <= 0 || r.bottom < 0 || r.right < 0 || r.top > innerHeight || r.left > innerWidth) continue;
    const number = el.getAttribute('data-almanac-id');
    const box = document.createElement('div');
    box.style.cssText = 'position:fixed;box-sizing:border-box;border:2px solid #d6006e;left:' + r.left + 'px;top:' + r.top + 'px;width:' + r.width + 'px;height:' + r.height + 'px;';
    const label = document.createElement('div');
    label.textContent = number;
    label.style.cssText = 'position:fixed;left:' + Math.max(0, r.left) + 'px;top:' + Math.max(0, r.top - 15) + 'px;background:#d6006e;color:#fff;font:bold 12px/15px monospace;padding:0 3px;';
    layer.append(box, label);
  }
  document.documentElement.append(layer);
}`;
const REMOVE_SOURCE = `(id) => { const layer = document.getElementById(id); if (layer) layer.remove(); }`;

/** The viewport as a JPEG with the element numbers drawn; undefined when no shot could be taken. */
export async function visionShot(page: Page, frames: Frame[]): Promise<Buffer | undefined> {
  const call = (frame: Frame, source: string) => frame.evaluate(`(${source})(${JSON.stringify(OVERLAY_ID)})`);
  await Promise.all(frames.map((frame) => call(frame, DRAW_SOURCE).catch(() => undefined)));
  try {
    return await capture(page);
  } finally {
    await Promise.all(frames.map((frame) => call(frame, REMOVE_SOURCE).catch(() => undefined)));
  }
}

/** The viewport, scaled by Chromium itself (CDP's clip scale), as the best JPEG within VISION_MAX_BYTES. */
async function capture(page: Page): Promise<Buffer | undefined> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { width, height, x, y } = (await page.evaluate('({ width: innerWidth, height: innerHeight, x: scrollX, y: scrollY })')) as Record<
      'width' | 'height' | 'x' | 'y',
      number
    >;
    for (let scale = Math.min(1, VISION_MAX_WIDTH / width); width * scale >= MIN_WIDTH; scale /= 1.5) {
      for (const quality of QUALITIES) {
        const { data } = await cdp.send('Page.captureScreenshot', {
          format: 'jpeg',
          quality,
          clip: { x, y, width, height, scale },
        });
        const jpeg = Buffer.from(data, 'base64');
        if (jpeg.length <= VISION_MAX_BYTES) return jpeg;
      }
    }
    return undefined;
  } catch {
    return undefined;
  } finally {
    await cdp.detach().catch(() => undefined);
  }
}
