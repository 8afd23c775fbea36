// Building the diagnostics that are shown, from what was found and where: message, range, related
// places and fix. Only the first N of a file are built (lint.ts), however many problems it has.
import * as l10n from '@vscode/l10n';
import { findValueNode, removeMemberFix } from './fixes';
import { quotedKey, type Finding } from './issues';
import { pathOf, propertyAt, targetNode, type Span } from './locate';
import { repairOf, toFix } from './repairs';
import { ruleInfo, type RuleId } from './rules';
import type { SkimNode } from './skim';
import type { LineIndex } from './text';
import type { Diagnostic, RelatedInformation, Severity } from './types';
import { grouped } from './util';

/** Longest message, in characters: a message quotes the file, and the file may hold anything. */
export const MAX_MESSAGE_LENGTH = 1000;

function boundedMessage(message: string): string {
  if (message.length <= MAX_MESSAGE_LENGTH) return message;
  let cut = MAX_MESSAGE_LENGTH - 1;
  // Never split a surrogate pair.
  const c = message.charCodeAt(cut - 1);
  if (c >= 0xd800 && c <= 0xdbff) cut--;
  return `${message.slice(0, cut)}…`;
}

export function plainDiagnostic(
  rule: 'json/syntax' | 'json/too-deep' | 'file/encoding',
  message: string,
  offset: number,
  length: number,
  lines: LineIndex,
): Diagnostic {
  return {
    rule,
    severity: ruleInfo(rule).severity,
    message: boundedMessage(message),
    range: lines.range(offset, length),
    path: [],
  };
}

/** The warning on a member JSON.parse ignores (its key at `ignored`) for a later one (its key at `next`). */
export function duplicateDiagnostic(
  root: SkimNode,
  ignored: number,
  next: number,
  lines: LineIndex,
  fixable: boolean,
): Diagnostic | undefined {
  const property = propertyAt(root, ignored);
  if (property === undefined) return undefined;
  const key: unknown = property.children?.[0]?.value;
  const name = quotedKey(typeof key === 'string' ? key : String(key));
  const again = lines.positionAt(next);
  const rule: RuleId = 'json/duplicate-member';
  const d: Diagnostic = {
    rule,
    severity: ruleInfo(rule).severity,
    message: boundedMessage(
      l10n.t(
        '{0} is given again on line {1}; of repeated members the last one counts (as JSON.parse reads them), so this one is ignored',
        name,
        again.line + 1,
      ),
    ),
    range: lines.range(property.offset, property.length),
    path: pathOf(property),
  };
  const later = propertyAt(root, next);
  if (later !== undefined)
    d.related = [{ message: l10n.t('{0} given again', name), range: lines.range(later.offset, later.length) }];
  if (fixable) {
    const fix = removeMemberFix(property, lines, l10n.t('Remove this ignored {0}', name));
    if (fix !== undefined) d.fix = fix;
  }
  return d;
}

/** A rule's finding at `span`; `value` (the parsed file) only when the file is valid JSON, for its fix. */
export function findingDiagnostic(
  f: Finding,
  span: Span,
  root: SkimNode,
  lines: LineIndex,
  value: unknown,
): Diagnostic {
  const d: Diagnostic = {
    rule: f.rule,
    severity: ruleInfo(f.rule).severity,
    message: boundedMessage(f.message),
    range: lines.range(span.offset, span.length),
    path: f.at,
  };
  if (f.params?.related !== undefined) {
    const prefix = f.at.slice(0, f.at.length - f.inTrigger);
    const related: RelatedInformation[] = [];
    for (const r of f.params.related) {
      const at = [...prefix, ...r.path];
      if (findValueNode(root, at) === undefined) continue;
      const target = targetNode(root, at);
      related.push({ message: boundedMessage(r.message), range: lines.range(target.offset, target.length) });
    }
    if (related.length > 0) d.related = related;
  }
  if (value !== undefined) {
    const repair = repairOf(f, root, value);
    const fix = repair === undefined ? undefined : toFix(repair, lines);
    if (fix !== undefined) d.fix = fix;
  }
  return d;
}

export interface Counts {
  error: number;
  warning: number;
  info: number;
}

const errors = (n: number) => (n === 1 ? l10n.t('1 error') : l10n.t('{0} errors', grouped(n)));
const warnings = (n: number) => (n === 1 ? l10n.t('1 warning') : l10n.t('{0} warnings', grouped(n)));
const infos = (n: number) => (n === 1 ? l10n.t('1 info') : l10n.t('{0} infos', grouped(n)));

/** The one diagnostic that stands for those left out. */
export function summaryDiagnostic(hidden: Counts, limit: number): Diagnostic {
  const total = hidden.error + hidden.warning + hidden.info;
  // As severe as the worst it stands for, so that no error hides behind it (obs-lint's exit status counts on it).
  const severity: Severity = hidden.error > 0 ? 'error' : hidden.warning > 0 ? 'warning' : 'info';
  return {
    rule: 'file/too-many-problems',
    severity,
    message:
      total === 1
        ? l10n.t(
            '1 more problem not shown ({0}, {1}, {2}): only the first {3} of a file are reported; fix those and lint again',
            errors(hidden.error),
            warnings(hidden.warning),
            infos(hidden.info),
            grouped(limit),
          )
        : l10n.t(
            '{0} more problems not shown ({1}, {2}, {3}): only the first {4} of a file are reported; fix those and lint again',
            grouped(total),
            errors(hidden.error),
            warnings(hidden.warning),
            infos(hidden.info),
            grouped(limit),
          ),
    range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
    path: [],
  };
}
