// npm run eval -- [--scripted] [--replay] [--require-success] [--task NAME]…
// Runs the eval suite (eval/tasks.ts) against the model LLM_BASE_URL / LLM_MODEL / LLM_API_KEY name,
// or the scripted model (--scripted, or when LLM_BASE_URL is unset), and prints a table. Exit code 2
// when the harness itself breaks; 1 with --require-success when a task failed; 0 otherwise. With
// --replay, each task that succeeded is replayed (replayOf) and judged again: a row of its own.
import { parseArgs } from 'node:util';
import { exitCode, formatReport, runEval } from './harness.js';
import { EVAL_TASKS } from './tasks.js';

const usage = 'usage: npm run eval -- [--scripted] [--replay] [--require-success] [--task NAME]…';

async function main(): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        scripted: { type: 'boolean', default: false },
        replay: { type: 'boolean', default: false },
        'require-success': { type: 'boolean', default: false },
        task: { type: 'string', multiple: true },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    console.error(`${(error as Error).message}\n${usage}`);
    return 2;
  }
  if (values.help) {
    console.log(`${usage}\ntasks: ${EVAL_TASKS.map((t) => t.name).join(', ')}`);
    return 0;
  }
  const unknown = (values.task ?? []).filter((name) => !EVAL_TASKS.some((t) => t.name === name));
  if (unknown.length) {
    console.error(`unknown task ${unknown.join(', ')}; tasks: ${EVAL_TASKS.map((t) => t.name).join(', ')}`);
    return 2;
  }
  const tasks = values.task ? EVAL_TASKS.filter((t) => values.task!.includes(t.name)) : EVAL_TASKS;
  const report = await runEval({ tasks, scripted: values.scripted, replay: values.replay, log: (line) => console.error(line) });
  console.log(formatReport(report));
  return exitCode(report, values['require-success']);
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(`eval harness failed: ${error instanceof Error ? error.stack : error}`);
    process.exit(2);
  },
);
