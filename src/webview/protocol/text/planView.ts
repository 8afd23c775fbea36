// Every word the plan view's page adds to what the host sends (its controls and headings), in one place. Read
// through l10n.t when used (see common.ts), so they are in the language the host handed the page.
import * as l10n from '@vscode/l10n';

export const PLAN_PAGE_TEXT = {
  get include() {
    return l10n.t('Apply this change');
  },
  includeTitle: (label: string) =>
    l10n.t('Apply {0} with this plan; clear the box to leave it out of this apply', label),
  get openFile() {
    return l10n.t('Open File');
  },
  get openService() {
    return l10n.t("Open the Service's Version");
  },
  get compare() {
    return l10n.t('Compare');
  },
  get member() {
    return l10n.t('Member');
  },
  /** The columns of an update's members: the service's value before the apply, the file's after it. */
  get before() {
    return l10n.t('Before');
  },
  get after() {
    return l10n.t('After');
  },
  /** The column of a create's members. */
  get value() {
    return l10n.t('Value');
  },
  get unchecked() {
    return l10n.t('Not checked');
  },
  get differences() {
    return l10n.t('What changed since the plan was shown');
  },
  get cancel() {
    return l10n.t('Cancel');
  },
  get planAgain() {
    return l10n.t('Plan Again');
  },
  /** {0}: the connection's name, to be typed exactly. */
  typeName: (name: string) => l10n.t('{0} looks like a production connection. Type its name to apply:', name),
  get typeNameLabel() {
    return l10n.t('Connection name');
  },
  get noneKept() {
    return l10n.t('Every change is left out: there is nothing to apply.');
  },
  get excludedMark() {
    return l10n.t('left out of this apply');
  },
  get actions() {
    return l10n.t('Apply or cancel');
  },
};
