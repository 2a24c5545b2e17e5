import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/*
 * ESLint for `npm test` (npm run lint): the recommended rules of ESLint and typescript-eslint,
 * without type information so it stays fast on a busy 2-core machine. Layers are checked by
 * dependency-cruiser (.dependency-cruiser.cjs), not here.
 */
export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'test-results/', 'coverage/', 'release/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      // The codebase's way to say "deliberately unused": a leading underscore (a parameter an
      // interface requires, a field taken out of an object by destructuring).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
    },
  },
  {
    // Tests read an answer's JSON as fetch hands it over (`any`); their expectations are the check.
    files: ['test/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['**/*.cjs', '**/*.mjs', 'index.js'],
    languageOptions: {
      globals: { module: 'writable', require: 'readonly', process: 'readonly', console: 'readonly', __dirname: 'readonly', Buffer: 'readonly' },
    },
  },
  {
    // The desktop app's entry is CommonJS, as Electron loads it: `require` is how it imports.
    files: ['index.js'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
