// A test file names the trigger file it tests by a path of its own (`"trigger": "../x.trigger.json"`), and
// the run sends that file's query to the service: a test file from someone else's repository must not make
// the editor read a file outside the workspace folder it lies in, neither by its path nor through a link.
// No vscode import.
import * as l10n from '@vscode/l10n';
import { placeIn } from '../../triggerFiles/contained';

/**
 * Why the trigger file `file` (a local path) is not read for a test file of the workspace folder `folder`,
 * or undefined when it lies inside it. A file that does not exist is left to the read, which says so.
 */
export async function outsideFolder(folder: string, file: string): Promise<string | undefined> {
  switch (await placeIn(folder, file)) {
    case 'inside':
      return undefined;
    case 'outside':
      return l10n.t('it lies outside the workspace folder of the test file, so it is not read');
    default:
      return l10n.t('it is a link leading outside the workspace folder of the test file, so it is not read');
  }
}
