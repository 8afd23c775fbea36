// Registers every form's commands and panel serializers at activation, and loads the forms themselves
// (dist/forms-host.js: controllers, message schemas, zod) only when a form is first opened or restored.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { FORM_COMMANDS, FORM_VIEW_TYPES } from './formIds';
import type { LoadedForms } from './formsHost';
import type { FormPanels, FormsDeps } from './panels';
import { ReviewDocuments } from './reviewDocuments';

export interface RegisteredForms {
  registrations: vscode.Disposable[];
  /** The open form panels; undefined until a form was first opened or restored (for the test seam, testSeam.ts). */
  panels(): FormPanels | undefined;
}

export function registerForms(deps: Omit<FormsDeps, 'reviews'>): RegisteredForms {
  const reviews = new ReviewDocuments();
  let loaded: LoadedForms | undefined;
  const load = (): LoadedForms => {
    if (loaded === undefined) {
      // A runtime require of the separate bundle: esbuild leaves a non-literal require alone.
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- a separate bundle, loaded at run time on purpose
      const host = require(path.join(deps.extensionUri.fsPath, 'dist', 'forms-host.js')) as {
        createForms: (d: FormsDeps) => LoadedForms;
      };
      loaded = host.createForms({ ...deps, reviews });
    }
    return loaded;
  };
  const missing = (what: string) => Promise.reject(new Error(`the forms have no ${what}`));
  return {
    registrations: [
      reviews,
      reviews.register(),
      ...FORM_COMMANDS.map((c) =>
        deps.feedback.registerCommand(
          c.id,
          c.doing,
          (arg) => load().commands[c.id]?.(arg) ?? missing(`command ${c.id}`),
        ),
      ),
      ...FORM_VIEW_TYPES.map((viewType) =>
        vscode.window.registerWebviewPanelSerializer(viewType, {
          deserializeWebviewPanel: (panel, state: unknown) =>
            load().restorers[viewType]?.(panel, state) ?? missing(`restorer for ${viewType}`),
        }),
      ),
      new vscode.Disposable(() => loaded?.dispose()),
    ],
    panels: () => loaded?.panels,
  };
}
