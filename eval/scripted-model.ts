// The scripted model: an OpenAI-compatible /chat/completions on 127.0.0.1 (the tests' fake LLM,
// test/support/fake-llm.ts) that plays each eval task by a policy reading the page it is sent, so a
// run of the suite with it shows the harness, the sites and the agent's actions work end to end. It
// reports as usage an estimate of the tokens it was sent (characters / 4).
import { startFakeLlm, type FakeLlm, type Reply, type StepContext } from '../test/support/fake-llm.js';
import { EVAL_TASKS, SHOP_QUERY } from './tasks.js';

type Policy = (context: StepContext, task: string) => Reply;

/** The lines of the element listing: "[3] input type=text name=city "City" value=""". */
const elementLines = (page: string) => page.split('\n').filter((l) => /^\[\d+\]/.test(l));
const idOf = (line: string) => Number(/^\[(\d+)\]/.exec(line)![1]);

const shop: Policy = (c) => {
  if (!/^URL: .*\/shop\/search/m.test(c.page))
    return { call: 'type', args: { element: c.element('name=q'), text: SHOP_QUERY, submit: true } };
  const products = [...c.page.matchAll(/^(.+?) €(\d+\.\d{2})$/gm)].map((m) => ({ name: m[1].trim(), price: Number(m[2]) }));
  if (!products.length) return { call: 'done', args: { output: 'No products found.', success: false } };
  const cheapest = products.reduce((a, b) => (b.price < a.price ? b : a));
  return { call: 'done', args: { output: `${cheapest.name}, €${cheapest.price.toFixed(2)}` } };
};

/** Fills the form on the page from the "Label: value" pairs of the task, then presses its button. */
const form: Policy = (c, task) => {
  if (/Thank you/.test(c.page)) return { call: 'done', args: { output: /reference [\w-]+/.exec(c.page)?.[0] ?? 'Signed up.' } };
  const details = [...task.matchAll(/([A-Z][\w ]*?): ([^;]+?)(?=;|\.\s*$|\.\n)/g)].map((m) => ({ label: m[1].trim(), value: m[2].trim() }));
  for (const line of elementLines(c.page)) {
    const detail = details.find((d) => line.includes(`"${d.label}"`));
    if (!detail) continue;
    if (/^\[\d+\] select/.test(line)) {
      if (!line.includes(`(selected ${JSON.stringify(detail.value)})`))
        return { call: 'select', args: { element: idOf(line), option: detail.value } };
    } else if (!line.includes(`value=${JSON.stringify(detail.value)}`)) {
      return { call: 'type', args: { element: idOf(line), text: detail.value } };
    }
  }
  return { call: 'click', args: { element: c.element(/button "(Next|Submit)"/) } };
};

/** Extracts the table of each page, following "Next page" links; done keeps the rows collected. */
const table: Policy = (c) => {
  if (!c.lastToolResult?.startsWith('extracted ')) return { call: 'extract', args: { selector: 'table' } };
  if (elementLines(c.page).some((l) => l.includes('"Next page"'))) return { call: 'click', args: { element: c.element('"Next page"') } };
  return { call: 'done', args: { output: 'Every branch is in the data rows.' } };
};

const POLICIES: Record<string, Policy> = { 'shop-search': shop, 'multi-page-form': form, 'table-extract': table };
/** Longer than any step budget (create's maxSteps is at most 100 unless TASK_MAX_STEPS is larger). */
const SCRIPT_LENGTH = 500;

export async function startScriptedModel(): Promise<FakeLlm> {
  const model = await startFakeLlm({
    // The task the conversation is about: the eval task whose prompt it carries.
    scenarioOf: (task) => EVAL_TASKS.find((t) => task.startsWith(`Task: ${t.prompt}`))?.name ?? '',
    tokensOf: (body) => Math.ceil(JSON.stringify(body.messages ?? []).length / 4),
  });
  for (const [name, policy] of Object.entries(POLICIES)) {
    const prompt = EVAL_TASKS.find((t) => t.name === name)!.prompt;
    model.define(
      name,
      Array.from({ length: SCRIPT_LENGTH }, () => (c: StepContext) => policy(c, prompt)),
    );
  }
  return model;
}
