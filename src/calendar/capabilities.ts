/**
 * Roles and capabilities (spec §0.5, §2.7, §6.8, §6.12), following WordPress map_meta_cap for the
 * event/venue/organizer post types. Pure predicates over a viewer; `null` is the anonymous caller.
 */

import type { Role, Viewer as Caller } from '../auth/viewer.js';

/** What the predicates read of the caller (auth/viewer.ts declares the roles and the caller). */
export type Viewer = Pick<Caller, 'userId' | 'role'> | null;

/** The post facts the predicates need. `statusBeforeTrash` is WP's `_wp_trash_meta_status`. */
export interface PostAccess {
  status: string;
  authorId: number;
  statusBeforeTrash?: string;
}

/** Registered post statuses (`status` validation). */
export const POST_STATUSES = ['publish', 'future', 'draft', 'pending', 'private', 'trash', 'auto-draft', 'inherit'] as const;
export type PostStatus = (typeof POST_STATUSES)[number];

export function isPostStatus(x: unknown): x is PostStatus {
  return typeof x === 'string' && (POST_STATUSES as readonly string[]).includes(x);
}

const RANK: Record<Role, number> = { subscriber: 0, contributor: 1, author: 2, editor: 3, administrator: 4 };

function atLeast(viewer: Viewer, role: Role): boolean {
  return viewer !== null && RANK[viewer.role] >= RANK[role];
}

/** `edit_posts` — create, and the general "edit events" capability (contributor+). */
export const canCreatePosts = (viewer: Viewer): boolean => atLeast(viewer, 'contributor');
export const canEditAny = canCreatePosts;
/** `delete_posts` — the general "delete events" capability (contributor+). */
export const canDeleteAny = canCreatePosts;
/** `publish_posts` (author+). */
export const canPublish = (viewer: Viewer): boolean => atLeast(viewer, 'author');
/** `upload_files` (author+): needed for image URLs. */
export const canUploadFiles = (viewer: Viewer): boolean => atLeast(viewer, 'author');
/** `unfiltered_html` (editor+ on a single site): HTML saved as given, not through kses. */
export const canPostUnfilteredHtml = (viewer: Viewer): boolean => atLeast(viewer, 'editor');
/** `read_private_posts` / `edit_others_posts` (editor+). */
export const canReadPrivate = (viewer: Viewer): boolean => atLeast(viewer, 'editor');
const canActOnOthers = canReadPrivate;

/** Category writes: "publish events" (the taxonomy's manage cap) AND "create events". */
export const canManageCategories = (viewer: Viewer): boolean => canPublish(viewer) && canCreatePosts(viewer);
/** Tag writes: `manage_categories` (editor+) AND "create events". */
export const canManageTags = (viewer: Viewer): boolean => atLeast(viewer, 'editor') && canCreatePosts(viewer);

const isOwner = (viewer: Viewer, post: PostAccess): boolean => viewer !== null && post.authorId > 0 && viewer.userId === post.authorId;

/** Whether the post counts as published for ownership checks (a trashed post keeps its old status). */
function isPublished(post: PostAccess): boolean {
  const status = post.status === 'trash' ? (post.statusBeforeTrash ?? '') : post.status;
  return status === 'publish' || status === 'future';
}

/**
 * map_meta_cap edit_post / delete_post. Own post: `*_published_posts` (author+) when published or
 * scheduled, else `*_posts` (contributor+). Others' post: `*_others_posts` (editor+).
 */
function canModify(viewer: Viewer, post: PostAccess): boolean {
  if (viewer === null) return false;
  if (isOwner(viewer, post)) return isPublished(post) ? canPublish(viewer) : canCreatePosts(viewer);
  return canActOnOthers(viewer);
}

export const canEditPost = canModify;
export const canDeletePost = canModify;

/**
 * map_meta_cap read_post: published → everyone; own post of any status → its author; others'
 * private → read_private_posts; others' draft/pending/future/trash → edit_post (editor+).
 */
/**
 * Whether a venue or organizer appears in JSON-LD for this caller (TEC's JSON-LD builder): visitors
 * see published ones only; signed-in users any but another's private one without read_private_posts.
 * A linked record that does not appear is `false` in its event's JSON-LD (location, organizer).
 */
export function appearsInJsonLd(viewer: Viewer, post: { status: string }): boolean {
  if (viewer === null) return post.status === 'publish';
  return post.status !== 'private' || canReadPrivate(viewer);
}

export function canReadPost(viewer: Viewer, post: PostAccess): boolean {
  if (post.status === 'publish') return true;
  if (viewer === null) return false;
  if (isOwner(viewer, post)) return true;
  return canActOnOthers(viewer);
}

/**
 * TEC scale_back_post_status: publishers get what they asked for (default `publish`); others have
 * `publish`/`future` turned into `pending` and default to `draft`.
 */
export function scaleBackStatus(requested: string | undefined | null, viewer: Viewer): string {
  const asked = requested ?? '';
  if (canPublish(viewer)) return asked !== '' ? asked : 'publish';
  if (asked === 'publish' || asked === 'future') return 'pending';
  return asked !== '' ? asked : 'draft';
}

/**
 * The status a post is stored with (wp_insert_post): the scaled-back status, except that a publish
 * dated a minute or more ahead is `future`, and a `future` dated less than a minute ahead is
 * published. `dateUtc` and `nowUtc` are UTC walls ("YYYY-MM-DD HH:MM:SS").
 */
export function storedStatus(requested: string | undefined | null, viewer: Viewer, dateUtc: string, nowUtc: string): string {
  const status = scaleBackStatus(requested, viewer);
  const ahead = (Date.parse(`${dateUtc.replace(' ', 'T')}Z`) - Date.parse(`${nowUtc.replace(' ', 'T')}Z`)) / 1000;
  if (status === 'publish' && ahead >= 60) return 'future';
  if (status === 'future' && !(ahead >= 60)) return 'publish';
  return status;
}

/** Default statuses of list endpoints: WP `any` (all but trash/auto-draft) for "edit events" holders. */
export function listableStatuses(viewer: Viewer): string[] {
  return canEditAny(viewer) ? ['publish', 'future', 'draft', 'pending', 'private'] : ['publish'];
}

/**
 * Statuses a list shows (spec §2.1): absent → the caller's default; present → only `publish` for
 * callers who cannot edit, any registered statuses for those who can. Null when invalid.
 */
export function listStatuses(viewer: Viewer, asked: string[] | null | undefined): string[] | null {
  if (asked == null) return listableStatuses(viewer);
  const clean = asked.map((s) => s.trim()).filter(Boolean);
  const ok = canEditAny(viewer) ? clean.length > 0 && clean.every(isPostStatus) : clean.length === 1 && clean[0] === 'publish';
  return ok ? clean : null;
}
