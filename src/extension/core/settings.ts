// Every setting the extension reads, typed, with its default, and one change event. No vscode import:
// the configuration is reached through `ConfigurationSource` (configuration.ts adapts vscode's), so the rules
// here are tested in plain Node.
import { ENVIRONMENTS_FILE_NAME } from '../../triggerFiles/paths';
import { Emitter } from './memento';

/** The settings by their names in code; KEYS gives each its key in settings.json. */
export type SettingName =
  | 'concurrency'
  | 'metricsDatasets'
  | 'triggerFiles'
  | 'burnAlertFiles'
  | 'definitionsFiles'
  | 'rulesDocsUrl'
  | 'caCertificates'
  | 'httpProxy'
  | 'pullFolder'
  | 'burnAlertPullFolder'
  | 'definitionsPullFolder'
  | 'pullRecipients'
  | 'environmentsFile'
  | 'noiseMaxPerWeek';

const SETTING_KEYS: Readonly<Record<SettingName, string>> = {
  concurrency: 'obs.concurrency',
  metricsDatasets: 'obs.metricsDatasets',
  triggerFiles: 'obs.triggerFiles',
  burnAlertFiles: 'obs.burnAlertFiles',
  definitionsFiles: 'obs.definitionsFiles',
  rulesDocsUrl: 'obs.rulesDocsUrl',
  caCertificates: 'obs.caCertificates',
  pullFolder: 'obs.pullFolder',
  burnAlertPullFolder: 'obs.burnAlertPullFolder',
  definitionsPullFolder: 'obs.definitionsPullFolder',
  pullRecipients: 'obs.pullRecipients',
  environmentsFile: 'obs.environmentsFile',
  noiseMaxPerWeek: 'obs.noise.maxNotificationsPerWeek',
  // VS Code's own proxy setting: the service client goes through it too.
  httpProxy: 'http.proxy',
};

/** package.json's default of obs.triggerFiles, also used when the setting holds no list. */
export const DEFAULT_TRIGGER_FILES: readonly string[] = ['**/*.trigger.json', '**/triggers/**/*.json'];
/** package.json's defaults of obs.burnAlertFiles and obs.definitionsFiles. */
export const DEFAULT_BURN_ALERT_FILES: readonly string[] = ['**/*.burn-alert.json'];
export const DEFAULT_DEFINITIONS_FILES: readonly string[] = ['**/*.definitions.json'];
const DEFAULT_CONCURRENCY = 4;
const DEFAULT_PULL_FOLDER = 'triggers';
/** As `obs pull`'s --burn-alerts-out and --definitions-out. */
const DEFAULT_BURN_ALERT_PULL_FOLDER = 'burn-alerts';
const DEFAULT_DEFINITIONS_PULL_FOLDER = 'definitions';
export const DEFAULT_NOISE_MAX_PER_WEEK = 7;

export type ConfigurationTarget = 'workspace' | 'global';

/** The slice of vscode.workspace configuration the settings need, by full key (`obs.concurrency`). */
export interface ConfigurationSource {
  get(key: string): unknown;
  /** The value set in the workspace and in the user settings, if any. */
  inspect(key: string): { workspaceValue?: unknown; globalValue?: unknown } | undefined;
  update(key: string, value: unknown, target: ConfigurationTarget): PromiseLike<void>;
  /** Fires on every configuration change with a test for the keys it affects. */
  onDidChange(listener: (affects: (key: string) => boolean) => void): { dispose(): void };
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((s): s is string => typeof s === 'string') : [];
}

export class Settings {
  private readonly changed = new Emitter<ReadonlySet<SettingName>>();
  /** Fires with the settings whose value changed (from the user's settings, or the sandbox's datasets). */
  readonly onDidChange = this.changed.event;
  private session = new Set<string>();
  private readonly subscription: { dispose(): void };

  constructor(private readonly source: ConfigurationSource) {
    this.subscription = source.onDidChange((affects) => {
      const names = (Object.keys(SETTING_KEYS) as SettingName[]).filter((name) => affects(SETTING_KEYS[name]));
      if (names.length > 0) this.changed.fire(new Set(names));
    });
  }

  /** How many service requests the Datasets view makes at once. */
  concurrency(): number {
    const value = this.source.get(SETTING_KEYS.concurrency);
    return typeof value === 'number' ? value : DEFAULT_CONCURRENCY;
  }

  /**
   * Metrics datasets: the setting plus those a running local sandbox reports. The sandbox's count only
   * while it runs, so the user's settings are never touched by it.
   */
  metricsDatasets(): string[] {
    return [...new Set([...strings(this.source.get(SETTING_KEYS.metricsDatasets)), ...this.session])].sort();
  }

