// A login in two steps: /login/ asks for the user name and password, /login/code for the current
// one-time code of the account's TOTP key (RFC 6238, as an authenticator app shows it). Only a
// correct code records a login, so a checker reads that the agent got through both steps.
import { randomUUID } from 'node:crypto';
import { decodeBase32, totpCode } from '../../src/tasks/secrets.js';
import { escapeHtml, html, notFound, page, redirect, type SiteRequest, type SiteResponse } from './html.js';

export const LOGIN_USER = 'ada';
export const LOGIN_PASSWORD = 'correct horse battery staple';
/** The account's TOTP key, as shown beside its QR code. */
export const LOGIN_TOTP_KEY = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';

/** The code now or one 30 s step either side (the usual allowance for clock skew and typing time). */
function codeMatches(code: string, now: number): boolean {
  const key = decodeBase32(LOGIN_TOTP_KEY)!;
  return [-30_000, 0, 30_000].some((skew) => totpCode(key, now + skew) === code.trim());
}

const form = (action: string, fields: string, errors: string[]) =>
  (errors.length ? `<ul class="errors">${errors.map((e) => `<li>${escapeHtml(e)}</li>`).join('')}</ul>` : '') +
  `<form method="post" action="${action}">${fields}<p><button type="submit">Sign in</button></p></form>`;

const passwordPage = (errors: string[] = []) =>
  html(
    page(
      'Sign in',
      '<h1>Sign in</h1>' +
        form(
          '/login/',
          '<label for="user">User name</label><input id="user" name="user">' +
            '<label for="password">Password</label><input id="password" name="password" type="password">',
          errors,
        ),
    ),
    errors.length ? 401 : 200,
  );

const codePage = (errors: string[] = []) =>
  html(
    page(
      'Two-step verification',
      '<h1>Two-step verification</h1><p>Enter the 6-digit code from your authenticator app.</p>' +
        form('/login/code', '<label for="code">One-time code</label><input id="code" name="code" inputmode="numeric">', errors),
    ),
    errors.length ? 401 : 200,
  );

export function createLogin(now: () => number = Date.now) {
  /** Sessions past the password, waiting for their code. */
  const pending = new Set<string>();
  const signedIn = new Set<string>();
  const logins: string[] = [];
  return {
    /** The users who got through both steps, in order. */
    logins,
    handle(req: SiteRequest): SiteResponse {
      const session = req.cookies.login;
      if (req.url.pathname === '/login/') {
        if (req.method !== 'POST') return passwordPage();
        if (req.form.get('user') !== LOGIN_USER || req.form.get('password') !== LOGIN_PASSWORD)
          return passwordPage(['Wrong user name or password.']);
        const id = randomUUID();
        pending.add(id);
        return redirect('/login/code', { 'set-cookie': `login=${id}; Path=/login; HttpOnly; SameSite=Lax` });
      }
      if (req.url.pathname === '/login/code') {
        if (!session || !pending.has(session)) return redirect('/login/');
        if (req.method !== 'POST') return codePage();
        if (!codeMatches(req.form.get('code') ?? '', now())) return codePage(['That code is not valid.']);
        pending.delete(session);
        signedIn.add(session);
        logins.push(LOGIN_USER);
        return redirect('/login/account');
      }
      if (req.url.pathname === '/login/account') {
        if (!session || !signedIn.has(session)) return redirect('/login/');
        return html(page('Your account', `<h1>Welcome, ${LOGIN_USER}</h1><p>You are signed in.</p>`));
      }
      return notFound();
    },
  };
}
