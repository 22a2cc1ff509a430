// ESLint for the TypeScript sources, tests and scripts (typescript-eslint's recommended rules),
// fitted to the code: `any` is an error in the sources, allowed only where a line says why (GraphQL
// results the REST layer reads, Pothos field builders, untyped bindings) and in tests, which read JSON
// answers of every shape; unused names are errors unless they start with "_".
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'src/generated/', 'node_modules/', 'test-artifacts/', 'coverage/', 'data/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      // Ports of WordPress's text functions match control characters on purpose.
      'no-control-regex': 'off',
      // A variable read by a handler set up before its one assignment (src/main.ts) stays `let`.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
    },
  },
  {
    // Tests and the hostile suite read JSON answers of every shape: `any` there is the answer's type.
    files: ['test/**', 'hostile/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  // The console and the calendar editor run in the browser.
  { files: ['src/console/**/*.js', 'src/manage/**/*.js'], languageOptions: { globals: { ...globals.browser } } },
);
