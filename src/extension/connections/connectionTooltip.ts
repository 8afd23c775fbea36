// The active connection's tooltip in the status bar, as Markdown. Team and environment come from the service
// and the name from the user: each is escaped and capped, and the whole bounded, as the tree's tooltips are.
// No vscode import.
import * as l10n from '@vscode/l10n';
import { tooltipMarkdown } from '../core/text';
import { connectionLabel, type ConnectionProfile } from './profiles';

export function connectionTooltip(profile: ConnectionProfile): string {
  return tooltipMarkdown({
    title: connectionLabel(profile.name),
    rows: [
      { label: l10n.t('Address'), value: profile.baseUrl },
      { label: l10n.t('Team'), value: profile.team },
      { label: l10n.t('Environment'), value: profile.environmentId },
    ],
    footer: l10n.t('Click to switch connection.'),
  });
}
