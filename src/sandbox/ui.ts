import { MEDIA, type Reply } from './responses';

// A stand-in for the service's UI, so the `links` of a query result open something when followed.

export const UI_PREFIX = '/ui';

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export function uiPage(path: string): Reply {
  const rest = path.slice(UI_PREFIX.length);
  const m = /^\/([^/]+)\/datasets\/([^/]+)\/result\/([^/]+)(\/snapshot)?$/.exec(rest);
  if (!m)
    return { status: 404, contentType: MEDIA.html, body: '<!DOCTYPE html><title>Not found</title><p>Not found</p>' };
  const [, team = '', dataset = '', id = '', snapshot] = m.map((p) => (p === undefined ? undefined : safeDecode(p)));
  if (snapshot !== undefined) {
    const svg =
      '<svg xmlns="http://www.w3.org/2000/svg" width="320" height="120"><rect width="320" height="120" fill="#eee"/>' +
      `<text x="10" y="60" font-family="sans-serif" font-size="14">${escapeHtml(`${dataset} / ${id}`)}</text></svg>`;
    return { status: 200, contentType: 'image/svg+xml', body: svg };
  }
  const title = `Query result ${id} in ${dataset} (${team})`;
  return {
    status: 200,
    contentType: MEDIA.html,
    body: `<!DOCTYPE html><html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body><h1>${escapeHtml(title)}</h1><p>Local sandbox: results are not rendered.</p></body></html>`,
  };
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