  /** The datasets of this session's sandbox (empty when it stops); fires a change when the list differs. */
  setSessionMetricsDatasets(slugs: Iterable<string>): void {
    const next = new Set(slugs);
    const same = next.size === this.session.size && [...next].every((s) => this.session.has(s));
    this.session = next;
    if (!same) this.changed.fire(new Set<SettingName>(['metricsDatasets']));
  }

  /**
   * Adds or removes a dataset in obs.metricsDatasets, where the user keeps it: the workspace's list when
   * the workspace sets one, else the user settings.
   */
  async markMetricsDataset(slug: string, on: boolean): Promise<void> {
    const key = SETTING_KEYS.metricsDatasets;
    const inspected = this.source.inspect(key);
    const target: ConfigurationTarget = inspected?.workspaceValue !== undefined ? 'workspace' : 'global';
    const current = strings(target === 'workspace' ? inspected?.workspaceValue : inspected?.globalValue);
    const next = on ? [...new Set([...current, slug])].sort() : current.filter((s) => s !== slug);
    await this.source.update(key, next, target);
  }

  /** Glob patterns of the trigger files linted while editing (blank entries ignored). */
  triggerFiles(): string[] {
    return this.patterns('triggerFiles', DEFAULT_TRIGGER_FILES);
  }

  /** Glob patterns of the burn alert files linted while editing (blank entries ignored). */
  burnAlertFiles(): string[] {
    return this.patterns('burnAlertFiles', DEFAULT_BURN_ALERT_FILES);
  }

  /** Glob patterns of the dataset definitions files linted while editing (blank entries ignored). */
  definitionsFiles(): string[] {
    return this.patterns('definitionsFiles', DEFAULT_DEFINITIONS_FILES);
  }

  /** A list of glob patterns; the default when the setting is not a list. */
  private patterns(name: SettingName, fallback: readonly string[]): string[] {
    const value = this.source.get(SETTING_KEYS[name]);
    if (!Array.isArray(value)) return [...fallback];
    return strings(value).filter((p) => p.trim() !== '');
  }

  /**
   * The folder a pull writes trigger files into, relative to the workspace folder (or absolute); the
   * default when unset or blank. Where it may lead is checked where it is used (sync/pullFolder.ts).
   */
  pullFolder(): string {
    return this.folder('pullFolder', DEFAULT_PULL_FOLDER);
  }

  /** The folder a pull writes burn alert files into, as pullFolder is read. */
  burnAlertPullFolder(): string {
    return this.folder('burnAlertPullFolder', DEFAULT_BURN_ALERT_PULL_FOLDER);
  }

  /** The folder a pull writes definitions files into, as pullFolder is read. */
  definitionsPullFolder(): string {
    return this.folder('definitionsPullFolder', DEFAULT_DEFINITIONS_PULL_FOLDER);
  }

  /** How a pull names recipients in the files it writes: by id (the default), or by type and target. */
  pullRecipients(): 'id' | 'target' {
    return this.source.get(SETTING_KEYS.pullRecipients) === 'target' ? 'target' : 'id';
  }

  /** The environments file, relative to a workspace folder's root, as `obs --environments` takes it. */
  environmentsFile(): string {
    return this.folder('environmentsFile', ENVIRONMENTS_FILE_NAME);
  }

  /** A folder setting trimmed; the default when unset or blank. */
  private folder(name: SettingName, fallback: string): string {
    const value = this.source.get(SETTING_KEYS[name]);
    return typeof value === 'string' && value.trim() !== '' ? value.trim() : fallback;
  }

  /** The rule documentation address as set (checked where it is used: see lintMapping.rulesDocsPage). */
  rulesDocsUrl(): string | undefined {
    const value = this.source.get(SETTING_KEYS.rulesDocsUrl);
    return typeof value === 'string' ? value : undefined;
  }

  /** The noise report's budget: a trigger sending more notifications in a week gets a suggestion. */
  noiseMaxPerWeek(): number {
    const value = this.source.get(SETTING_KEYS.noiseMaxPerWeek);
    return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : DEFAULT_NOISE_MAX_PER_WEEK;
  }

  /** PEM files of extra certificate authorities. */
  caCertificates(): string[] {
    return strings(this.source.get(SETTING_KEYS.caCertificates));
  }

  /** VS Code's proxy, undefined when unset or empty. */
  httpProxy(): string | undefined {
    const value = this.source.get(SETTING_KEYS.httpProxy);
    return typeof value === 'string' && value !== '' ? value : undefined;
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }
}
