// Entry point of dist/forms-host.js: the forms, their controllers and their message schemas, loaded
// by registerForms.ts the first time a form is opened or restored, so that activation does not pay
// for them (zod schemas are costly to build).
import type * as vscode from 'vscode';
import { configurePageText } from '../core/pageL10nSetup';
import { ApiKeyPanels } from './apiKeyPanels';
import { BurnAlertPanel } from './burnAlertPanel';
import { DefinitionsPanel } from './definitionsPanel';
import { FormFiles } from './formFiles';
import { FormPanels, type FormHandlers, type FormsDeps } from './panels';

export interface LoadedForms extends FormHandlers, vscode.Disposable {
  /** The open form panels. */
  panels: FormPanels;
}

export function createForms(deps: FormsDeps): LoadedForms {
  // This bundle has its own copy of @vscode/l10n (see core/l10nSetup.ts).
  configurePageText();
  const panels = new FormPanels(deps);
  const files = new FormFiles(deps.filePatterns);
  const all = [
    new ApiKeyPanels(panels).handlers(),
    new BurnAlertPanel(panels, files).handlers(),
    new DefinitionsPanel(panels, files).handlers(),
    { commands: { 'obs.form.openAsFile': () => files.openActive() }, restorers: {} },
  ];
  return {
    commands: Object.assign({}, ...all.map((h) => h.commands)) as FormHandlers['commands'],
    restorers: Object.assign({}, ...all.map((h) => h.restorers)) as FormHandlers['restorers'],
    panels,
    dispose: () => {
      panels.dispose();
      files.dispose();
    },
  };
}
