export const ROLES = ['subscriber', 'contributor', 'author', 'editor', 'administrator'] as const;
export type Role = (typeof ROLES)[number];

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/** Who is calling; null is an anonymous caller. */
export interface Viewer {
  userId: number;
  login: string;
  role: Role;
  /** The API key the caller used (absent for callers made in-process, e.g. by tests). */
  keyId?: number;
}
