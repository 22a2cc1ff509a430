// Which post statuses a caller sees in lists (spec §6.12): anonymous callers and subscribers see
// published posts only; contributors and up see every status but trash and auto-draft.
import type { Viewer } from '../auth/viewer.js';

export const NON_TRASH_STATUSES = ['publish', 'future', 'draft', 'pending', 'private'];

export function defaultListStatuses(viewer: Viewer | null): string[] {
  return viewer && viewer.role !== 'subscriber' ? NON_TRASH_STATUSES : ['publish'];
}
