// Recipients by name: "On-call (PagerDuty)", "ops@example.com (email)", "#alerts (Slack)". A trigger or a burn
// alert names its recipients by id only; the account's list (GET /1/recipients, read by the client with
// nothing but what names a recipient: never a key, URL, secret or header) tells what each id is. No vscode
// import: the tree, the linter's options, the editor's hover and completion and the drift views share it.
import * as l10n from '@vscode/l10n';
import type { AccountRecipient } from '../../api/schemas';

/** The type as people call it ("PagerDuty", "email"); a type the service adds later, as the service names it. */
export function recipientTypeText(type: string | undefined): string {
  switch (type) {
    case 'pagerduty':
      return l10n.t('PagerDuty');
    case 'email':
      return l10n.t({
        message: 'email',
        comment: ['A kind of alert recipient, after its address: "ops@example.com (email)".'],
      });
    case 'slack':
      return l10n.t('Slack');
    case 'webhook':
      return l10n.t({
        message: 'webhook',
        comment: ['A kind of alert recipient, after its name: "Deploys (webhook)".'],
      });
    case 'msteams':
      return l10n.t('Microsoft Teams, deprecated');
    case 'msteams_workflow':
      return l10n.t('Microsoft Teams workflow');
    case undefined:
      return l10n.t('unknown type');
    default:
      return type;
  }
}

/** What names the recipient within its type: the address, channel, integration or webhook name; else its id. */
export function recipientShortName(r: AccountRecipient): string {
  const d = r.details;
  const named = d?.email_address ?? d?.slack_channel ?? d?.pagerduty_integration_name ?? d?.webhook_name;
  return named !== undefined && named.trim() !== '' ? named : r.id;
}

/**
 * The `target` a trigger gives to name this recipient by type and target (deprecated, spec 9), where the
 * list tells it: an email recipient's address, a Slack recipient's channel. For other types what the
 * target holds is not listed (PagerDuty's is empty on the service, a webhook's is its URL, never read).
 */
export function recipientTarget(r: AccountRecipient): string | undefined {
  const d = r.details;
  const target = r.type === 'email' ? d?.email_address : r.type === 'slack' ? d?.slack_channel : undefined;
  return target !== undefined && target.trim() !== '' ? target : undefined;
}

/** "On-call (PagerDuty)": the name and the type, as every view shows a recipient. */
export function recipientName(r: AccountRecipient): string {
  return l10n.t({
    message: '{0} ({1})',
    args: [recipientShortName(r), recipientTypeText(r.type)],
    comment: ['A recipient: {0} is its name or address, {1} its type ("On-call (PagerDuty)").'],
  });
}

/** One connection's recipients by id, as listed. */
export class RecipientDirectory {
  private readonly byId: ReadonlyMap<string, AccountRecipient>;

  constructor(readonly list: readonly AccountRecipient[]) {
    this.byId = new Map(list.map((r) => [r.id, r]));
  }

  get(id: string): AccountRecipient | undefined {
    return this.byId.get(id);
  }

  /** "On-call (PagerDuty)" for a listed id; undefined for an id the list does not hold. */
  nameOf(id: string): string | undefined {
    const r = this.byId.get(id);
    return r === undefined ? undefined : recipientName(r);
  }
}

/** How a view says a recipient id: its name when the list is known and holds it, what is known otherwise. */
export function recipientIdText(id: string, directory: RecipientDirectory | undefined): string {
  if (directory === undefined) return id;
  return directory.nameOf(id) ?? l10n.t('{0} (not among the recipients the service lists)', id);
}
