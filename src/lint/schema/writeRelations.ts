// Relational rules of what the service refuses when a trigger is written, beyond spec 2.6.1 (service
// facts): checked before a write is planned, so that a plan never holds a write the service will refuse.
import * as l10n from '@vscode/l10n';
import { grouped } from '../util';
import { writeBodyBytesOver } from './bodySize';
import { TRIGGER_LIMITS } from './limits';
import { setsBaseline, type Report } from './relationWords';

export function checkWriteRelations(trigger: Record<string, unknown>, report: Report): void {
  checkBaselineFrequency(trigger, report);
  checkBodySize(trigger, report);
}

/** A baseline trigger runs every 900 seconds or less often; a frequency left out is the default, 900, which fits. */
function checkBaselineFrequency(trigger: Record<string, unknown>, report: Report): void {
  const frequency = trigger.frequency;
  const least = TRIGGER_LIMITS.baselineFrequencyMin;
  if (!setsBaseline(trigger.baseline_details) || typeof frequency !== 'number' || frequency >= least) return;
  const message = l10n.t(
    '{0} {1} is below {2}, the least frequency of a baseline trigger; raise it to {2} or more, or remove {3}',
    'frequency',
    frequency,
    least,
    'baseline_details',
  );
  report(['frequency'], message, {
    rule: 'trigger/baseline-frequency',
    related: [{ path: ['baseline_details'], message: l10n.t('the baseline') }],
  });
}

/** The service refuses a body over 100,000 bytes (413); what a write sends is measured as bodySize.ts says. */
function checkBodySize(trigger: Record<string, unknown>, report: Report): void {
  const most = TRIGGER_LIMITS.writeBodyMaxBytes;
  const bytes = writeBodyBytesOver(trigger, most);
  if (bytes === undefined) return;
  const message = l10n.t(
    'the trigger is about {0} bytes as a write sends it; the service refuses a body over {1} bytes',
    grouped(bytes),
    grouped(most),
  );
  report([], message, { rule: 'trigger/body-size' });
}
