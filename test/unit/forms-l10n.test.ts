// The host side of the forms words problems with the pages' word tables, in the language of the bundle
// its host bundle configured (core/pageL10nSetup.ts): a problem found before sending reads as the page's
// own. Its own file: @vscode/l10n's configuration is global to the process.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as l10n from '@vscode/l10n';
import { checkCreateApiKey } from '../../src/webview/protocol/apiKeyForm';
import { formatCount, useTextLocale } from '../../src/webview/protocol/text/common';

const GERMAN = {
  Name: 'Bezeichnung',
  'Environment ID': 'Umgebungs-ID',
  '{0} is required.': '{0} muss angegeben werden.',
};

test('a problem the host finds before sending is worded by the configured bundle, labels included', () => {
  l10n.config({ contents: GERMAN });
  const checked = checkCreateApiKey({
    name: '',
    keyType: 'ingest',
    disabled: false,
    createDatasets: false,
    environmentId: '',
  });
  assert.deepEqual(checked.ok ? undefined : checked.reason, {
    fields: { name: ['Bezeichnung muss angegeben werden.'], environmentId: ['Umgebungs-ID muss angegeben werden.'] },
    form: [],
  });
});

test('numbers in the texts follow the display language, and an unknown language tag falls back to English', () => {
  useTextLocale('de');
  assert.equal(formatCount(1023), '1.023');
  useTextLocale('not a language!');
  assert.equal(formatCount(1023), '1,023');
});
