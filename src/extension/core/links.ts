// Which service-provided links may be opened in the browser. No vscode import.

export type LinkCheck = { ok: true; url: URL } | { ok: false; reason: string };

/**
 * A link from the service (query_url, graph_image_url) is opened only when it is http(s), carries no
 * credentials, and points at the connection's UI host (same host name and port). A UI on https never
 * hands out plain-http links. Anything else is refused with a reason.
 */
export function checkUiLink(link: unknown, uiUrl: string): LinkCheck {
  if (typeof link !== 'string' || link.trim() === '') return { ok: false, reason: 'the service gave no link' };
  let url: URL;
  let ui: URL;
  try {
    ui = new URL(uiUrl);
  } catch {
    return { ok: false, reason: 'the connection has no valid UI URL' };
  }
  try {
    url = new URL(link.trim());
  } catch {
    return { ok: false, reason: 'the link is not an absolute URL' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return { ok: false, reason: `the link uses ${url.protocol.replace(/[^a-z0-9+.:-]/gi, '')} instead of http(s)` };
  }
  if (url.username !== '' || url.password !== '') return { ok: false, reason: 'the link carries credentials' };
  if (url.host.toLowerCase() !== ui.host.toLowerCase()) {
    return { ok: false, reason: `the link points at ${url.host}, not at the connection's UI host ${ui.host}` };
  }
  if (ui.protocol === 'https:' && url.protocol !== 'https:') return { ok: false, reason: 'the link downgrades to plain http' };
  return { ok: true, url };
}
