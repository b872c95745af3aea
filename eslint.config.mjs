// Type-aware lint for every workspace, and plain lint for the .mjs build scripts. Formatting is
// Prettier's job (eslint-config-prettier turns off the rules that would fight it).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/.data/**',
      '**/.turbo/**',
      '**/coverage/**',
      '**/*.js',
      '**/*.cjs',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // A worker full of async steps: a promise nobody awaits is a lost failure.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      // One require(), for a module object that must be the very one others use: the OpenTelemetry
      // SDK, loaded only when tracing is configured, which must patch before the next import
      // (packages/platform/src/tracing/start-tracing.ts).
      '@typescript-eslint/no-require-imports': ['error', { allow: ['^\\./tracing-sdk$'] }],
    },
  },
  {
    // Tests read HTTP answers through supertest, whose `response.body` is `any`, through small
    // fetch helpers typed the same way, and JSON parsed from fixtures; they assert on its shape
    // with `expect`, which is where a wrong shape shows. Typing every body first would add casts,
    // not safety, so `any` and the rules that follow it are off for test files only. Every other
    // rule (no-floating-promises and no-misused-promises above all) still applies there.
    files: ['**/test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    // The build scripts run as plain Node ESM (no TypeScript program holds them): the same rules
    // without type information, and Node's globals.
    files: ['**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      ...tseslint.configs.disableTypeChecked.languageOptions,
      sourceType: 'module',
      globals: { process: 'readonly', console: 'readonly', URL: 'readonly', Buffer: 'readonly' },
    },
  },
  prettier,
);
