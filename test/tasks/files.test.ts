// Files with real Chromium. Downloads: what the site sends as a file (a download link, a URL that
// answers with one) is kept with the run within TASK_MAX_DOWNLOADS and TASK_MAX_DOWNLOAD_BYTES, listed
// in the result and served to the task's owner only, as an attachment. Uploads: `files` given at
// create (base64, or a URL fetched through the URL policy) go into a file input, a hidden one or the
// chooser a button opens; bad or oversized files are refused at create and leave no task behind.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '../support/databases.js';
import { ADMIN_KEY, useTestServer } from '../support/server.js';
import { finishTask, taskText, useTaskFixtures } from '../support/tasks.js';
import { REPORT_CSV } from '../support/test-pages.js';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const base64 = (text: string) => Buffer.from(text).toString('base64');

describe.each(DATABASE_KINDS)('task files on %s', (kind) => {
  const fx = useTaskFixtures((f) => ({
    TASK_ALLOW_PRIVATE_NETWORK: 'false',
    TASK_ALLOWED_HOSTS: `127.0.0.1:${f.pages.port}`,
    TASK_MAX_DOWNLOADS: '2',
    TASK_MAX_DOWNLOAD_BYTES: '100000',
    TASK_MAX_UPLOAD_BYTES: '2000',
  }));
  const api = useTestServer(kind, fx.env);

  /** The path of a URL of Almanac's (SITE_URL is not where the test server listens). */
  const pathOf = (url: string) => new URL(url).pathname;

  it('keeps what the site sends as files, within the limits, and serves them to the owner only', async () => {
    fx.llm.define('downloads', [
      { call: 'navigate', args: { url: `${fx.pages.url}/files` } },
      (c) => ({ call: 'click', args: { element: c.element('"Download the report"') } }),
      { call: 'navigate', args: { url: `${fx.pages.url}/files/big.bin` } },
      (c) => ({ call: 'click', args: { element: c.element('"Download the page"') } }),
      (c) => ({ call: 'click', args: { element: c.element('"Download the report"') } }),
      { call: 'done', args: { output: 'downloaded' } },
    ]);
    const { taskId, run, result, results } = await finishTask(api, taskText('downloads', 'Download the files'));
    expect(run.status, JSON.stringify(result)).toBe('completed');
    expect(results[1]).toMatch(/^clicked \[1\]; now at .*\/files; downloaded "report\.csv" \(24 bytes; kept with the run's result\)$/);
    expect(results[2]).toBe(
      `${fx.pages.url}/files/big.bin started a download; the tab stays at ${fx.pages.url}/files; the download of "big.bin" was not kept: it is larger than 100000 bytes (TASK_MAX_DOWNLOAD_BYTES)`,
    );
    expect(results[3]).toContain('downloaded "page.html" (39 bytes');
    expect(results[4]).toContain(
      'the download of "report.csv" was not kept: the run already kept as many downloads as it may (TASK_MAX_DOWNLOADS)',
    );

    expect(result.downloads.map((d: any) => [d.name, d.size, d.sha256])).toEqual([
      ['report.csv', REPORT_CSV.length, sha256(REPORT_CSV)],
      ['page.html', 39, sha256('<script>document.title = "ran"</script>')],
    ]);
    const [report, html] = result.downloads;
    expect(report.url).toBe(`http://almanac.test/api/v1/task/${taskId}/run/downloads/${report.id}`);

    const got = await api.request('GET', pathOf(report.url), { key: ADMIN_KEY });
    expect(got.status).toBe(200);
    expect(got.text).toBe(REPORT_CSV);
    expect(got.headers.get('content-disposition')).toBe(`attachment; filename="report.csv"; filename*=UTF-8''report.csv`);
    // A page the site sent is served as bytes to save, never as a page of Almanac's origin.
    const page = await api.request('GET', pathOf(html.url), { key: ADMIN_KEY });
    expect(page.headers.get('content-type')).toBe('application/octet-stream');
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(page.headers.get('content-security-policy')).toContain('sandbox');

    // Another user's key does not find the task; no key is asked for one; an unknown id is a 404.
    const other = await api.request('GET', pathOf(report.url), { key: api.keys.editor });
    expect([other.status, other.json.error]).toEqual([404, `No task with id "${taskId}".`]);
    expect((await api.request('GET', pathOf(report.url))).status).toBe(401);
    const unknown = await api.request('GET', `/api/v1/task/${taskId}/run/downloads/nope`, { key: ADMIN_KEY });
    expect([unknown.status, unknown.json.error]).toEqual([404, `No download "nope" in task "${taskId}".`]);

    // GraphQL lists them the same way.
    const listed = await api.graphql(
      `query($id: ID!) { taskRun(taskId: $id) { downloads { name size sourceUrl } } }`,
      { id: taskId },
      ADMIN_KEY,
    );
    expect(listed.data.taskRun.downloads).toEqual([
      { name: 'report.csv', size: REPORT_CSV.length, sourceUrl: `${fx.pages.url}/files/report.csv` },
      { name: 'page.html', size: 39, sourceUrl: `${fx.pages.url}/files/page.html` },
    ]);
  });

  it('uploads the files given at create into a hidden file input and through a file chooser', async () => {
    fx.llm.define('uploads', [
      { call: 'navigate', args: { url: `${fx.pages.url}/upload` } },
      (c) => ({ call: 'upload_file', args: { file: 'cv.txt', element: c.element('input type=file') } }),
      (c) => ({ call: 'upload_file', args: { file: 'notes.txt', element: c.element('"Attach a photo"') } }),
      { call: 'upload_file', args: { file: 'missing.txt' } },
      (c) => ({ call: 'done', args: { output: c.page } }),
    ]);
    const task = taskText('uploads', 'Upload my CV');
    const files = [
      { name: 'cv.txt', content: base64('my curriculum vitae') },
      { name: 'notes.txt', url: `${fx.pages.url}/files/notes.txt` },
    ];
    const { taskId, run, result, results } = await finishTask(api, task, { files });
    expect(run.status, JSON.stringify(result)).toBe('completed');
    expect(results.slice(1, 4)).toEqual([
      'set "cv.txt" (19 bytes) into [1]',
      'set "notes.txt" (18 bytes) into [2]',
      'there is no file "missing.txt": the task\'s files are "cv.txt", "notes.txt"',
    ]);
    expect(result.output).toContain('CV: cv.txt, 19 bytes, text/plain: my curriculum vitae');
    expect(result.output).toContain('Photo: notes.txt, 18 bytes, text/plain: notes from the web');

    // The model is offered upload_file and told the files; the hidden input is listed.
    const [first, second] = fx.llm.requestsOf(task).map((r) => r.body);
    expect(first.tools.map((t: any) => t.function.name)).toContain('upload_file');
    expect(first.messages[0].content).toContain('"cv.txt" (text/plain, 19 bytes), "notes.txt" (text/plain, 18 bytes)');
    expect(second.messages.at(-1).content).toMatch(/\[1\] input type=file "Choose your CV"/);

    const listed = await api.graphql(`query($id: ID!) { task(id: $id) { files { name mimeType size } } }`, { id: taskId }, ADMIN_KEY);
    expect(listed.data.task.files).toEqual([
      { name: 'cv.txt', mimeType: 'text/plain', size: 19 },
      { name: 'notes.txt', mimeType: 'text/plain', size: 18 },
    ]);
  });

  it('offers no upload_file to a task without files', async () => {
    fx.llm.define('no-files', [{ call: 'done', args: { output: 'nothing' } }]);
    const task = taskText('no-files');
    const { run } = await finishTask(api, task);
    expect(run.status).toBe('completed');
    expect(fx.llm.requestsOf(task)[0].body.tools.map((t: any) => t.function.name)).not.toContain('upload_file');
  });

  it.each([
    ['not an array', { files: 'cv.txt' }, 'files must be an array'],
    ['neither url nor content', { files: [{ name: 'a.txt' }] }, 'files[0] must have exactly one of url and content'],
    [
      'a path as name',
      { files: [{ name: 'a/b.txt', content: 'aGk=' }] },
      'files[0].name must be 1 to 255 characters, without / or \\ or control characters',
    ],
    ['bad base64', { files: [{ name: 'a.txt', content: 'not base64!' }] }, 'files[0].content must be base64 text'],
    [
      'a repeated name',
      {
        files: [
          { name: 'a.txt', content: 'aGk=' },
          { name: 'a.txt', content: 'aGk=' },
        ],
      },
      'files[1].name repeats "a.txt": names must be unique',
    ],
    [
      'too large',
      { files: [{ name: 'a.txt', content: base64('x'.repeat(2001)) }] },
      'files[0] makes the files larger than 2000 bytes together (TASK_MAX_UPLOAD_BYTES)',
    ],
    [
      'a URL answering more than the limit',
      {
        files: [
          { name: 'a.txt', content: base64('x'.repeat(1000)) },
          { name: 'big.bin', url: 'PAGES/files/big.bin' },
        ],
      },
      'files[1] makes the files larger than 2000 bytes together (TASK_MAX_UPLOAD_BYTES)',
    ],
    [
      'a URL the policy refuses',
      { files: [{ name: 'a.txt', url: 'http://127.0.0.1:9/x' }] },
      /^files\[0\]\.url could not be fetched: .*private/,
    ],
    ['a URL that answers 404', { files: [{ name: 'a.txt', url: 'PAGES/nothing-here' }] }, 'files[0].url could not be fetched: HTTP 404'],
  ])('refuses %s at create and keeps nothing', async (_what, extra, message) => {
    const body = JSON.parse(JSON.stringify({ task: 'Upload', ...extra }).replace('PAGES', fx.pages.url));
    const before = (await api.request('GET', '/api/v1/tasks', { key: ADMIN_KEY })).json.total;
    const response = await api.request('POST', '/api/v1/task/create', { body, key: ADMIN_KEY });
    expect(response.status, response.text).toBe(400);
    expect(response.json.error).toMatch(message);
    expect((await api.request('GET', '/api/v1/tasks', { key: ADMIN_KEY })).json.total).toBe(before);
  });

  it('refuses a body larger than the files may make it', async () => {
    const body = { task: 'Upload', files: [{ name: 'a.txt', content: 'A'.repeat(2 * 1024 * 1024) }] };
    const response = await api.request('POST', '/api/v1/task/create', { body, key: ADMIN_KEY });
    expect(response.status).toBe(413);
  });
});
