// The editor's feature facades as a lint rule (eslint.config.mjs), so the editor flags a wrong import as it
// is typed: a feature reaches another through its folder's index.ts, core/ reaches none.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { ESLint } from 'eslint';

const eslint = new ESLint({ cwd: join(import.meta.dirname, '..', '..') });

/** The rules that flag `text` as the module `file`. */
async function flagged(file: string, text: string): Promise<string[]> {
  const [result] = await eslint.lintText(text, { filePath: file });
  return (result?.messages ?? []).map((m) => m.ruleId ?? m.message);
}

test('a feature importing a module of another feature is flagged; its folder, core/ and other layers are not', async () => {
  assert.deepEqual(
    await flagged(
      'src/extension/noise/probe.ts',
      "import { DRIFT_VIEW_ID } from '../sync/syncIds';\nexport const x = DRIFT_VIEW_ID;\n",
    ),
    ['no-restricted-imports'],
  );
  assert.deepEqual(await flagged('src/extension/noise/probe.ts', "export { DRIFT_VIEW_ID } from '../sync';\n"), []);
  assert.deepEqual(await flagged('src/extension/noise/probe.ts', "export { visible } from '../core/text';\n"), []);
  assert.deepEqual(
    await flagged('src/extension/noise/probe.ts', "export { TRIGGER_FILE_SUFFIX } from '../../triggerFiles/paths';\n"),
    [],
  );
});

test('core/ importing any feature is flagged', async () => {
  assert.deepEqual(await flagged('src/extension/core/probe.ts', "export { DRIFT_VIEW_ID } from '../sync';\n"), [
    'no-restricted-imports',
  ]);
  assert.deepEqual(await flagged('src/extension/core/probe.ts', "export { errorText } from '../../api/errors';\n"), []);
});
