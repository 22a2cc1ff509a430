// A client generated from an OpenAPI document the way its users make one: openapi-typescript writes
// the `paths` types, a small openapi-fetch program written against them is type-checked (strict,
// every diagnostic reported), then imported to run against the server. Also checks bodies against
// the schemas a document gives for them (JSON Schema 2020-12, as OpenAPI 3.1 uses).
import { Ajv2020 } from 'ajv/dist/2020.js';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll } from 'vitest';

/** Writes `paths.d.ts` from `document` and `client.ts` from `source` (which imports `./paths.js`);
 *  returns the type errors (none expected) and the compiled module. */
export async function generatedClient(document: object, source: string): Promise<{ diagnostics: string[]; module: any }> {
  // Inside the project, so the client resolves openapi-fetch from node_modules.
  const dir = mkdtempSync(join(process.cwd(), 'test', '.openapi-client-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'paths.d.ts'), astToString(await openapiTS(structuredClone(document) as never)));
  writeFileSync(join(dir, 'client.ts'), source);
  const program = ts.createProgram([join(dir, 'client.ts')], {
    strict: true,
    noEmit: true,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    skipLibCheck: true,
    types: [],
    lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
  });
  const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  return { diagnostics, module: diagnostics.length ? undefined : await import(join(dir, 'client.ts')) };
}

/** The problems of `body` against the schema `document` gives for `path`/`method`/`status` ([] when it fits). */
export function schemaProblems(document: any, path: string, method: string, status: number, body: unknown): unknown[] {
  const response = document.paths[path]?.[method.toLowerCase()]?.responses[String(status)];
  if (!response) return [`${method} ${path} does not document a ${status}`];
  const validate = new Ajv2020({ strict: false, allErrors: true }).compile({
    ...response.content['application/json'].schema,
    components: document.components,
  });
  return validate(body) ? [] : (validate.errors ?? []);
}
