// ESLint (flat config) with typescript-eslint: no explicit `any` in src/, no unused variables,
// parameters, imports or caught errors (a leading _ marks one kept on purpose). Unused exports
// are knip's job (`npm run lint` runs both; see knip.json). Type-aware rules are left out: they
// would double the lint time on the shared 2-core machines for little the compiler does not catch.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'completions/**', 'coverage/**', '**/*.cjs', 'bench/**', 'bin/**', 'build.mjs'] },
  {
    files: ['src/**/*.ts', 'test/**/*.ts'],
    extends: [js.configs.recommended, ...tseslint.configs.recommended],
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
      // style, or outside what this lint is for (issue 12: any, unused code)
      'no-control-regex': 'off',
      'no-regex-spaces': 'off',
      'no-misleading-character-class': 'off',
      'no-useless-assignment': 'off',
      'preserve-caught-error': 'off',
      'no-empty': ['error', { allowEmptyCatch: true }],
    },
  },
  {
    // tests may fake what they need
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off', '@typescript-eslint/no-unused-expressions': 'off' },
  },
);
