// After a create, the new trigger's id goes into its file: one minimal edit (triggerFiles/fileId.ts), made
// only while the file is as the plan read it (or as an earlier id of the same apply left it), and never into a
// document open with unsaved edits: those edits are the user's, and saving them is not ours to decide; never
// into a link or a file outside its workspace folder. When the id cannot be written, the note says to add it.
// No vscode import.
import * as l10n from '@vscode/l10n';
import type { EditorFileState } from '../core/triggerFileAccess';
import { idEdit, sha256, type Plan, type PlannedChange, type TextEdit } from '../../triggerFiles';

export type { EditorFileState } from '../core/triggerFileAccess';

export interface IdDocuments {
  state(file: string): Promise<EditorFileState>;
  /** Applies the one edit and saves the file; answers its text as saved, or undefined when the editor refused. */
  editAndSave(file: string, edit: TextEdit): Promise<string | undefined>;
}

type Create = Extract<PlannedChange, { action: 'create' }>;

const addIt = (id: string) => l10n.t('add "id": {0} to it yourself', JSON.stringify(id));

/** The id write-back of an apply: answers a note for each create (said with its result). */
export function idWriter(plan: Plan, docs: IdDocuments): (change: Create, id: string) => Promise<string> {
  const expected = new Map(plan.files.map((f) => [f.file, f.sha256]));
  return async (change, id) => {
    const file = change.file;
    let state: EditorFileState;
    try {
      state = await docs.state(file);
    } catch (e) {
      return l10n.t(
        'its id was not written into {0} ({1}); {2}',
        file,
        e instanceof Error ? e.message : String(e),
        addIt(id),
      );
    }
    if ('gone' in state) return l10n.t('its id was not written into {0}: the file is gone; {1}', file, addIt(id));
    if ('refused' in state) {
      return state.refused === 'link'
        ? l10n.t(
            'its id was not written into {0}: the file is a link, and the edit would land where it leads; {1}',
            file,
            addIt(id),
          )
        : l10n.t(
            'its id was not written into {0}: the file lies outside its workspace folder once links are resolved; {1}',
            file,
            addIt(id),
          );
    }
    if (state.dirty)
      return l10n.t(
        'its id was not written into {0}: the file has unsaved changes in the editor; {1}',
        file,
        addIt(id),
      );
    if (sha256(state.text) !== expected.get(file))
      return l10n.t('its id was not written into {0}: the file changed since the plan; {1}', file, addIt(id));
    const edit = idEdit(state.text, change.index, id);
    if (edit === undefined)
      return l10n.t(
        'its id was not written into {0}: the trigger is no longer where the plan found it; {1}',
        file,
        addIt(id),
      );
    let saved: string | undefined;
    try {
      saved = await docs.editAndSave(file, edit);
    } catch (e) {
      return l10n.t(
        'its id was not written into {0} ({1}); {2}',
        file,
        e instanceof Error ? e.message : String(e),
        addIt(id),
      );
    }
    if (saved === undefined)
      return l10n.t('its id was not written into {0}: the editor did not take the edit; {1}', file, addIt(id));
    // Another trigger of the same file created next finds the file as this edit left it.
    expected.set(file, sha256(saved));
    return l10n.t('id written into {0}', file);
  };
}

/**
 * The note of a create on a connection other than the active one, or for an environment other than the home:
 * its id is not written into the file, whose ids are the active connection's or the home environment's (drift
 * and the next apply there read them); here the trigger is found again by its dataset and name.
 */
export function idNotWritten(whose: 'active' | 'home'): (change: Create, id: string) => Promise<string> {
  return (change, id) =>
    Promise.resolve(
      whose === 'active'
        ? l10n.t(
            "its id {0} was not written into {1}: the file's ids are the active connection's, and on this one it is found by its dataset and name",
            JSON.stringify(id),
            change.file,
          )
        : l10n.t(
            "its id {0} was not written into {1}: the file's ids are the home environment's, and in this one it is found by its dataset and name",
            JSON.stringify(id),
            change.file,
          ),
    );
}
