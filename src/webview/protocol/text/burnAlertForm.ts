// Every word of the burn alert form (4.4), in one place. Read through l10n.t when used (see common.ts),
// so they are in the language the host handed the page.
import * as l10n from '@vscode/l10n';
import type { BurnAlertType } from '../../../api/schemas/burnAlert';

export const BURN_ALERT_TEXT = {
  get labels() {
    return {
      alert_type: l10n.t('Alert type'),
      exhaustion_minutes: l10n.t('Exhaustion minutes'),
      budget_rate_window_minutes: l10n.t('Budget rate window (minutes)'),
      budget_rate_decrease_threshold_per_million: l10n.t('Budget decrease threshold (per million)'),
      description: l10n.t('Description'),
      recipients: l10n.t('Recipients'),
    };
  },
  get alertTypes(): Record<BurnAlertType, string> {
    return { exhaustion_time: l10n.t('Exhaustion time'), budget_rate: l10n.t('Budget rate') };
  },
  get alertTypeHelp(): Record<BurnAlertType, string> {
    return {
      exhaustion_time: l10n.t(
        'Fires when the projected SLO budget is about to be used up within the given number of minutes.',
      ),
      budget_rate: l10n.t('Fires when the budget drops by at least the given amount within the given time window.'),
    };
  },
  get help() {
    return {
      exhaustion_minutes: l10n.t(
        'Minutes left until the projected budget is used up when the alert fires (0 or more).',
      ),
      budget_rate_window_minutes: l10n.t('The time window in which the budget drop is measured (at least 60).'),
      budget_rate_decrease_threshold_per_million: l10n.t(
        'How much of the budget, in parts per million, must be used within the window (1 to 1,000,000).',
      ),
      recipients: l10n.t("At least one. Pick the team's recipients by name (each is sent by its ID)."),
    };
  },
  get rules() {
    return {
      requiredForType: (label: string, type: string) =>
        l10n.t('{0} is required when the alert type is {1}.', label, type),
      notForType: (label: string, type: string) =>
        l10n.t('{0} does not apply when the alert type is {1}.', label, type),
      noRecipients: l10n.t('Add at least one recipient.'),
      recipientNamed: l10n.t('Each recipient needs an ID, or both a type and a target.'),
    };
  },
  /** What a number of minutes comes to, in words (minutesInWords): after the field's help. */
  comesTo: (words: string) => l10n.t('That is {0}.', words),
  get title() {
    return l10n.t('Edit burn alert');
  },
  lead: (alertId: string, sloId: string, dataset: string, connection: string) =>
    l10n.t('Alert {0} of SLO {1} in dataset {2} (connection {3}).', alertId, sloId, dataset, connection),
  /** {0}: when, as a relative time. */
  get lastUpdated() {
    return l10n.t('Last updated {0}.');
  },
  get triggeredNow() {
    return l10n.t('The alert is triggered now.');
  },
  unsendable: (members: readonly string[]) =>
    members.length === 1
      ? l10n.t(
          'This alert also has {0}, which this form cannot send: saving sends only the fields below, and the service decides whether to keep it.',
          members.join(', '),
        )
      : l10n.t(
          'This alert also has {0}, which this form cannot send: saving sends only the fields below, and the service decides whether to keep them.',
          members.join(', '),
        ),
  get recipients() {
    return {
      legend: l10n.t('Recipients'),
      listLabel: l10n.t('Recipients of this alert'),
      pickLabel: l10n.t('Recipient to add'),
      add: l10n.t('Add recipient'),
      remove: l10n.t('Remove'),
      removeLabel: (label: string) => l10n.t('Remove recipient {0}', label),
      none: l10n.t('No recipients.'),
      unknownEmpty: l10n.t('(current recipients unknown)'),
      unknown: l10n.t(
        "The service's list of burn alerts does not include recipients, so this alert's current recipients are not known here. Choose the recipients it should have: saving replaces them.",
      ),
      noOthers: l10n.t('(no other recipients seen in this environment)'),
      choose: l10n.t('(choose a recipient)'),
      deprecatedSummary: l10n.t('Add by type and target (deprecated)'),
      deprecatedHelp: l10n.t(
        'Naming a recipient by type and target still works but is deprecated: prefer a recipient ID.',
      ),
      deprecatedBadge: l10n.t('deprecated'),
      deprecatedTitle: l10n.t('Naming a recipient by type and target is deprecated: pick one by ID.'),
      typeLabel: l10n.t('Type'),
      targetLabel: l10n.t('Target'),
      // Example values the service takes as they are: not words to translate.
      typePlaceholder: 'email',
      targetPlaceholder: 'oncall@example.com',
      addDeprecated: l10n.t('Add by type and target'),
      needBoth: l10n.t('Give both a type and a target.'),
      idLabel: l10n.t('Recipient ID'),
      idHelp: l10n.t('Any recipient by its ID, also one not offered above: the service decides whether it exists.'),
      addId: l10n.t('Add ID'),
      idEmpty: l10n.t('Type a recipient ID to add.'),
      idTaken: (id: string) => l10n.t('{0} is already a recipient of this alert.', id),
      idNotAdded: l10n.t('This ID is not added yet: add it or clear the field.'),
      /** One of the unsaved changes a form keeps when it cannot be restored: {0} is the ID as typed, quoted. */
      idTyped: (typed: string) => l10n.t('recipient ID {0} (typed, not added)', typed),
      /** A recipient whose id the team's list (GET /1/recipients) does not hold: the host's views say it the same way. */
      notListed: (label: string) => l10n.t('{0} (not among the recipients the service lists)', label),
    };
  },
  get review() {
    return l10n.t('Review changes');
  },
  get submit() {
    return l10n.t('Save');
  },
  get checking() {
    return l10n.t('Checking for changes on the service…');
  },
  get saving() {
    return l10n.t('Saving your version…');
  },
  get saved() {
    return l10n.t('Saved.');
  },
  get reloaded() {
    return l10n.t('Reloaded the current version from the service.');
  },
  notANumber: (label: string) => l10n.t('{0} must be a number.', label),
  get conflict() {
    return {
      title: l10n.t('This alert changed on the service since you opened it'),
      /** {0}: when, as a relative time ("3 hours ago"). */
      changed: l10n.t('Changed on the service {0}.'),
      explain: l10n.t('Choose which version to keep. Overwriting replaces their change with yours.'),
      theirs: l10n.t('On the service now'),
      mine: l10n.t('Your version'),
      overwrite: l10n.t('Overwrite with my version'),
      reload: l10n.t('Reload theirs (drop my edits)'),
      cancel: l10n.t('Cancel'),
      compare: l10n.t('Compare in an editor'),
      status: l10n.t('The alert changed on the service: choose a version.'),
    };
  },
  /** Recipients in a review document when the service listed the alert without them. */
  get unknownRecipients() {
    return l10n.t('unknown: the service listed this alert without its recipients');
  },
} as const;
