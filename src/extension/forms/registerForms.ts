// Registers every form: their commands, serializers and the review documents; `probe` is the test hook.
import type * as vscode from 'vscode';
import { ApiKeyPanels } from './apiKeyPanels';
import { BurnAlertPanel } from './burnAlertPanel';
import { DefinitionsPanel } from './definitionsPanel';
import { FormPanels, type FormsDeps, type FormsProbe } from './panels';

export function registerForms(deps: FormsDeps): { registrations: vscode.Disposable[]; probe: FormsProbe } {
  const panels = new FormPanels(deps);
  return {
    registrations: [panels, ...new ApiKeyPanels(panels).registrations(), ...new BurnAlertPanel(panels).registrations(), ...new DefinitionsPanel(panels).registrations()],
    probe: panels.probe(),
  };
}
