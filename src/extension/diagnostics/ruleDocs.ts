// Where a diagnostic's rule code links to: the setting `obs.rulesDocsUrl` when it is an http(s) address,
// else the docs/rules.md shipped in the extension, opened at the rule's line. No vscode import.
import { readFileSync } from 'node:fs';
import { ruleDocsAnchor } from '../../lint/rules';
import { errorText } from '../core/errors';

/**
 * The documentation address of a rule: the docs page plus the rule's anchor. A `file:` page (the copy of
 * docs/rules.md shipped in the .vsix) gets `#L<line>` instead, because VS Code opens local files at a line,
 * not at an HTML anchor.
 */
export function ruleDocsUrl(docsUrl: string, ruleId: string, anchorLines?: ReadonlyMap<string, number>): string {
  const page = docsUrl.replace(/#.*$/, '');
  const anchor = ruleDocsAnchor(ruleId);
  if (page.startsWith('file:')) {
    const line = anchorLines?.get(anchor);
    return line === undefined ? page : `${page}#L${line}`;
  }
  return `${page}#${anchor}`;
}

/**
 * The docs page rule links point at: the setting `obs.rulesDocsUrl` when it is an http(s) address, else the
 * copy of docs/rules.md shipped in the extension. A workspace can set the setting, so anything else (a
 * `command:` or `file:` link, garbage) is ignored rather than put behind every rule code in Problems.
 */
export function rulesDocsPage(configured: string | undefined, packaged: string): string {
  const text = configured?.trim() ?? '';
  if (text === '') return packaged;
  try {
    const url = new URL(text);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : packaged;
  } catch {
    return packaged;
  }
}

/** 1-based line of every `<a id="...">` anchor in docs/rules.md. */
export function rulesDocsAnchorLines(markdown: string): Map<string, number> {
  const lines = new Map<string, number>();
  markdown.split(/\r?\n/).forEach((text, index) => {
    for (const m of text.matchAll(/<a id="([^"]+)"><\/a>/g)) {
      if (m[1] !== undefined && !lines.has(m[1])) lines.set(m[1], index + 1);
    }
  });
  return lines;
}

export interface RuleDocsOptions {
  /** Path of the docs/rules.md shipped in the extension. */
  file: string;
  /** The same file as a `file:` address. */
  fileUrl: string;
  /** The setting `obs.rulesDocsUrl`, read each time a link is made. */
  configured: () => string | undefined;
  log: (message: string) => void;
}

/** The docs page of the moment and the lines of the shipped file's rule sections (read once: the file is small). */
export class RuleDocs {
  private anchorLines: Map<string, number> | undefined;

  constructor(private readonly o: RuleDocsOptions) {}

  page(): string {
    return rulesDocsPage(this.o.configured(), this.o.fileUrl);
  }

  /** Lines of the rule sections in the shipped file; none (links go to the top of the file) when it cannot be read. */
  lines(): ReadonlyMap<string, number> {
    if (this.anchorLines === undefined) {
      try {
        this.anchorLines = rulesDocsAnchorLines(readFileSync(this.o.file, 'utf8'));
      } catch (err) {
        this.o.log(`rule documentation not found in the extension: ${errorText(err)}`);
        this.anchorLines = new Map();
      }
    }
    return this.anchorLines;
  }
}
