import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const vscodeOutsideExtension = {
  paths: [{ name: 'vscode', message: 'Only src/extension/ may import vscode (see docs/ARCHITECTURE.md).' }],
};

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', '.vscode-test/**', '*.vsix', 'out/**', 'test/e2e/.cache/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-non-null-assertion': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-imports': ['error', vscodeOutsideExtension],
    },
  },
  {
    files: ['src/extension/**/*.ts', 'test/vscode/**/*.ts', 'test/e2e/**/*.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    // A feature of the editor reaches another only through its index.ts (the folder), and core/ at will;
    // test/unit/architecture.test.ts checks the same over the resolved import graph.
    files: ['src/extension/*/*.ts'],
    ignores: ['src/extension/core/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^\\.\\./(?!\\.\\.|core/)[^/]+/(?!index$)',
              message:
                'Reach another feature through its folder (its index.ts), never a module of it (docs/ARCHITECTURE.md).',
            },
          ],
        },
      ],
    },
  },
  {
    // core/ is beneath every feature: it imports none of them.
    files: ['src/extension/core/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^\\.\\./(?!\\.\\./)', message: 'core/ imports no feature of the editor (docs/ARCHITECTURE.md).' },
          ],
        },
      ],
    },
  },
  {
    // The unit tests' fakes of the editor implement vscode's types; vscode itself is never loaded there.
    files: ['test/unit/**/*.ts'],
    rules: {
      'no-restricted-imports': 'off',
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { paths: [{ ...vscodeOutsideExtension.paths[0], allowTypeImports: true }] },
      ],
    },
  },
  {
    files: ['**/*.mjs', '**/*.cjs', '**/*.js'],
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        require: 'readonly',
        module: 'writable',
        __dirname: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        performance: 'readonly',
      },
    },
  },
  {
    // CommonJS scripts (the bench's child processes) load modules with require.
    files: ['**/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
