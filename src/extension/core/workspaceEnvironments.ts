// The environments files of the workspace (docs/ENVIRONMENTS.md), one per workspace folder, as last read from
// disk. Only a file that reads without a mistake is used: a broken one names no environment, so that nothing
// is ever planned with half an overlay. No vscode import: the adapter (environmentsWatcher.ts) reads the files,
// environmentsReader.ts their text.
import type { Environment, Environments, EnvironmentsProblem } from '../../triggerFiles/environments';
import type { Diagnostic } from '../../lint/types';
import { Emitter } from './memento';

/** A folder's environments file as last read: absent, usable, or refused with its mistakes. */
export type EnvironmentsFileState =
  | { readonly kind: 'absent' }
  | {
      readonly kind: 'read';
      readonly environments: Environments;
      /** The file's text as read: where its findings are placed. */
      readonly text: string;
      readonly views: EnvironmentViews;
    }
  | { readonly kind: 'broken'; readonly problems: readonly EnvironmentsProblem[] };

/**
 * A trigger file as an environment of a folder's file sees it (made by the file's reader, environmentsReader.ts):
 * its effective text, and the lint view that places the linter's findings of that text where each is fixed.
 */
export interface EnvironmentViews {
  effectiveText(environment: string, text: string): string | undefined;
  lintView(
    environment: string,
    text: string,
  ): { text: string; place(found: readonly Diagnostic[]): { here: Diagnostic[]; there: Diagnostic[] } } | undefined;
}

/** What a connection is in the workspace: the environment (and folder) whose file names it as its connection. */
export interface ConnectionEnvironment {
  readonly folder: string;
  readonly environment: string;
  readonly home: boolean;
}

export class WorkspaceEnvironments {
  private readonly files = new Map<string, EnvironmentsFileState>();
  private readonly changed = new Emitter<void>();
  /** Fires once per batch of folders whose file changed. */
  readonly onDidChange = this.changed.event;

  /** Sets what each folder's file now holds (a folder absent from `states` keeps its state). */
  update(states: ReadonlyMap<string, EnvironmentsFileState>): void {
    for (const [folder, state] of states) {
      if (state.kind === 'absent') this.files.delete(folder);
      else this.files.set(folder, state);
    }
    if (states.size > 0) this.changed.fire();
  }

  /** Forgets every folder but those given (folders removed from the workspace). */
  keepOnly(folders: ReadonlySet<string>): void {
    const gone = [...this.files.keys()].filter((f) => !folders.has(f));
    gone.forEach((f) => this.files.delete(f));
    if (gone.length > 0) this.changed.fire();
  }

  /** Whether a folder's usable file names an environment other than the home one (what can be shown as it sees). */
  anyOtherThanHome(): boolean {
    return [...this.files.values()].some((s) => s.kind === 'read' && s.environments.environments.size > 1);
  }

  /** A folder's environments, when its file reads without a mistake. */
  environmentsOf(folder: string): Environments | undefined {
    const state = this.files.get(folder);
    return state?.kind === 'read' ? state.environments : undefined;
  }

  /**
   * The environment other than the home one that this connection is in a folder (as overlaysOfConnection), with
   * the views of a trigger file as it sees it.
   */
  awayIn(folder: string, connection: string): (AwayEnvironment & { views: EnvironmentViews }) | undefined {
    const state = this.files.get(folder);
    const away = state?.kind === 'read' ? awayEnvironmentOf(state.environments, connection) : undefined;
    return away === undefined || state?.kind !== 'read' ? undefined : { ...away, views: state.views };
  }

  /**
   * What a trigger file's lint on this connection depends on in the environments files: for each folder where it
   * is an environment other than the home one, that environment and its file's text. Equal, nothing to lint again.
   */
  seenKey(connection: string | undefined): string {
    if (connection === undefined) return '';
    const away = [...this.overlaysOfConnection(connection)].map(([folder, env]) => {
      const state = this.files.get(folder);
      return [folder, env.name, state?.kind === 'read' ? state.text : ''];
    });
    return away.length === 0 ? '' : JSON.stringify(away);
  }

  /** Each environment whose `connection` is this connection's name, in usable files (folders in the order read). */
  environmentsOfConnection(connection: string): ConnectionEnvironment[] {
    const out: ConnectionEnvironment[] = [];
    for (const [folder, state] of this.files) {
      if (state.kind !== 'read') continue;
      for (const [name, env] of state.environments.environments) {
        if (env.connection === connection)
          out.push({ folder, environment: name, home: name === state.environments.home });
      }
    }
    return out;
  }

  /**
   * By folder, the environment other than the home one that this connection is there, with its overlay: what drift
   * compares the folder's files as. A folder where the connection is the home environment, or is named by several
   * environments (which one is meant cannot be told), is left out: its files are compared as they are.
   */
  overlaysOfConnection(connection: string): Map<string, AwayEnvironment> {
    const out = new Map<string, AwayEnvironment>();
    for (const [folder, state] of this.files) {
      const away = state.kind === 'read' ? awayEnvironmentOf(state.environments, connection) : undefined;
      if (away !== undefined) out.set(folder, away);
    }
    return out;
  }

  dispose(): void {
    this.changed.dispose();
  }
}

/** An environment other than the home one: its name and its overlay. */
export interface AwayEnvironment {
  name: string;
  overlay: Environment;
}

/**
 * The environment other than the home one that a file names on this connection, which the connection then is
 * for the folder's files (drift compares as it sees, Apply plans for it); undefined when the file names none, the
 * home, or several (which one is meant cannot be told).
 */
export function awayEnvironmentOf(envs: Environments, connection: string): AwayEnvironment | undefined {
  const [only, ...more] = [...envs.environments].filter(([, env]) => env.connection === connection);
  if (only === undefined || more.length > 0 || only[0] === envs.home) return undefined;
  return { name: only[0], overlay: only[1] };
}

/** The environments' names, each once, as the status bar shows them; undefined for none. */
export function environmentNames(list: readonly ConnectionEnvironment[]): string | undefined {
  const names = [...new Set(list.map((e) => e.environment))];
  return names.length === 0 ? undefined : names.join(', ');
}

/**
 * A trigger file's text as a connection's environment sees it, when the connection is an environment other than
 * the home one of the file's folder (its override, dataset, saved query and recipients mapped, as `obs test --env`
 * and `obs noise --env` evaluate it), with that environment's name; else the text as it is. A text that is not a
 * trigger file stays as it is (its reader says why), the environment still named.
 */
export function seenText(
  environments: WorkspaceEnvironments,
  folder: string | undefined,
  connection: string | undefined,
  text: string,
): { text: string; environment?: string } {
  const away = folder === undefined || connection === undefined ? undefined : environments.awayIn(folder, connection);
  return away === undefined
    ? { text }
    : { text: away.views.effectiveText(away.name, text) ?? text, environment: away.name };
}
