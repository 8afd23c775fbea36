import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  escapeMarkdown,
  neutraliseControls,
  safeLabel,
  TOOLTIP_MARKDOWN_MAX,
  tooltipMarkdown,
} from '../../src/extension/core/text';

const HOSTILE = [
  '<img src=x onerror=alert(1)>',
  '<script>alert(1)</script>',
  '[click](https://evil.example)',
  '[run](command:workbench.action.quit)',
  'see https://evil.example and www.evil.example',
  'user\u202Egnp.exe',
];

/** Undoes escapeMarkdown's backslashes: what a CommonMark renderer shows as text. */
function rendered(md: string): string {
  return md
    .replace(/\\([!-/:-@[-`{-~])/g, '$1')
    .replace(/&nbsp;/g, ' ')
    .replace(/ {2}\n/g, '\n');
}

test('escapeMarkdown leaves no unescaped markdown or HTML punctuation in hostile strings', () => {
  for (const s of HOSTILE) {
    const md = escapeMarkdown(s);
    // Every ASCII punctuation character is preceded by a backslash.
    const unescaped = md.replace(/\\[!-/:-@[-`{-~]/g, '').replace(/&nbsp;/g, '');
    assert.doesNotMatch(unescaped, /[!-/:-@[-`{-~]/, `unescaped punctuation in ${JSON.stringify(md)}`);
  }
});

test('escapeMarkdown renders back to the original text (bidi controls made visible)', () => {
  assert.equal(
    rendered(escapeMarkdown('[run](command:workbench.action.quit)')),
    '[run](command:workbench.action.quit)',
  );
  assert.equal(rendered(escapeMarkdown('<img src=x onerror=alert(1)>')), '<img src=x onerror=alert(1)>');
  assert.equal(rendered(escapeMarkdown('user\u202Egnp.exe')), 'user\uFFFDgnp.exe');
});

test('escapeMarkdown breaks bare-URL autolinks and HTML entities', () => {
  assert.equal(escapeMarkdown('https://evil.example'), 'https\\:\\/\\/evil\\.example');
  assert.equal(escapeMarkdown('&lt;b&gt;'), '\\&lt\\;b\\&gt\\;');
});

test('escapeMarkdown turns line breaks into hard breaks so a value cannot open a block', () => {
  assert.equal(escapeMarkdown('a\n# b\n    code'), 'a  \n\\# b  \n&nbsp;&nbsp;&nbsp;&nbsp;code');
});

test('neutraliseControls replaces every bidi override, isolate and mark with U+FFFD', () => {
  const bidi = '\u061C\u200E\u200F\u202A\u202B\u202C\u202D\u202E\u2066\u2067\u2068\u2069';
  assert.equal(neutraliseControls(`a${bidi}b`), `a${'\uFFFD'.repeat(bidi.length)}b`);
  assert.equal(neutraliseControls('tab\tand\u0007bell'), 'tab\tand\uFFFDbell');
});

test('safeLabel makes one line without bidi controls and caps its length', () => {
  assert.equal(safeLabel('line1\nline2\u202E'), 'line1 line2\uFFFD');
  assert.equal(safeLabel('x'.repeat(300), 10), `${'x'.repeat(9)}\u2026`);
});

test('tooltipMarkdown escapes title, text and values and skips empty rows', () => {
  const md = tooltipMarkdown({
    title: '[click](https://evil.example)',
    text: '<script>alert(1)</script>',
    rows: [
      { label: 'Target', value: '[run](command:workbench.action.quit)' },
      { label: 'Empty', value: undefined },
      { label: 'Count', value: 3 },
    ],
  });
  assert.equal(
    md,
    '**\\[click\\]\\(https\\:\\/\\/evil\\.example\\)**\n\n' +
      '\\<script\\>alert\\(1\\)\\<\\/script\\>\n\n' +
      'Target: \\[run\\]\\(command\\:workbench\\.action\\.quit\\)  \nCount: 3',
  );
  assert.doesNotMatch(md, /\]\(/);
  assert.doesNotMatch(md, /(^|[^\\])</);
});

test("a tooltip's footer is shown last, and the rows make room for it within 10,000 characters", () => {
  // Nine rows of 1,003 characters and one of 884 fill exactly the room of a tooltip titled T without a footer.
  const rows = [...Array.from({ length: 9 }, () => 'v'.repeat(1_000)), 'v'.repeat(881)].map((value) => ({
    label: 'v',
    value,
  }));
  const md = tooltipMarkdown({ title: 'T', rows, footer: 'F'.repeat(100) });
  assert.ok(md.length <= TOOLTIP_MARKDOWN_MAX, `${md.length} characters`);
  assert.ok(
    md.endsWith(
      `v: ${'v'.repeat(1_000)}  \n\\(more not shown\\: the tooltip would be too long\\)\n\n${'F'.repeat(100)}`,
    ),
    md.slice(-200),
  );
});

test('a Markdown renderer with HTML and linkify on shows the escaped hostile strings as text only', async () => {
  // markdown-it ships with @vscode/vsce; rendering with HTML and linkify enabled is harsher than VS Code's hovers.
  const moduleName = 'markdown-it'; // no type declarations are installed for it
  const { default: MarkdownIt } = (await import(moduleName)) as {
    default: new (o: object) => { render(s: string): string };
  };
  const md = new MarkdownIt({ html: true, linkify: true });
  for (const s of HOSTILE) {
    const html = md.render(tooltipMarkdown({ title: s, text: s, rows: [{ label: 'v', value: s }] }));
    assert.doesNotMatch(html, /<(a|img|script)\b/i, html);
    assert.doesNotMatch(html, /href=/i, html);
  }
});

test('markdown-it renders every markdown and HTML special in service text literally: one paragraph, text only', async () => {
  const moduleName = 'markdown-it';
  const { default: MarkdownIt } = (await import(moduleName)) as {
    default: new (o: object) => { render(s: string): string };
  };
  const md = new MarkdownIt({ html: true, linkify: true });
  const cases = [
    ...HOSTILE,
    '`code` and ``x`` and ```fence```',
    '*em* **strong** _u_ __uu__ ~~del~~',
    '<https://evil.example> and <a@evil.example>',
    'bare https://evil.example www.evil.example evil.example a@evil.example mailto:a@evil.example',
    '&lt;script&gt; &#x3C;b&#x3E; &amp; &copy',
    '![img](https://evil.example/x.png) [ref][1] [1]: https://evil.example',
    '# heading\n- item\n> quote\n1. one\n    indented code\n---\n===\n| a | b |\n|---|---|',
    'crlf\r\nline\u2028sep',
    '\\*already escaped\\* and a trailing backslash\\',
    'x<!-- comment -->y <?php echo 1 ?> <![CDATA[z]]>',
  ];
  const html = (s: string): string =>
    s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  for (const s of cases) {
    const lines = neutraliseControls(s).split(/\r\n|\n|\u2028/);
    const expected = `<p>${lines.map((l) => html(l).replace(/^ +/, (ws) => '\u00A0'.repeat(ws.length))).join('<br>\n')}</p>\n`;
    assert.equal(md.render(escapeMarkdown(s)), expected, JSON.stringify(s));
  }
});
