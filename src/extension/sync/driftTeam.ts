// The team's recipients of a connection as drift needs them: listed the first time a file names a recipient by
// type and target (docs/ENVIRONMENTS.md), kept until Refresh or a write, so each reference is compared by the id
// it resolves to. A list the key may not read leaves those recipients not compared, said in the drift. No
// vscode import.
import {
  filesHoldReference,
  listTeam,
  withReferencesResolved,
  type LocalFile,
  type RecipientLister,
  type TeamRecipients,
} from '../../triggerFiles';

export class DriftTeam {
  private listed: Promise<TeamRecipients | undefined> | undefined;

  constructor(
    private readonly api: RecipientLister,
    private readonly log?: (message: string) => void,
  ) {}

  /** The next comparison lists the team again. */
  forget(): void {
    this.listed = undefined;
  }

  /** The files with the recipients they name by type and target resolved; the same map when none does. */
  async resolve(read: Map<string, LocalFile>): Promise<Map<string, LocalFile>> {
    if (!filesHoldReference(read.values())) return read;
    const team = await this.team();
    return new Map([...read].map(([uri, file]) => [uri, withReferencesResolved(file, team)] as const));
  }

  /** The team's recipients, listed the first time they are asked for; undefined when the list cannot be read. */
  team(): Promise<TeamRecipients | undefined> {
    this.listed ??= listTeam(this.api).then((r) => {
      if (!r.ok) this.log?.(`drift: the team's recipients could not be listed: ${r.reason}`);
      return r.ok ? r.team : undefined;
    });
    return this.listed;
  }
}
