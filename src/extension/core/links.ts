// Which service-provided links may be opened in the browser. No vscode import.
import * as l10n from '@vscode/l10n';
import type { Outcome } from '../../result';

export type LinkCheck = Outcome<{ url: URL }>;

/**
 * A link from the service (query_url, graph_image_url) is opened only when it is http(s), carries no
 * credentials, and points at the connection's UI host (same host name and port). A UI on https never
 * hands out plain-http links. Anything else is refused with a reason.
 */
export function checkUiLink(link: unknown, uiUrl: string): LinkCheck {
  if (typeof link !== 'string' || link.trim() === '') return { ok: false, reason: l10n.t('the service gave no link') };
  let url: URL;
  let ui: URL;
  try {
    ui = new URL(uiUrl);
  } catch {
    return { ok: false, reason: l10n.t('the connection has no valid UI URL') };
  }
  try {
    url = new URL(link.trim());
  } catch {
    return { ok: false, reason: l10n.t('the link is not an absolute URL') };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return {
      ok: false,
      reason: l10n.t('the link uses {0} instead of http(s)', url.protocol.replace(/[^a-z0-9+.:-]/gi, '')),
    };
  }
  if (url.username !== '' || url.password !== '') return { ok: false, reason: l10n.t('the link carries credentials') };
  if (url.host.toLowerCase() !== ui.host.toLowerCase()) {
    return {
      ok: false,
      reason: l10n.t("the link points at {0}, not at the connection's UI host {1}", url.host, ui.host),
    };
  }
  if (ui.protocol === 'https:' && url.protocol !== 'https:')
    return { ok: false, reason: l10n.t('the link downgrades to plain http') };
  return { ok: true, url };
}
