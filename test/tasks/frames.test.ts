// The agent acting in iframes with real Chromium: a form in a same-origin frame, one in a
// cross-origin frame nested in another (localhost against 127.0.0.1: an out-of-process frame),
// hidden frames left out, frames the URL policy refuses neither loaded nor acted on, and the limits.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '../support/databases.js';
import { ADMIN_KEY, useTestServer } from '../support/server.js';
import { createTask, ended, runResult, taskText, useTaskFixtures, waitForRun } from '../support/tasks.js';
import { secondOrigin, startTestPages, type TestPages } from '../support/test-pages.js';

/** The element lines of an observation, as [number, line]. */
const elementLines = (page: string) =>
  page
    .split('\n')
    .filter((l) => /^\[\d+\]/.test(l))
    .map((l) => [Number(/^\[(\d+)\]/.exec(l)![1]), l] as const);

const paid = (page: string) => /Payment received from [^\n.]+/.exec(page)?.[0] ?? 'nothing paid';

describe.each(DATABASE_KINDS)('browser agent in frames on %s', (kind) => {
  // Allowed: the test pages (127.0.0.1) and the second site (localhost); `forbidden` is not.
  let other: TestPages;
  let forbidden: TestPages;
  beforeAll(async () => {
    other = await startTestPages();
    forbidden = await startTestPages();
  });
  afterAll(async () => {
    await other?.close();
    await forbidden?.close();
  });
  const fx = useTaskFixtures((f) => ({
    TASK_ALLOW_PRIVATE_NETWORK: 'false',
    TASK_ALLOWED_HOSTS: `127.0.0.1:${f.pages.port},localhost:${other.port}`,
  }));
  const api = useTestServer(kind, fx.env);

  /** Creates the task, waits for its run to end, and expects it completed. */
  const complete = async (task: string) => {
    const taskId = await createTask(api, { task });
    const run = await waitForRun(api, taskId, ended);
    const result = await runResult(api, taskId);
    expect(run.status, JSON.stringify(result)).toBe('completed');
    return { taskId, result };
  };
  const steps = async (taskId: string) =>
    (await api.graphql(`query($id: ID!) { taskRun(taskId: $id) { steps { action result } } }`, { id: taskId }, ADMIN_KEY)).data.taskRun
      .steps as Array<{ action: string; result: string }>;

  it('fills and submits a form in a same-origin iframe', async () => {
    fx.llm.define('same-origin-frame', [
      { call: 'navigate', args: { url: `${fx.pages.url}/framed?src=/pay` } },
      (c) => ({ call: 'type', args: { element: c.element('"Card holder"'), text: 'Ada' } }),
      (c) => ({ call: 'type', args: { element: c.element('"Card number"'), text: '4242 4242' } }),
      (c) => ({ call: 'select', args: { element: c.element('name=country'), option: 'Germany' } }),
      (c) => ({ call: 'click', args: { element: c.element('button "Pay"') } }),
      (c) => ({ call: 'done', args: { output: paid(c.page) } }),
    ]);
    const task = taskText('same-origin-frame', 'Pay with my card');
    const { taskId, result } = await complete(task);
    expect(result.output).toBe('Payment received from Ada');
    expect(fx.pages.posts).toContainEqual({ path: '/paid', form: { holder: 'Ada', card: '4242 4242', country: 'Germany' } });

    // The page's own elements first, then the frame's, in one numbering, under a line naming the frame.
    const page = fx.llm.requestsOf(task)[1].body.messages.at(-1).content as string;
    expect(page).toContain(`Frame 1 (in the page): ${fx.pages.url}/pay — "Pay"`);
    const lines = elementLines(page);
    expect(lines.map(([n]) => n)).toEqual([1, 2, 3, 4, 5]);
    expect(lines[0][1]).toBe('[1] button "Help"');
    expect(page.indexOf('Frame 1 (in the page)')).toBeLessThan(page.indexOf('[2] input name=holder "Card holder"'));
    expect(page).toContain('[4] select name=country "Country" options: "France", "Germany"');
    expect(page).toContain('Frame 1 text: Card holder Card number Country France Germany Pay');
    expect((await steps(taskId)).map((s) => s.result)).toEqual([
      expect.stringMatching(/^opened http:\/\/127\.0\.0\.1:\d+\/framed\?src=\/pay \(HTTP 200\)$/),
      'typed "Ada" into [2] in frame 1',
      'typed "4242 4242" into [3] in frame 1',
      'selected "Germany" in [4] in frame 1 (value "Germany")',
      expect.stringMatching(/^clicked \[5\] in frame 1; now at http:\/\/127\.0\.0\.1:\d+\/framed\?src=\/pay$/),
      'finished',
    ]);
  });

  it('fills and submits a form in a cross-origin iframe nested in a same-origin one; hidden frames are left out', async () => {
    const pay = `${secondOrigin(other)}/pay`;
    const inner = `/framed?src=${encodeURIComponent(pay)}`;
    const start = `${fx.pages.url}/framed?src=${encodeURIComponent(inner)}&hidden=${encodeURIComponent(`${pay}?hidden`)}&tiny=${encodeURIComponent(`${pay}?tiny`)}`;
    fx.llm.define('cross-origin-frame', [
      { call: 'navigate', args: { url: start } },
      (c) => ({ call: 'select', args: { element: c.element('name=country'), option: 'France' } }),
      (c) => ({ call: 'type', args: { element: c.element('"Card holder"'), text: 'Grace' } }),
      (c) => ({ call: 'type', args: { element: c.element('"Card number"'), text: '5555', submit: true } }),
      (c) => ({ call: 'done', args: { output: paid(c.page) } }),
    ]);
    const task = taskText('cross-origin-frame', 'Pay in the embedded form');
    const { taskId, result } = await complete(task);
    expect(result.output).toBe('Payment received from Grace');
    // The typed values reached the other origin's server; nothing was posted to the page's own.
    expect(other.posts).toContainEqual({ path: '/paid', form: { holder: 'Grace', card: '5555', country: 'France' } });
    expect(fx.pages.posts.filter((p) => p.form.holder === 'Grace')).toEqual([]);
    // The hidden and the zero-size frames were loaded by the page, but are not shown.
    expect(other.hits).toEqual(expect.arrayContaining(['/pay?hidden', '/pay?tiny']));

    const page = fx.llm.requestsOf(task)[1].body.messages.at(-1).content as string;
    expect(page).toContain(`Frame 1 (in the page): ${fx.pages.url}${inner} — "Shop"`);
    expect(page).toContain(`Frame 2 (in frame 1): ${pay} — "Pay"`);
    expect(page).not.toContain('Frame 3');
    expect(page).not.toContain('?hidden');
    expect(page).not.toContain('?tiny');
    const lines = elementLines(page);
    // Help (page), Help (frame 1), then the four of the form in frame 2: each number once.
    expect(lines.map(([n]) => n)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(lines.filter(([, l]) => l.includes('"Card holder"'))).toHaveLength(1);
    expect((await steps(taskId)).map((s) => s.result)).toEqual([
      expect.stringMatching(/^opened /),
      'selected "France" in [5] in frame 2 (value "France")',
      'typed "Grace" into [3] in frame 2',
      'typed "5555" into [4] in frame 2 and pressed Enter',
      'finished',
    ]);
  });

  it('neither loads nor acts on frames the URL policy refuses, and says so', async () => {
    const refused = `http://127.0.0.1:${forbidden.port}/pay`;
    const tunnelled = `https://127.0.0.1:${forbidden.port}/pay`;
    const start = `${fx.pages.url}/framed?src=${encodeURIComponent(refused)}&src=${encodeURIComponent(tunnelled)}&src=${encodeURIComponent(`/pay?terms=${encodeURIComponent(`${refused}?terms`)}`)}`;
    fx.llm.define('refused-frame', [
      { call: 'navigate', args: { url: start } },
      (c) => ({ call: 'click', args: { element: c.element('link "Terms"') } }),
      (c) => ({ call: 'done', args: { output: c.page } }),
    ]);
    const task = taskText('refused-frame', 'Read the terms');
    const { taskId, result } = await complete(task);
    expect(forbidden.hits).toEqual([]);

    const denial = '127.0.0.1 is a loopback address; Almanac may not reach private-network addresses';
    const page = fx.llm.requestsOf(task)[1].body.messages.at(-1).content as string;
    expect(page).toContain(`Frame 1 (in the page): ${refused} — not shown: blocked by policy: ${denial}`);
    expect(page).toContain(`Frame 2 (in the page): ${tunnelled} — not shown: blocked by policy: ${denial}`);
    expect(page).toContain(`Frame 3 (in the page): ${fx.pages.url}/pay?terms=`);
    // Only the allowed frame's form is listed; the refusal page shows nothing to act on.
    expect(elementLines(page).filter(([, l]) => l.includes('"Card holder"'))).toHaveLength(1);
    expect(page).not.toContain('Blocked by Almanac');
    // The page loaded although frames in it were refused. The link that takes its frame to a refused
    // address is reported as refused (when the refusal arrives while the click settles, as it does
    // unless the machine is very slow), and the frame then shows the refusal, not the page.
    const results = (await steps(taskId)).map((s) => s.result);
    expect(results[0]).toMatch(/^opened http:\/\/127\.0\.0\.1:\d+\/framed\?.* \(HTTP 200\)$/);
    expect(results[1]).toMatch(new RegExp(`^(blocked by policy: ${denial.replace(/[.;]/g, '\\$&')}|clicked \\[\\d+\\] in frame 3;)`));
    expect(result.output).toContain(`Frame 3 (in the page): ${refused}?terms — not shown: blocked by policy: ${denial}`);
  });

  it('reads frames at most 5 levels deep', async () => {
    let url = '/pay';
    for (let i = 0; i < 6; i++) url = `/framed?src=${encodeURIComponent(url)}`;
    fx.llm.define('deep-frames', [
      { call: 'navigate', args: { url: fx.pages.url + url } },
      { call: 'done', args: { output: 'seen' } },
    ]);
    const task = taskText('deep-frames', 'Look deep');
    await complete(task);
    const page = fx.llm.requestsOf(task)[1].body.messages.at(-1).content as string;
    // The page holds 6 nested shops, the payment form in the last: frames 1-5 are read, not deeper.
    for (let n = 2; n <= 5; n++) expect(page).toContain(`Frame ${n} (in frame ${n - 1}): `);
    expect(page).not.toContain('Frame 6');
    expect(page).toContain('(1 more frame not read: at most 20 frames, 5 levels deep, are read, within 10 s)');
    expect(page).not.toContain('Card holder');
    expect(elementLines(page).map(([, l]) => l)).toEqual(Array.from({ length: 6 }, (_, i) => `[${i + 1}] button "Help"`));
  });

  it('bounds what frames add: at most 20 frames, 150 elements numbered once each, bounded titles and text', async () => {
    fx.llm.define('many-frames', [
      { call: 'navigate', args: { url: `${fx.pages.url}/many-frames?n=24&junk=20000` } },
      { call: 'done', args: { output: 'seen' } },
    ]);
    const task = taskText('many-frames', 'Look at the frames');
    await complete(task);
    const page = fx.llm.requestsOf(task)[1].body.messages.at(-1).content as string;
    expect(page).toContain('Frame 20 (in the page): about:srcdoc');
    expect(page).not.toContain('Frame 21');
    expect(page).toContain('(4 more frames not read: at most 20 frames, 5 levels deep, are read, within 10 s)');
    // 24 frames of 8 buttons: the numbering stops at the element limit, each number used once.
    expect(elementLines(page).map(([n]) => n)).toEqual(Array.from({ length: 150 }, (_, i) => i + 1));
    // Each frame has a 100,000-character title and text: the listing stays small all the same.
    expect(page.length).toBeLessThan(12_000);
    expect(Math.max(...page.split('\n').map((l) => l.length))).toBeLessThan(600);
  });
});
