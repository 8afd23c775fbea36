// The environments files of the workspace (docs/ENVIRONMENTS.md), one per workspace folder, as last read from
// disk. Only a file that reads without a mistake is used: a broken one names no environment, so that nothing
// is ever planned with half an overlay. No vscode import: the adapter (environmentsWatcher.ts) reads the files,
// environmentsReader.ts their text.
import type { Environment, Environments, EnvironmentsProblem } from '../../triggerFiles/environments';
import { Emitter } from './memento';

/** A folder's environments file as last read: absent, usable, or refused with its mistakes. */
export type EnvironmentsFileState =
  | { readonly kind: 'absent' }
  | { readonly kind: 'read'; readonly environments: Environments; readonly text: string }
  | { readonly kind: 'broken'; readonly problems: readonly EnvironmentsProblem[] };

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
   * the text of the file it was read from (where a finding about an override is placed).
   */
  awayIn(folder: string, connection: string): (AwayEnvironment & { text: string }) | undefined {
    const state = this.files.get(folder);
    const away = state?.kind === 'read' ? awayEnvironmentOf(state.environments, connection) : undefined;
    return away === undefined || state?.kind !== 'read' ? undefined : { ...away, text: state.text };
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
