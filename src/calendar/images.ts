// Featured images (spec §6.10): an attachment id of an image, or an image URL that answers a HEAD
// request with 200 and an image type. A URL already in the media library reuses its attachment.
import type { Viewer } from '../auth/viewer.js';
import { guardedHead } from '../net/guarded-request.js';
import type { UrlPolicy } from '../net/url-policy.js';
import { canUploadFiles } from './capabilities.js';
import { allocatePostId, isDbId, type Db } from './posts.js';

const IMAGE_TYPES = /^image\/(jpeg|png|gif|webp|bmp|tiff|x-icon|vnd\.microsoft\.icon|avif|heic)$/i;

/** What an `image` argument resolves to once validated. */
export type ImagePlan = { kind: 'none' } | { kind: 'attachment'; id: number } | { kind: 'url'; url: string; mimeType: string };

function isBlank(raw: unknown): boolean {
  return raw === undefined || raw === null || raw === '' || raw === false || raw === 0 || raw === '0';
}

/** Validates `raw`; returns the plan, or null when invalid (→ "Invalid parameter."). */
export async function planImage(db: Db, raw: unknown, viewer: Viewer | null, policy: UrlPolicy): Promise<ImagePlan | null> {
  if (isBlank(raw)) return { kind: 'none' };
  if (typeof raw === 'number' || (typeof raw === 'string' && /^\d+$/.test(raw.trim()))) {
    const id = Number(raw);
    const attachment = isDbId(id) ? await db.attachment.findUnique({ where: { id } }) : null;
    return attachment && IMAGE_TYPES.test(attachment.mimeType) ? { kind: 'attachment', id } : null;
  }
  if (typeof raw !== 'string' || !/^https?:\/\/\S+$/i.test(raw.trim())) return null;
  if (!canUploadFiles(viewer)) return null;
  const url = raw.trim();
  const known = await db.attachment.findFirst({ where: { url }, select: { id: true, mimeType: true } });
  if (known) return IMAGE_TYPES.test(known.mimeType) ? { kind: 'attachment', id: known.id } : null;
  const mimeType = await headImageType(url, policy);
  return mimeType ? { kind: 'url', url, mimeType } : null;
}

/** The image type a URL answers HEAD with, through the outbound policy (a denied or failing URL: null). */
async function headImageType(url: string, policy: UrlPolicy): Promise<string | null> {
  try {
    const response = await guardedHead(policy, url);
    const type = String(response.headers['content-type'] ?? '')
      .split(';')[0]
      .trim();
    return response.status === 200 && IMAGE_TYPES.test(type) ? type : null;
  } catch {
    return null;
  }
}

/** The attachment id to store (creating the attachment for a new URL), or null for no image. */
export async function applyImagePlan(tx: Db, plan: ImagePlan): Promise<number | null> {
  if (plan.kind === 'none') return null;
  if (plan.kind === 'attachment') return plan.id;
  const id = await allocatePostId(tx, 'attachment');
  await tx.attachment.create({ data: { id, url: plan.url, mimeType: plan.mimeType } });
  return id;
}
