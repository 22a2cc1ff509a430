// A sign-up form over three pages: /signup/1 (name, email), /signup/2 (address), /signup/3 (plan,
// then Submit). Each page is validated on the server and kept in a draft under a cookie; only the
// final Submit records a submission, so a checker reads what was really submitted.
import { randomUUID } from 'node:crypto';
import { escapeHtml, html, notFound, page, redirect, type SiteRequest, type SiteResponse } from './html.js';

export const PLANS = ['Basic', 'Standard', 'Pro'];

interface Field {
  name: string;
  label: string;
  type?: string;
  options?: string[];
  /** Why the value is refused, or null. */
  rule(value: string): string | null;
}

const required = (label: string) => (v: string) => (v.trim() ? null : `${label} is required.`);

const PAGES: Field[][] = [
  [
    { name: 'fullName', label: 'Full name', rule: required('Full name') },
    {
      name: 'email',
      label: 'Email',
      type: 'email',
      rule: (v) => (/^\S+@\S+\.\S+$/.test(v.trim()) ? null : 'Enter a valid email address.'),
    },
  ],
  [
    { name: 'street', label: 'Street and number', rule: required('Street and number') },
    { name: 'city', label: 'City', rule: required('City') },
    { name: 'postcode', label: 'Postcode', rule: (v) => (/^[A-Za-z0-9 -]{3,10}$/.test(v.trim()) ? null : 'Enter a valid postcode.') },
  ],
  [{ name: 'plan', label: 'Plan', options: PLANS, rule: (v) => (PLANS.includes(v) ? null : 'Choose a plan.') }],
];

export type Submission = Record<string, string>;

function control(field: Field, value: string): string {
  const id = `f-${field.name}`;
  if (field.options) {
    const options = ['', ...field.options]
      .map((o) => `<option value="${o}"${o === value ? ' selected' : ''}>${o || 'Choose…'}</option>`)
      .join('');
    return `<label for="${id}">${field.label}</label><select id="${id}" name="${field.name}">${options}</select>`;
  }
  return `<label for="${id}">${field.label}</label><input id="${id}" name="${field.name}" type="${field.type ?? 'text'}" value="${escapeHtml(value)}">`;
}

export function createSignup() {
  const drafts = new Map<string, Submission>();
  const submissions: Submission[] = [];

  function form(number: number, draft: Submission, errors: string[] = []): SiteResponse {
    const last = number === PAGES.length;
    const body =
      `<h1>Join the club</h1><p>Step ${number} of ${PAGES.length}</p>` +
      (errors.length ? `<ul class="errors">${errors.map((e) => `<li>${escapeHtml(e)}</li>`).join('')}</ul>` : '') +
      `<form method="post" action="/signup/${number}">${PAGES[number - 1].map((f) => control(f, draft[f.name] ?? '')).join('')}` +
      `<p><button type="submit">${last ? 'Submit' : 'Next'}</button></p></form>`;
    return html(page(`Join the club — step ${number} of ${PAGES.length}`, body), errors.length ? 422 : 200);
  }

  return {
    /** The completed sign-ups, in order. */
    submissions,
    handle(req: SiteRequest): SiteResponse {
      if (req.url.pathname === '/signup/') return redirect('/signup/1');
      if (req.url.pathname === '/signup/done') {
        return html(page('Welcome', `<h1>Thank you!</h1><p>Your sign-up is complete (reference S-${submissions.length}).</p>`));
      }
      const number = Number(/^\/signup\/(\d)$/.exec(req.url.pathname)?.[1]);
      if (!(number >= 1 && number <= PAGES.length)) return notFound();
      const session = req.cookies.signup;
      const draft = (session && drafts.get(session)) || {};
      // A later page without the earlier ones goes back to the first one missing.
      const missing = PAGES.slice(0, number - 1).findIndex((fields) => fields.some((f) => f.rule(draft[f.name] ?? '')));
      if (missing >= 0) return redirect(`/signup/${missing + 1}`);
      if (req.method !== 'POST') return form(number, draft);

      const values = Object.fromEntries(PAGES[number - 1].map((f) => [f.name, (req.form.get(f.name) ?? '').trim()]));
      const errors = PAGES[number - 1].map((f) => f.rule(values[f.name])).filter((e): e is string => e !== null);
      if (errors.length) return form(number, { ...draft, ...values }, errors);
      const id = session && drafts.has(session) ? session : randomUUID();
      drafts.set(id, { ...draft, ...values });
      const cookie = { 'set-cookie': `signup=${id}; Path=/signup; HttpOnly; SameSite=Lax` };
      if (number < PAGES.length) return redirect(`/signup/${number + 1}`, cookie);
      submissions.push(drafts.get(id)!);
      drafts.delete(id);
      return redirect('/signup/done', cookie);
    },
  };
}
