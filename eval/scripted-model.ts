// The scripted model: an OpenAI-compatible /chat/completions on 127.0.0.1 (the tests' fake LLM,
// test/support/fake-llm.ts) that plays each eval task by a policy reading the page it is sent, so a
// run of the suite with it shows the harness, the sites and the agent's actions work end to end. It
// reports as usage an estimate of the tokens it was sent (characters / 4).
import { startFakeLlm, type FakeLlm, type Reply, type StepContext } from '../test/support/fake-llm.js';
import { EVAL_TASKS, INVOICE_MONTH, SHOP_QUERY } from './tasks.js';

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
  // A replay that did every step (the extractions too) leaves only the answer to give.
  if (c.conversation.includes('every action was replayed')) return { call: 'done', args: { output: 'Every branch is in the data rows.' } };
  if (!c.lastToolResult?.startsWith('extracted ')) return { call: 'extract', args: { selector: 'table' } };
  if (elementLines(c.page).some((l) => l.includes('"Next page"'))) return { call: 'click', args: { element: c.element('"Next page"') } };
  return { call: 'done', args: { output: 'Every branch is in the data rows.' } };
};

/** User name, then the password (submitted), then the one-time code (submitted); done on the account page. */
const login: Policy = (c) => {
  if (/^URL: .*\/login\/account/m.test(c.page)) return { call: 'done', args: { output: /Welcome, \w+/.exec(c.page)?.[0] ?? 'Signed in.' } };
  if (/"One-time code"/.test(c.page))
    return { call: 'type', args: { element: c.element('"One-time code"'), text: '<totp:otp>', submit: true } };
  const user = elementLines(c.page).find((l) => l.includes('"User name"'));
  if (user && !user.includes('value="ada"')) return { call: 'type', args: { element: idOf(user), text: 'ada' } };
  return { call: 'type', args: { element: c.element('"Password"'), text: '<secret:password>', submit: true } };
};

/** Clicks the link that opens the report in a new tab, then answers with the reference it shows. */
const newTab: Policy = (c) => {
  const reference = /Report reference: (R-\d+)/.exec(c.page)?.[1];
  if (reference) return { call: 'done', args: { output: reference } };
  return { call: 'click', args: { element: c.element('"Open the annual report"') } };
};

/** Clicks the month's invoice link; done once an action's result (or a replay's note of one) says the file was kept. */
const download: Policy = (c) => {
  if (c.conversation.includes('downloaded "')) return { call: 'done', args: { output: 'The invoice was downloaded.' } };
  return { call: 'click', args: { element: c.element(`"Download the ${INVOICE_MONTH} invoice"`) } };
};

const POLICIES: Record<string, Policy> = {
  'shop-search': shop,
  'multi-page-form': form,
  'table-extract': table,
  'login-totp': login,
  'new-tab': newTab,
  download,
};
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
