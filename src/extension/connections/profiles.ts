// Connection profiles: pure types and validation (no vscode import, so it is unit-tested in plain Node).
import * as l10n from '@vscode/l10n';
import type { Outcome } from '../../result';

export interface ConnectionProfile {
  id: string;
  name: string;
  baseUrl: string;
  uiUrl: string;
  team: string;
  environmentId: string;
}

/** The secret half of a connection: kept only in SecretStorage, never in a profile. */
export interface ConnectionSecrets {
  configKey?: string | undefined;
  managementKey?: string | undefined;
}

export type UrlCheck = Outcome<{ url: URL; warning?: string | undefined }>;

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK_HOSTS.has(hostname.toLowerCase()) || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}

/**
 * Checks a base or UI URL: it must parse, be http(s), carry no credentials, query or fragment.
 * Plain http to anything but loopback is allowed with a warning (keys would travel unencrypted).
 */
export function checkServiceUrl(text: string, what: string): UrlCheck {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: false, reason: l10n.t('{0} must not be empty', what) };
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return { ok: false, reason: l10n.t('{0} is not a valid URL (expected e.g. {1})', what, 'https://api.example.com') };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return { ok: false, reason: l10n.t('{0} must start with https:// or http://', what) };
  }
  if (url.username !== '' || url.password !== '') {
    return { ok: false, reason: l10n.t('{0} must not contain a user name or password', what) };
  }
  if (url.search !== '' || url.hash !== '') {
    return { ok: false, reason: l10n.t('{0} must not contain a query (?) or fragment (#)', what) };
  }
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    return { ok: true, url, warning: `${what} uses plain http: keys would be sent unencrypted to ${url.host}` };
  }
  return { ok: true, url };
}

/**
 * Whether two base URLs reach the same server (scheme, host and port). Keys stored for one origin are
 * never sent to another: a connection whose base URL moves must be given its keys again.
 */
export function sameOrigin(a: string, b: string): boolean {
  try {
    return new URL(a).origin === new URL(b).origin;
  } catch {
    return false;
  }
}

/** The URL as stored: without a trailing slash, so paths can be appended. */
export function normaliseUrl(url: URL): string {
  return url.href.replace(/\/+$/, '');
}

/** How long a connection name may be, and how much of one is shown. */
const NAME_MAX = 64;
/**
 * Characters that change how a name reads without being seen: controls, line breaks, and format characters
 * (bidi overrides such as U+202E that reverse the text after them, zero-width spaces that hide "prod").
 */
const HIDDEN_IN_NAMES = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;

/** The first hidden character of a name, as `U+202E`, and its position (1-based), or undefined. */
function hiddenCharacter(name: string): { code: string; position: number } | undefined {
  const chars = [...name];
  const index = chars.findIndex((c) => HIDDEN_IN_NAMES.test(c));
  if (index < 0) return undefined;
  const code = (chars[index]?.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0');
  return { code: `U+${code}`, position: index + 1 };
}

/**
 * A connection name as shown anywhere (status bar, the Datasets view's header, dialogs, pickers, titles,
 * forms): hidden characters as U+FFFD, so a stored name cannot reverse or hide the text around it and can
 * be seen to hold one; cut after 64 characters; `$(` made inert, where VS Code would draw an icon.
 */
export function connectionLabel(name: string): string {
  const chars = [...name.trim()].map((c) => (HIDDEN_IN_NAMES.test(c) ? '\uFFFD' : c));
  const shown = chars.length > NAME_MAX ? `${chars.slice(0, NAME_MAX - 1).join('')}\u2026` : chars.join('');
  return shown.replace(/\$\(/g, '$\u200B(');
}

export function checkName(name: string, others: readonly ConnectionProfile[], selfId?: string): string | undefined {
  const trimmed = name.trim();
  if (trimmed === '') return l10n.t('Connection name must not be empty');
  if (trimmed.length > NAME_MAX) return l10n.t('Connection name must be at most {0} characters', NAME_MAX);
  const hidden = hiddenCharacter(trimmed);
  if (hidden !== undefined) {
    return l10n.t(
      'Connection name must not contain control or invisible formatting characters, which change how the text around it reads: {0} at position {1}',
      hidden.code,
      hidden.position,
    );
  }
  const clash = others.find((p) => p.id !== selfId && p.name.toLowerCase() === trimmed.toLowerCase());
  if (clash) return l10n.t('A connection named "{0}" already exists', connectionLabel(clash.name));
  return undefined;
}

export function checkTeam(team: string): string | undefined {
  const trimmed = team.trim();
  if (trimmed === '') return l10n.t('Team slug must not be empty');
  if (/[\s/?#]/.test(trimmed)) return l10n.t('Team slug must not contain spaces, "/", "?" or "#"');
  return undefined;
}

export function checkEnvironmentId(id: string): string | undefined {
  const trimmed = id.trim();
  if (trimmed === '') return l10n.t('Environment id must not be empty');
  if (/\s/.test(trimmed)) return l10n.t('Environment id must not contain spaces');
  return undefined;
}

export function checkKey(key: string, what: string): string | undefined {
  if (key.trim() === '') return l10n.t('{0} must not be empty', what);
  if (/\s/.test(key.trim())) return l10n.t('{0} must not contain spaces', what);
  return undefined;
}

export type ProfileProblem = { field: keyof ConnectionProfile; message: string };

/** Validates a whole profile (for profiles read back from state, which may have been edited by hand). */
export function validateProfile(p: unknown): Outcome<{ profile: ConnectionProfile }, ProfileProblem[]> {
  const problems: ProfileProblem[] = [];
  if (typeof p !== 'object' || p === null)
    return { ok: false, reason: [{ field: 'id', message: l10n.t('not an object') }] };
  const rec = p as Record<string, unknown>;
  const str = (field: keyof ConnectionProfile): string => {
    const v = rec[field];
    if (typeof v !== 'string') {
      problems.push({ field, message: l10n.t('{0} must be a string', field) });
      return '';
    }
    return v;
  };
  const profile: ConnectionProfile = {
    id: str('id'),
    name: str('name'),
    baseUrl: str('baseUrl'),
    uiUrl: str('uiUrl'),
    team: str('team'),
    environmentId: str('environmentId'),
  };
  if (problems.length > 0) return { ok: false, reason: problems };
  if (profile.id === '') problems.push({ field: 'id', message: l10n.t('{0} must not be empty', 'id') });
  if (profile.name.trim() === '') problems.push({ field: 'name', message: l10n.t('{0} must not be empty', 'name') });
  for (const field of ['baseUrl', 'uiUrl'] as const) {
    const c = checkServiceUrl(profile[field], field);
    if (!c.ok) problems.push({ field, message: c.reason });
  }
  const t = checkTeam(profile.team);
  if (t) problems.push({ field: 'team', message: t });
  return problems.length > 0 ? { ok: false, reason: problems } : { ok: true, profile };
}

/** Production-like names get a warning colour in the status bar. */
export function looksLikeProduction(name: string): boolean {
  return /prod/i.test(name);
}

/** A fresh id that does not depend on the name (names can be edited). */
export function newConnectionId(random: () => string = () => crypto.randomUUID()): string {
  return `conn-${random()}`;
}
