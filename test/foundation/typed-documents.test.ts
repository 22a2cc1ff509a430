// The REST layer's GraphQL documents are typed from schema.graphql (gql.tada, src/graphql/documents.ts)
// and checked against it by `npm run typecheck` (tsc, then `gql-tada check`): a field renamed in the
// schema must fail the type check where a route reads it, not a test at run time. This renames one
// field the task API reads (Task.readableName) in a scratch copy of the schema, writes gql.tada's
// introspection from it and checks the task routes against it; the same check against the real
// schema passes, so the failure is the rename's.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = resolve('.');
mkdirSync(join(root, 'test-artifacts'), { recursive: true });
const scratch = mkdtempSync(join(root, 'test-artifacts', 'typed-documents-'));
const scratchFiles: string[] = [];
afterAll(() => {
  for (const file of [scratch, ...scratchFiles]) rmSync(file, { recursive: true, force: true });
});

/** Checks the task routes' documents against `schemaText` as `npm run typecheck` does (gql.tada's
 *  introspection from it, then `gql-tada check`): the exit code and the report. */
async function checkTaskRoutes(name: string, schemaText: string): Promise<{ code: number; output: string }> {
  const dir = relative(root, join(scratch, name));
  mkdirSync(dir);
  writeFileSync(join(dir, 'schema.graphql'), schemaText);
  // gql-tada checks the files under its tsconfig's folder: this one sits at the root, beside the real one.
  const tsconfig = `tsconfig.${basename(scratch)}-${name}.json`;
  scratchFiles.push(tsconfig);
  writeFileSync(
    tsconfig,
    JSON.stringify({
      extends: './tsconfig.json',
      compilerOptions: {
        plugins: [{ name: 'gql.tada/ts-plugin', schema: `./${dir}/schema.graphql`, tadaOutputLocation: `./${dir}/graphql-env.d.ts` }],
      },
      // Only the task routes (and what they import) with this introspection, not the generated one.
      include: ['src/**/*.d.ts'],
      exclude: ['src/generated'],
      files: ['src/rest/tasks/routes.ts', `./${dir}/graphql-env.d.ts`],
    }),
  );
  const tada = join(root, 'node_modules/.bin/gql-tada');
  await run(tada, ['generate', 'output', '--tsconfig', tsconfig]);
  try {
    const { stdout, stderr } = await run(tada, ['check', '--level', 'error', '--tsconfig', tsconfig]);
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, output: failed.stdout + failed.stderr };
  }
}

describe('typed GraphQL documents', () => {
  const schema = readFileSync('schema.graphql', 'utf8');

  it('a field the task API reads, renamed in the schema, fails the type check there', { timeout: 900_000 }, async () => {
    const declaration = 'type Task implements Node {';
    const start = schema.indexOf(declaration);
    const end = schema.indexOf('}', start);
    expect(schema.slice(start, end)).toContain('  readableName: String!');
    const renamed = schema.slice(0, start) + schema.slice(start, end).replace('  readableName:', '  displayName:') + schema.slice(end);

    const control = await checkTaskRoutes('schema', schema);
    expect(control.output).not.toContain('error');
    expect(control.code).toBe(0);

    const broken = await checkTaskRoutes('renamed', renamed);
    expect(broken.code).not.toBe(0);
    expect(broken.output).toMatch(/src\/rest\/tasks\/routes\.ts\n[^]*error\s+Cannot query field "readableName" on type "Task"/);
  });
});
