// The Markdown renderers of lint, drift, plan and test (what `--format github` appends to the step summary and
// `obs review` builds on): hostile text rendered as the characters it holds, whatever it is (property-tested,
// rendered by a real Markdown renderer with HTML and links on), and each report's counts and details exactly.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { markdownText } from '../../src/cli/markdown/text';
import { lintMarkdown } from '../../src/cli/markdown/lint';
import { driftMarkdown } from '../../src/cli/markdown/drift';
import { planMarkdown } from '../../src/cli/markdown/plan';
import { testMarkdown } from '../../src/cli/markdown/test';
import { visible } from '../../src/cli/visible';
import type { Plan } from '../../src/triggerFiles';

type Render = (markdown: string) => string;
async function markdownIt(): Promise<Render> {
  // markdown-it ships with @vscode/vsce; with HTML and links on it is harsher than GitHub, which drops raw HTML.
  const moduleName = 'markdown-it'; // no type declarations are installed for it
  const { default: MarkdownIt } = (await import(moduleName)) as {
    default: new (o: object) => { render(s: string): string };
  };
  const md = new MarkdownIt({ html: true, linkify: true });
  return (s) => md.render(s);
}

/** What markdown-it writes for text: &, <, > and " escaped. */
const html = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
/** Markdown's reading of markdownText's output: each escape and entity back to its character. */
const decode = (s: string) =>
  s.replace(
    /\\([!-/:-@[-`{-~])|&(amp|lt|gt);|&#(\d+);/g,
    (_, escaped: string, name: string, code: string) =>
      escaped ?? { amp: '&', lt: '<', gt: '>' }[name] ?? String.fromCodePoint(Number(code)),
  );
const PUNCTUATION = '!-/:-@[-`{-~';
/** Only escaped punctuation, our entities, and characters Markdown gives no meaning. */
const TOKENS = new RegExp(`^(?:\\\\[${PUNCTUATION}]|&(?:amp|lt|gt|#\\d+);|[^${PUNCTUATION}])*$`, 'u');
const HIDDEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/u;

const hostileUnit = fc.constantFrom(
  ...'<>&|`*_#[]()!\\~-+.=:@ 1a\n\r\t\u2028\u202e\u00a0\u3000'.split(''),
  '</details>',
  '<script>',
  '&lt;',
  '&#32;',
  '```',
  'https://x.example',
  'www.x.example',
  '![i](j)',
);
const anyText = fc.oneof(
  fc.string({ unit: hostileUnit, maxLength: 30 }),
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.string({ unit: 'grapheme', maxLength: 30 }),
);

describe('markdownText', () => {
  test('escapes markup, entities, a closing tag and a line break into text', () => {
    assert.equal(markdownText('<b>bold</b> & *x*'), '&lt;b&gt;bold&lt;\\/b&gt; &amp; \\*x\\*');
    assert.equal(markdownText('a|b\n</details>'), 'a\\|b\\\\u\\{a\\}&lt;\\/details&gt;');
    assert.equal(markdownText('# not a heading'), '\\# not a heading');
    assert.equal(markdownText('  two spaces '), '&#32;&#32;two spaces&#32;');
  });

  test('any text: escapes, entities and plain characters only, no < or >, read back as visible() shows it', () => {
    fc.assert(
      fc.property(anyText, (s) => {
        const out = markdownText(s);
        assert.doesNotMatch(out, HIDDEN);
        assert.doesNotMatch(out, /[<>]/);
        assert.match(out, TOKENS);
        assert.doesNotMatch(out, /^\s|\s$/u);
        assert.equal(decode(out), visible(s));
      }),
      { numRuns: 2_000 },
    );
  });

  test('any text in a table cell inside <details> renders as one cell holding exactly that text', async () => {
    const render = await markdownIt();
    fc.assert(
      fc.property(anyText, (s) => {
        const page = `<details><summary>s</summary>\n\n| a |\n|---|\n| ${markdownText(s)} |\n\n</details>\n`;
        assert.equal(
          render(page),
          '<details><summary>s</summary>\n<table>\n<thead>\n<tr>\n<th>a</th>\n</tr>\n</thead>\n<tbody>\n<tr>\n' +
            `<td>${html(visible(s))}</td>\n</tr>\n</tbody>\n</table>\n</details>\n`,
        );
      }),
      { numRuns: 1_000 },
    );
  });

  test('any text after a list marker renders as one list item holding exactly that text', async () => {
    const render = await markdownIt();
    fc.assert(
      fc.property(anyText, (s) => {
        assert.equal(render(`- ${markdownText(s)}\n`), `<ul>\n<li>${html(visible(s))}</li>\n</ul>\n`);
      }),
      { numRuns: 1_000 },
    );
  });
});

const HOSTILE = 'x</details>|\n# y';
const HOSTILE_MD = 'x&lt;\\/details&gt;\\|\\\\u\\{a\\}\\# y';

describe('the reports', () => {
  test('lint: the counts, then a table of each file with problems; an unreadable file said', () => {
    const report = lintMarkdown([
      {
        file: 'triggers/a.trigger.json',
        diagnostics: [
          {
            rule: 'trigger/frequency',
            severity: 'error',
            message: `frequency of ${HOSTILE}`,
            range: { start: { line: 2, character: 2 }, end: { line: 2, character: 17 } },
            path: ['frequency'],
          },
        ],
      },
      { file: 'triggers/clean.trigger.json', diagnostics: [] },
      { file: 'triggers/gone.trigger.json', diagnostics: [], error: 'no such file' },
    ]);
    assert.deepEqual(report, {
      summary: '2 files checked\\: 1 error\\, 0 warnings\\, 0 infos\\; 1 file could not be read',
      details: [
        '**triggers\\/a\\.trigger\\.json**',
        '',
        '| Line:column | Severity | Rule | Problem |',
        '|---:|---|---|---|',
        `| 3:3 | error | trigger\\/frequency | frequency of ${HOSTILE_MD} |`,
        '',
        '**triggers\\/gone\\.trigger\\.json**: cannot be read\\: no such file',
      ].join('\n'),
    });
  });

  test('drift: the counts, then each difference service value -> file value, as the text report says them', () => {
    const report = driftMarkdown({
      files: [
        {
          file: 't/a.trigger.json',
          status: 'differs',
          triggers: [
            {
              status: 'differs',
              index: -1,
              name: HOSTILE,
              service: { id: 'tr1', name: HOSTILE },
              differences: [{ path: 'threshold.value', member: 'threshold', service: 5, local: 12 }],
            },
          ],
        },
        {
          file: 't/b.trigger.json',
          status: 'local-only',
          triggers: [{ status: 'local-only', index: 1, differences: [], reason: 'the service has no dataset x' }],
        },
      ],
      onlyOnService: [{ id: 'tr9', name: 'Old', dataset_slug: 'api' }],
      sloFiles: [],
      counts: { inSync: 0, differs: 1, localOnly: 1, serviceOnly: 1, unknown: 0 },
    });
    assert.deepEqual(report, {
      summary: '2 files compared\\: 0 in sync\\, 1 differ\\, 1 only local\\, 1 only on the service',
      details: [
        `- t\\/a\\.trigger\\.json\\: differs from the service\\: \\"x&lt;\\/details&gt;\\|\\\\n\\# y\\" \\(tr1\\)`,
        '  - threshold\\.value\\: 5 \\-&gt; 12',
        '- t\\/b\\.trigger\\.json\\[1\\]\\: only local\\: the service has no dataset x',
        '- api\\: only on the service\\: \\"Old\\" \\(tr9\\)',
      ].join('\n'),
    });
  });

  test('drift: burn alert and definitions files after the triggers, under a heading of their kind', () => {
    const report = driftMarkdown({
      files: [],
      onlyOnService: [],
      sloFiles: [
        {
          file: 'd/api.definitions.json',
          kind: 'definitions',
          status: 'differs',
          dataset: 'api',
          name: 'definitions of api',
          id: 'api',
          differences: [{ path: 'definitions.route', member: 'definitions', service: { name: 'r' }, local: null }],
        },
        { file: 'b/a.burn-alert.json', kind: 'burn-alert', status: 'in-sync', differences: [] },
        {
          file: 'b/x.burn-alert.json',
          kind: 'burn-alert',
          status: 'unknown',
          reason: 'the service has no burn alert ba_x',
          differences: [],
        },
      ],
      counts: { inSync: 1, differs: 1, localOnly: 0, serviceOnly: 0, unknown: 1 },
    });
    assert.deepEqual(report.details.split('\n'), [
      '**Burn alerts \\(service value \\-&gt; file value\\)\\:**',
      '',
      '- b\\/a\\.burn\\-alert\\.json\\: in sync',
      '- b\\/x\\.burn\\-alert\\.json\\: cannot be compared\\: the service has no burn alert ba\\_x',
      '',
      '**Definitions \\(service value \\-&gt; file value\\)\\:**',
      '',
      '- d\\/api\\.definitions\\.json\\: differs from the service\\: \\"definitions of api\\"',
      '  - definitions\\.route\\: \\{\\"name\\"\\:\\"r\\"\\} \\-&gt; null',
    ]);
  });

  test('plan: the counts, then what it is against and each section as the text plan shows it', () => {
    const plan: Plan = {
      format: 'obs-trigger-plan',
      version: 3,
      createdAt: '2026-12-07T12:00:00Z',
      target: { baseUrl: 'https://api.example', key: { salt: 's', sha256: 'h' } },
      inputs: { scope: { kind: 'all' }, allowUnknownColumns: false, matchByName: false },
      prune: true,
      files: [{ file: 't/a.trigger.json', sha256: 'a' }],
      changes: [
        {
          kind: 'trigger',
          action: 'create',
          file: 't/new.trigger.json',
          index: -1,
          dataset: 'api',
          name: 'New',
          body: { name: 'New', threshold: { op: '>', value: 3 } },
        },
        {
          kind: 'trigger',
          action: 'update',
          file: 't/a.trigger.json',
          index: -1,
          dataset: 'api',
          name: HOSTILE,
          id: 'tr1',
          matchedBy: 'id',
          differences: [{ path: 'threshold.value', member: 'threshold', service: 5, local: 12 }],
          body: {},
          service: { sha256: 'x' },
        },
        { kind: 'trigger', action: 'delete', dataset: 'api', id: 'tr9', name: 'Old', service: { sha256: 'y' } },
      ],
      blocked: [
        {
          kind: 'trigger',
          file: 't/bad.trigger.json',
          index: 0,
          name: 'Bad',
          reasons: ['line 3: frequency 90 is not...'],
        },
      ],
      unchanged: 4,
    };
    assert.deepEqual(planMarkdown(plan), {
      summary: '1 to create\\, 1 to update\\, 1 to delete\\, 4 unchanged\\, 1 blocked',
      details: [
        'Plan against https\\:\\/\\/api\\.example\\, 1 files read  ',
        '',
        '**Create\\:**',
        '',
        '- \\+ api \\"New\\"  t\\/new\\.trigger\\.json',
        '  - name\\: \\"New\\"',
        '  - threshold\\: \\{\\"op\\"\\:\\"&gt;\\"\\,\\"value\\"\\:3\\}',
        '',
        '**Update \\(service value \\-&gt; file value\\)\\:**',
        '',
        '- \\~ api \\"x&lt;\\/details&gt;\\|\\\\n\\# y\\" \\(tr1\\)  t\\/a\\.trigger\\.json',
        '  - threshold\\.value\\: 5 \\-&gt; 12',
        '',
        '**Delete \\(asked for with \\-\\-prune\\; 1 service triggers no file holds\\)\\:**',
        '',
        '- \\- api \\"Old\\" \\(tr9\\)',
        '',
        '**Blocked \\(never written\\)\\:**',
        '',
        '- \\! t\\/bad\\.trigger\\.json\\[0\\] \\"Bad\\"\\:',
        '  - line 3\\: frequency 90 is not\\.\\.\\.',
      ].join('\n'),
    });
  });

  test("test: the counts and the run's problems, then each file with each verdict, what happened and its notes", () => {
    const report = testMarkdown({
      files: [
        {
          file: 't/a.trigger-test.json',
          trigger: { name: HOSTILE, dataset: 'api', file: 't/a.trigger.json' },
          problems: [],
          outcomes: [
            {
              index: 0,
              name: 'quiet',
              expect: 'does-not-fire',
              status: 'failed',
              message: 'fired 2 times',
              notes: ['n1'],
            },
            { index: 1, name: 'old', expect: 'fires', status: 'not-testable', message: 'too old', notes: [] },
            { index: 2, name: 'ok', expect: 'fires', status: 'passed', message: 'fired', notes: [] },
          ],
          seconds: [],
          totalSeconds: 0,
          startedAt: 0,
        },
        {
          file: 't/broken.trigger-test.json',
          problems: ['not JSON'],
          outcomes: [],
          seconds: [],
          totalSeconds: 0,
          startedAt: 0,
        },
      ],
      problems: ['stopped: the rest did not run'],
      allowNotTestable: false,
    });
    assert.deepEqual(report, {
      summary: '4 expectations in 2 files\\: 1 passed\\, 1 failed\\, 1 not testable\\, 1 error\\; 1 problem of the run',
      details: [
        '- **ERROR** stopped\\: the rest did not run',
        `- t\\/a\\.trigger\\-test\\.json\\: \\"${HOSTILE_MD}\\" \\(t\\/a\\.trigger\\.json\\) on api`,
        '  - **FAILED** quiet\\: fired 2 times',
        '    - note\\: n1',
        '  - **NOT TESTABLE** old\\: too old',
        '  - **passed** ok\\: fired',
        '- t\\/broken\\.trigger\\-test\\.json\\:',
        '  - **ERROR** not JSON',
      ].join('\n'),
    });
  });
});
