import { describe, it, expect } from 'vitest';
import {
  POST_STATUSES,
  canCreatePosts,
  canDeleteAny,
  canDeletePost,
  canEditAny,
  canEditPost,
  canManageCategories,
  canManageTags,
  canPublish,
  canReadPost,
  canReadPrivate,
  canUploadFiles,
  isPostStatus,
  listableStatuses,
  scaleBackStatus,
  type Viewer,
} from '../../src/calendar/capabilities.js';
import { ROLES, isRole, type Role } from '../../src/auth/viewer.js';

const as = (role: Role, userId = 10): Viewer => ({ userId, role });
const anon: Viewer = null;
const own = (status: string, extra: object = {}) => ({ status, authorId: 10, ...extra });
const others = (status: string) => ({ status, authorId: 99 });

describe('roles and statuses', () => {
  it('lists the five roles and recognises them', () => {
    expect(ROLES).toEqual(['subscriber', 'contributor', 'author', 'editor', 'administrator']);
    expect(isRole('editor')).toBe(true);
    expect(isRole('Editor')).toBe(false);
    expect(isRole(undefined)).toBe(false);
  });
  it('lists registered post statuses', () => {
    expect([...POST_STATUSES]).toEqual(['publish', 'future', 'draft', 'pending', 'private', 'trash', 'auto-draft', 'inherit']);
    expect(isPostStatus('pending')).toBe(true);
    expect(isPostStatus('foo')).toBe(false);
  });
});

describe('general capabilities (§0.5 table)', () => {
  const table: Array<[Viewer, boolean[]]> = [
    // create, publish, upload, categories, tags, readPrivate
    [anon, [false, false, false, false, false, false]],
    [as('subscriber'), [false, false, false, false, false, false]],
    [as('contributor'), [true, false, false, false, false, false]],
    [as('author'), [true, true, true, true, false, false]],
    [as('editor'), [true, true, true, true, true, true]],
    [as('administrator'), [true, true, true, true, true, true]],
  ];
  it.each(table)('%o', (viewer, expected) => {
    expect([
      canCreatePosts(viewer),
      canPublish(viewer),
      canUploadFiles(viewer),
      canManageCategories(viewer),
      canManageTags(viewer),
      canReadPrivate(viewer),
    ]).toEqual(expected);
    expect(canEditAny(viewer)).toBe(expected[0]);
    expect(canDeleteAny(viewer)).toBe(expected[0]);
  });
});

describe('canReadPost', () => {
  it('lets everybody read published posts', () => {
    expect(canReadPost(anon, others('publish'))).toBe(true);
    expect(canReadPost(as('subscriber'), others('publish'))).toBe(true);
  });
  it('hides non-public posts from anonymous callers and subscribers', () => {
    for (const status of ['draft', 'pending', 'private', 'future', 'trash']) {
      expect(canReadPost(anon, others(status))).toBe(false);
      expect(canReadPost(as('subscriber'), others(status))).toBe(false);
    }
  });
  it('lets contributors and authors read only their own non-public posts', () => {
    for (const role of ['contributor', 'author'] as const) {
      expect(canReadPost(as(role), own('draft'))).toBe(true);
      expect(canReadPost(as(role), own('private'))).toBe(true);
      expect(canReadPost(as(role), others('draft'))).toBe(false);
      expect(canReadPost(as(role), others('private'))).toBe(false);
    }
  });
  it('lets editors and administrators read everything', () => {
    for (const role of ['editor', 'administrator'] as const) {
      for (const status of ['draft', 'pending', 'private', 'future', 'trash']) {
        expect(canReadPost(as(role), others(status))).toBe(true);
      }
    }
  });
  it('never treats author id 0 as owned', () => {
    expect(canReadPost(as('contributor', 0), { status: 'draft', authorId: 0 })).toBe(false);
  });
});

describe('canEditPost / canDeletePost', () => {
  const both = (viewer: Viewer, post: { status: string; authorId: number; statusBeforeTrash?: string }) => {
    const edit = canEditPost(viewer, post);
    expect(canDeletePost(viewer, post)).toBe(edit);
    return edit;
  };
  it('denies anonymous callers and subscribers', () => {
    expect(both(anon, others('draft'))).toBe(false);
    expect(both(as('subscriber'), own('draft'))).toBe(false);
  });
  it('lets contributors touch only their own unpublished posts', () => {
    const c = as('contributor');
    expect(both(c, own('draft'))).toBe(true);
    expect(both(c, own('pending'))).toBe(true);
    expect(both(c, own('auto-draft'))).toBe(true);
    expect(both(c, own('publish'))).toBe(false);
    expect(both(c, own('future'))).toBe(false);
    expect(both(c, others('draft'))).toBe(false);
  });
  it('judges trashed own posts by their status before trashing', () => {
    const c = as('contributor');
    expect(both(c, own('trash', { statusBeforeTrash: 'draft' }))).toBe(true);
    expect(both(c, own('trash', { statusBeforeTrash: 'publish' }))).toBe(false);
  });
  it('lets authors touch their own posts of any status, not others', () => {
    const a = as('author');
    for (const status of ['draft', 'pending', 'publish', 'future', 'private']) expect(both(a, own(status))).toBe(true);
    expect(both(a, others('draft'))).toBe(false);
    expect(both(a, others('publish'))).toBe(false);
  });
  it('lets editors and administrators touch anything', () => {
    for (const role of ['editor', 'administrator'] as const) {
      for (const status of ['draft', 'publish', 'private', 'trash']) expect(both(as(role), others(status))).toBe(true);
    }
  });
});

describe('scaleBackStatus (§6.8 table)', () => {
  const cases: Array<[string | undefined, Role | null, string]> = [
    ['publish', 'administrator', 'publish'],
    ['publish', 'editor', 'publish'],
    ['publish', 'author', 'publish'],
    ['publish', 'contributor', 'pending'],
    ['publish', 'subscriber', 'pending'],
    ['future', 'administrator', 'future'],
    ['future', 'editor', 'future'],
    ['future', 'author', 'future'],
    ['future', 'contributor', 'pending'],
    ['future', 'subscriber', 'pending'],
    ['draft', 'administrator', 'draft'],
    ['draft', 'contributor', 'draft'],
    ['private', 'contributor', 'private'],
    [undefined, 'author', 'publish'],
    [undefined, 'contributor', 'draft'],
    ['', 'editor', 'publish'],
    ['', 'contributor', 'draft'],
    ['publish', null, 'pending'],
  ];
  it.each(cases)('%s as %s → %s', (requested, role, expected) => {
    expect(scaleBackStatus(requested, role ? as(role) : null)).toBe(expected);
  });
});

describe('listableStatuses', () => {
  it('is publish only for anonymous callers and subscribers', () => {
    expect(listableStatuses(anon)).toEqual(['publish']);
    expect(listableStatuses(as('subscriber'))).toEqual(['publish']);
  });
  it('is everything but trash and auto-draft for contributors and up', () => {
    for (const role of ['contributor', 'author', 'editor', 'administrator'] as const) {
      expect(listableStatuses(as(role))).toEqual(['publish', 'future', 'draft', 'pending', 'private']);
    }
  });
});
