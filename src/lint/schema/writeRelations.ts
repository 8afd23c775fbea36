// Relational rules of what the service refuses when a trigger is written, beyond spec 2.6.1 (service
// facts): checked before a write is planned, so that a plan never holds a write the service will refuse.
import * as l10n from '@vscode/l10n';
import { TRIGGER_LIMITS } from './limits';
import { setsBaseline, type Report } from './relationWords';

export function checkWriteRelations(trigger: Record<string, unknown>, report: Report): void {
  checkBaselineFrequency(trigger, report);
}

/** A baseline trigger runs every 900 seconds or less often; a frequency left out is the default, 900, which fits. */
function checkBaselineFrequency(trigger: Record<string, unknown>, report: Report): void {
  const frequency = trigger.frequency;
  const least = TRIGGER_LIMITS.baselineFrequencyMin;
  if (!setsBaseline(trigger.baseline_details) || typeof frequency !== 'number' || frequency >= least) return;
  const message = l10n.t('{0} {1} is below {2}, the least frequency of a baseline trigger; raise it to {2} or more, or remove {3}', 'frequency', frequency, least, 'baseline_details');
  report(['frequency'], message, {
    rule: 'trigger/baseline-frequency',
    related: [{ path: ['baseline_details'], message: l10n.t('the baseline') }],
  });
}
