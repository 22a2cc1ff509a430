// The eval harness (npm run eval) with its scripted model: every task of the suite succeeds as the
// sites' own state and data judge it, and a task whose checker expects a wrong answer is reported
// as failed (and fails --require-success).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exitCode, formatReport, runEval, type EvalReport } from '../../eval/harness.js';
import { EVAL_TASKS, type EvalTask } from '../../eval/tasks.js';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from '../support/databases.js';

const shop = EVAL_TASKS.find((t) => t.name === 'shop-search')!;
/** The shop task judged by a checker that wants the second-cheapest price: the scripted model's right answer fails it. */
const wrongExpectation: EvalTask = {
  ...shop,
  name: 'shop-search-wrong-expectation',
  check: (run) =>
    String(run.output).includes('41.90') ? { ok: true, detail: 'price 41.90' } : { ok: false, detail: 'expected the price 41.90' },
};

describe.each(DATABASE_KINDS)('eval harness on %s', (kind) => {
  let database: TestDatabase;
  let report: EvalReport;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    // An environment naming a real model: --scripted (scripted: true) must win over it.
    const env = { LLM_BASE_URL: 'http://127.0.0.1:9/v1', LLM_MODEL: 'not-used', CHROMIUM_PATH: '/usr/bin/chromium' };
    report = await runEval({ tasks: [...EVAL_TASKS, wrongExpectation], scripted: true, replay: true, env, databaseUrl: database.url });
  }, 600_000);
  afterAll(async () => {
    await database?.drop();
  });

  it('solves every task of the suite with the scripted model, and skips those that need pictures', () => {
    expect(report.model).toMatch(/^scripted/);
    expect(report.results.find((r) => r.task === 'chart-read')).toMatchObject({
      success: false,
      skipped: 'skipped: scripted is not sent pictures (LLM_VISION)',
    });
    for (const task of EVAL_TASKS.filter((t) => !t.needsVision)) {
      const result = report.results.find((r) => r.task === task.name)!;
      expect(result.success, `${task.name}: ${result.detail}`).toBe(true);
      expect(result.steps).toBeGreaterThan(0);
      expect(result.tokens).toBeGreaterThan(0);
      expect(result.cost).toBeNull();
    }
    // The form takes a step per field and button over three pages.
    expect(report.results.find((r) => r.task === 'multi-page-form')!.steps).toBeGreaterThanOrEqual(10);
  });

  it('replays each task that succeeded, judged the same way; a form replays with no LLM call', () => {
    for (const task of EVAL_TASKS.filter((t) => !t.needsVision)) {
      const replay = report.results.find((r) => r.task === `${task.name} (replay)`)!;
      expect(replay.success, `${replay.task}: ${replay.detail}`).toBe(true);
      expect(replay.replayedSteps).toBeGreaterThan(0);
    }
    const form = report.results.find((r) => r.task === 'multi-page-form (replay)')!;
    expect(form).toMatchObject({ tokens: 0, replayedSteps: form.steps });
    expect(formatReport(report)).toMatch(
      /^multi-page-form \(replay\) +yes +\d+ +0 +n\/a +[\d.]+ s +(\d+) of \1 steps replayed; the site recorded the sign-up$/m,
    );
    // A task that failed is not replayed.
    expect(report.results.some((r) => r.task === `${wrongExpectation.name} (replay)`)).toBe(false);
  });

  it('reports a task whose checker is not satisfied as failed', () => {
    const failed = report.results.find((r) => r.task === wrongExpectation.name)!;
    expect(failed).toMatchObject({ success: false, detail: 'expected the price 41.90' });
    expect(exitCode(report, true)).toBe(1);
    expect(exitCode(report, false)).toBe(0);
    expect(exitCode({ ...report, results: report.results.filter((r) => r !== failed) }, true)).toBe(0);
  });

  it('prints the table and the success rate', () => {
    const printed = formatReport(report);
    expect(printed).toMatch(/^task +success +steps +tokens +cost +time +detail$/m);
    expect(printed).toMatch(/^shop-search-wrong-expectation +NO +\d+ +\d+ +n\/a +[\d.]+ s +expected the price 41\.90$/m);
    expect(printed).toMatch(/^multi-page-form +yes +\d+ +\d+ +n\/a +[\d.]+ s +the site recorded the sign-up$/m);
    expect(printed).toMatch(/^chart-read +skip +0 +n\/a +n\/a +0\.0 s +skipped: scripted is not sent pictures \(LLM_VISION\)$/m);
    const replays = EVAL_TASKS.length - 1;
    expect(printed).toContain(`${EVAL_TASKS.length - 1 + replays}/${EVAL_TASKS.length + replays} tasks succeeded (1 skipped)`);
    expect(printed).toMatch(/TASK_ALLOWED_HOSTS=127\.0\.0\.1:\d+ \(the harness's own sites only/);
  });
});

describe('the chart-read checker', () => {
  const chart = EVAL_TASKS.find((t) => t.name === 'chart-read')!;
  const judge = (output: string) =>
    chart.check({ status: 'completed', error: null, output, dataTable: [], downloads: [] }, undefined as never);
  it('wants the month of the tallest bar, and only it', () => {
    expect(judge('April')).toEqual({ ok: true, detail: 'April' });
    expect(judge('Apr, maybe')).toEqual({ ok: true, detail: 'April' });
    expect(judge('March')).toEqual({ ok: false, detail: 'the answer does not name April' });
    expect(judge('April or May')).toEqual({ ok: false, detail: 'the answer names 2 months' });
  });
});

describe('the download checker', () => {
  const task = EVAL_TASKS.find((t) => t.name === 'download')!;
  const sites = (downloaded: string[]) => ({ invoices: { downloaded, sha256Of: (month: string) => `sha-${month}` } }) as never;
  const judge = (downloaded: string[], kept: string[]) =>
    task.check(
      { status: 'completed', error: null, output: '', dataTable: [], downloads: kept.map((sha256) => ({ name: 'f.csv', sha256 })) },
      sites(downloaded),
    );
  it("wants the site to have sent the month's invoice only, and the run to have kept that file", () => {
    expect(judge(['october'], ['sha-October'])).toEqual({ ok: true, detail: 'f.csv kept with the run' });
    expect(judge(['october', 'september'], ['sha-October'])).toMatchObject({ ok: false });
    expect(judge([], [])).toEqual({ ok: false, detail: 'the site sent nothing (expected october only)' });
    expect(judge(['october'], [])).toEqual({ ok: false, detail: '0 files kept, 0 of them the October invoice' });
  });
});
