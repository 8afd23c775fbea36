// The walkthrough opens once, at the first activation after install. VS Code opens an installed
// extension's walkthrough by itself only in some hosts (it skips it, for instance, when its window did
// not have the focus at install time), so the extension asks for it, following the same user setting
// (workbench.welcomePage.walkthroughs.openOnInstall). Opening it again only reveals it.
import * as vscode from 'vscode';

export const WALKTHROUGH_ID = 'obs-tools.obs-vscode#obs.gettingStarted';
const SHOWN_KEY = 'obs.walkthrough.shown';
/** The workbench registers an extension's walkthroughs as the extension is added, a moment before or
 * after its activation: asking right away can find none and open the default one. */
const SETTLE_MS = 1500;

export async function openWalkthroughOnFirstRun(state: vscode.Memento): Promise<boolean> {
  if (state.get<boolean>(SHOWN_KEY) === true) return false;
  await state.update(SHOWN_KEY, true);
  if (vscode.workspace.getConfiguration('workbench').get<boolean>('welcomePage.walkthroughs.openOnInstall') === false) return false;
  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
  await vscode.commands.executeCommand('workbench.action.openWalkthrough', WALKTHROUGH_ID, false);
  return true;
}
