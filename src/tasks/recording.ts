// The run's recording: an animated GIF of the screenshots its steps kept, built on request (and
// cached while the run has no new steps). Frames are halved to 640 px wide to keep the file small.
import { timingSafeEqual } from 'node:crypto';
import { createRequire } from 'node:module';
import type GifEnc from 'gifenc';
import { PNG } from 'pngjs';
import type { Prisma } from '../db/client.js';

// gifenc's ESM and CommonJS builds export differently; require() gives the same object everywhere.
const gifenc = createRequire(import.meta.url)('gifenc') as typeof GifEnc;

const MAX_WIDTH = 640;
const FRAME_MS = 1000;
const LAST_FRAME_MS = 3000;
const cache = new Map<string, { key: string; gif: Buffer }>();

export function tokenMatches(expected: string, given: string | undefined): boolean {
  if (!expected || !given) return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The recording's address (public through its token), or null when the run has no screenshot yet. */
export function recordingUrl(siteUrl: string, run: { id: string; taskId: string; shareToken: string }): string {
  return `${siteUrl}/api/v1/task/${encodeURIComponent(run.taskId)}/run/gif.gif?runId=${encodeURIComponent(run.id)}&token=${run.shareToken}`;
}

export function screenshotUrl(siteUrl: string, run: { id: string; taskId: string; shareToken: string }, index: number): string {
  return `${siteUrl}/api/v1/task/${encodeURIComponent(run.taskId)}/run/step/${index}.png?runId=${encodeURIComponent(run.id)}&token=${run.shareToken}`;
}

export function countScreenshots(prisma: Prisma, runId: string): Promise<number> {
  return prisma.taskStep.count({ where: { runId, screenshot: { not: null } } });
}

/** The run `runId` of task `taskId` when `token` is its share token; else null. */
export async function runByToken(prisma: Prisma, taskId: string, runId: string, token: string | undefined) {
  const run = await prisma.taskRun.findFirst({ where: { id: runId, taskId }, select: { id: true, shareToken: true } });
  return run && tokenMatches(run.shareToken, token) ? run : null;
}

export async function stepScreenshot(prisma: Prisma, runId: string, index: number): Promise<Buffer | null> {
  const step = await prisma.taskStep.findFirst({ where: { runId, index }, select: { screenshot: true } });
  return step?.screenshot ? Buffer.from(step.screenshot) : null;
}

/** The animated GIF of the run's screenshots, or null when there are none. */
export async function buildRunGif(prisma: Prisma, runId: string): Promise<Buffer | null> {
  const marks = await prisma.taskStep.findMany({
    where: { runId, screenshot: { not: null } },
    select: { id: true },
    orderBy: { index: 'asc' },
  });
  if (!marks.length) return null;
  const key = marks.map((m) => m.id).join(',');
  const cached = cache.get(runId);
  if (cached?.key === key) return cached.gif;

  const encoder = gifenc.GIFEncoder();
  for (let i = 0; i < marks.length; i++) {
    const step = await prisma.taskStep.findUniqueOrThrow({ where: { id: marks[i].id }, select: { screenshot: true } });
    const frame = downscale(PNG.sync.read(Buffer.from(step.screenshot!)));
    const palette = gifenc.quantize(frame.data, 256);
    encoder.writeFrame(gifenc.applyPalette(frame.data, palette), frame.width, frame.height, {
      palette,
      delay: i === marks.length - 1 ? LAST_FRAME_MS : FRAME_MS,
    });
    // Encoding is CPU work: let requests in between frames.
    await new Promise((resolve) => setImmediate(resolve));
  }
  encoder.finish();
  const gif = Buffer.from(encoder.bytes());
  if (cache.size > 16) cache.delete(cache.keys().next().value!);
  cache.set(runId, { key, gif });
  return gif;
}

/** Halves the image (averaging 2×2 blocks) until it is at most MAX_WIDTH wide. */
function downscale(image: { width: number; height: number; data: Uint8Array }): { width: number; height: number; data: Uint8Array } {
  let { width, height, data } = image;
  while (width > MAX_WIDTH && height > 1) {
    const w = width >> 1;
    const h = height >> 1;
    const out = new Uint8Array(w * h * 4);
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        const o = (y * w + x) * 4;
        const a = (2 * y * width + 2 * x) * 4;
        const b = a + width * 4;
        for (let c = 0; c < 4; c++) out[o + c] = (data[a + c] + data[a + 4 + c] + data[b + c] + data[b + 4 + c]) >> 2;
      }
    }
    width = w;
    height = h;
    data = out;
  }
  return { width, height, data };
}
