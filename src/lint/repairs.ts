// Which findings have a repair, and what it is: the quick fix and the "fix all" edit of a rule.
import * as l10n from '@vscode/l10n';
import { nearestValidFrequency, TRIGGER_LIMITS } from './schema';
import { removableMember, removeMemberFix, replaceableValue, replaceValueFix, swapMemberFix } from './fixes';
import type { FixTarget } from './fixes';
import type { Finding } from './issues';
import type { SkimNode } from './skim';
import type { LineIndex } from './text';
import type { Fix } from './types';
import { valueAt } from './util';

export interface Repair {
  title: string;
  target: FixTarget;
}

/** The repair of a finding in valid JSON (`value` parsed from it), if the rule has one and it is unambiguous. */
export function repairOf(found: Finding, root: SkimNode, value: unknown): Repair | undefined {
  const path = found.at;
  const member = String(path[path.length - 1]);
  const remove = (title: string): Repair | undefined => {
    const property = removableMember(root, path);
    return property === undefined ? undefined : { title, target: { kind: 'remove', property } };
  };
  const replace = (next: number | string, title: string): Repair | undefined => {
    const node = replaceableValue(root, path);
    return node === undefined ? undefined : { title, target: { kind: 'replace', node, newText: JSON.stringify(next) } };
  };
  switch (found.rule) {
    case 'trigger/read-only-member':
      return remove(l10n.t('Remove read-only {0}', member));
    case 'query/refused-member':
    case 'query/granularity-standard':
      return remove(l10n.t('Remove {0}', member));
    case 'trigger/frequency': {
      const current = valueAt(value, path);
      if (typeof current !== 'number') return undefined;
      const next = nearestValidFrequency(current);
      return replace(next, l10n.t('Set {0} to {1}', 'frequency', next));
    }
    case 'query/time-range-min':
    case 'query/time-range-max': {
      const current = valueAt(value, path);
      if (typeof current !== 'number') return undefined;
      // Relational issues know the bound; a bare member check (frequency itself invalid) clamps to the absolute bounds.
      const bound =
        found.params?.replaceWith ??
        (found.rule === 'query/time-range-min' ? TRIGGER_LIMITS.frequencyMin : TRIGGER_LIMITS.timeRangeMax);
      return replace(bound, l10n.t('Set {0} to {1}', 'time_range', bound));
    }
    case 'trigger/unknown-dataset':
    case 'query/unknown-column':
    case 'trigger/unknown-recipient': {
      const name = found.params?.replaceText;
      return name === undefined ? undefined : replace(name, l10n.t('Change to {0}', JSON.stringify(name)));
    }
    case 'trigger/recipient-deprecated': {
      // The id of the one listed recipient with this type and target (recipients.ts); its type member becomes the id.
      const id = found.params?.replaceText;
      const type = removableMember(root, [...path, 'type']);
      const target = removableMember(root, [...path, 'target']);
      if (id === undefined || type === undefined || target === undefined) return undefined;
      const newText = `"id": ${JSON.stringify(id)}`;
      const title = l10n.t('Name the recipient by its id {0}', JSON.stringify(id));
      return { title, target: { kind: 'swap', property: type, newText, removed: target } };
    }
    default:
      return undefined;
  }
}

/** The quick fix of a repair. */
export function toFix(repair: Repair, lines: LineIndex): Fix | undefined {
  const t = repair.target;
  if (t.kind === 'swap') return swapMemberFix(t, lines, repair.title);
  return t.kind === 'remove'
    ? removeMemberFix(t.property, lines, repair.title)
    : replaceValueFix(t.node, lines, t.newText, repair.title);
}
