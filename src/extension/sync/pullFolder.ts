// Where the obs.pullFolder setting (and the burn alert and definitions folders' settings) lets a pull write. The setting may come from the workspace's own
// settings, which whoever made the repository chose, so its folder must stay inside the workspace
// folder: no absolute path in Restricted Mode, no `..` climbing out ever, and no link leading out (the
// real path is checked). A folder the user picks in the folder dialog is theirs and is not checked
// here. No vscode import.
import * as l10n from '@vscode/l10n';
import { within } from '../../triggerFiles';

export type SettingFolder =
  /** Inside the workspace folder, these path segments down. */
  | { kind: 'relative'; segments: string[] }
  /** An absolute path (a trusted workspace on the local disk only); checked against the workspace folder after. */
  | { kind: 'absolute'; path: string }
  | { kind: 'refused'; reason: string };

/** The setting named when none is given: the trigger files' folder. */
const SETTING = 'obs.pullFolder';
/** The picker's own choice, named in the messages with the words it has there. */
const chooseAnother = () => l10n.t('Choose Another Folder...');
const ABSOLUTE = /^([a-zA-Z]:|[\\/])/;

/** The folder the setting (`name`) names, relative to a workspace folder, or why it is refused. */
export function settingFolder(
  setting: string,
  o: { trusted: boolean; localDisk: boolean },
  name: string = SETTING,
): SettingFolder {
  if (ABSOLUTE.test(setting)) {
    if (o.trusted && o.localDisk) return { kind: 'absolute', path: setting };
    return {
      kind: 'refused',
      reason: o.trusted
        ? l10n.t(
            'The "{0}" setting is an absolute path ({1}), which is used only for a workspace folder on this computer. Choose the folder with "{2}".',
            name,
            setting,
            chooseAnother(),
          )
        : l10n.t(
            'The "{0}" setting is an absolute path ({1}); in Restricted Mode a pull writes only inside the workspace folder. Choose the folder with "{2}".',
            name,
            setting,
            chooseAnother(),
          ),
    };
  }
  const segments: string[] = [];
  for (const part of setting.split(/[\\/]/)) {
    if (part === '' || part === '.') continue;
    if (part !== '..') segments.push(part);
    else if (segments.pop() === undefined) {
      return {
        kind: 'refused',
        reason: l10n.t(
          'The "{0}" setting ({1}) leads outside the workspace folder. Choose such a folder with "{2}".',
          name,
          setting,
          chooseAnother(),
        ),
      };
    }
  }
  return { kind: 'relative', segments };
}

/**
 * Why a folder taken from the setting may not be written, once links are resolved: it really lies
 * outside the workspace folder. Undefined when it lies inside.
 */
export async function outsideWorkspace(
  folder: string,
  workspace: string,
  realPath: (path: string) => Promise<string>,
  name: string = SETTING,
): Promise<string | undefined> {
  const [real, base] = await Promise.all([realPath(folder), realPath(workspace)]);
  if (within(base, real)) return undefined;
  return l10n.t(
    'The folder of the "{0}" setting, {1}, really lies at {2}, outside the workspace folder {3}. Choose it with "{4}" to pull there.',
    name,
    folder,
    real,
    workspace,
    chooseAnother(),
  );
}
