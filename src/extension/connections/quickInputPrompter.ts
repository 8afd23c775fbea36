// The connection dialogue shown with VS Code's QuickInput, as its own multi-step inputs are: an InputBox per
// field with the step in its title and the Back button, and a QuickPick for the summary page. Each stays open
// when the focus moves elsewhere; Escape hides it, which ends the dialogue.
import * as vscode from 'vscode';
import type { Prompter, Reply, SummaryChoice, SummaryItem, SummaryPage } from './connectionWizard';
import type { WizardStep } from './wizardFields';

/** Shows one QuickInput until it settles, then disposes it. */
function settle<T>(
  input: vscode.QuickInput,
  wire: (done: (reply: Reply<T>) => void) => vscode.Disposable[],
): Promise<Reply<T>> {
  return new Promise((resolve) => {
    let settled = false;
    const subs: vscode.Disposable[] = [];
    const done = (reply: Reply<T>): void => {
      if (settled) return;
      settled = true;
      for (const s of subs) s.dispose();
      input.dispose();
      resolve(reply);
    };
    subs.push(
      ...wire(done),
      input.onDidHide(() => done({ kind: 'cancel' })),
    );
    input.show();
  });
}

function validation(step: WizardStep, value: string): vscode.InputBoxValidationMessage | undefined {
  const problem = step.validate(value);
  if (!problem) return undefined;
  const { Warning, Error } = vscode.InputBoxValidationSeverity;
  return { message: problem.message, severity: problem.severity === 'warning' ? Warning : Error };
}

function input(step: WizardStep): Promise<Reply<string>> {
  const box = vscode.window.createInputBox();
  box.title = step.title;
  box.step = step.step;
  box.totalSteps = step.totalSteps;
  box.prompt = step.prompt;
  box.placeholder = step.placeHolder;
  box.value = step.value ?? '';
  box.password = step.password === true;
  box.ignoreFocusOut = true;
  box.buttons = step.back ? [vscode.QuickInputButtons.Back] : [];
  box.validationMessage = box.value === '' ? undefined : validation(step, box.value);
  return settle<string>(box, (done) => [
    box.onDidChangeValue((v) => {
      box.validationMessage = validation(step, v);
    }),
    box.onDidAccept(() => {
      const problem = validation(step, box.value);
      box.validationMessage = problem;
      if (problem?.severity !== vscode.InputBoxValidationSeverity.Error) done({ kind: 'value', value: box.value });
    }),
    box.onDidTriggerButton((button) => {
      if (button === vscode.QuickInputButtons.Back) done({ kind: 'back' });
    }),
  ]);
}

interface ChoiceItem extends vscode.QuickPickItem {
  choice: SummaryChoice;
}

const sameChoice = (a: SummaryChoice, b: SummaryChoice): boolean =>
  a.kind === 'save' ? b.kind === 'save' : b.kind === 'field' && a.field === b.field;

function pick(page: SummaryPage): Promise<Reply<SummaryChoice>> {
  const quickPick = vscode.window.createQuickPick<ChoiceItem>();
  const items = page.items.map((item: SummaryItem): ChoiceItem => ({ ...item, alwaysShow: true }));
  quickPick.title = page.title;
  quickPick.placeholder = page.placeHolder;
  quickPick.ignoreFocusOut = true;
  quickPick.matchOnDescription = false;
  quickPick.buttons = page.back ? [vscode.QuickInputButtons.Back] : [];
  quickPick.items = items;
  quickPick.activeItems = items.filter((i) => sameChoice(i.choice, page.active));
  return settle<SummaryChoice>(quickPick, (done) => [
    quickPick.onDidAccept(() => {
      const chosen = quickPick.selectedItems[0] ?? quickPick.activeItems[0];
      if (chosen) done({ kind: 'value', value: chosen.choice });
    }),
    quickPick.onDidTriggerButton((button) => {
      if (button === vscode.QuickInputButtons.Back) done({ kind: 'back' });
    }),
  ]);
}

export const quickInputPrompter: Prompter = {
  input,
  pick,
  confirm: async (message, action) =>
    (await vscode.window.showWarningMessage(message, { modal: true }, action)) === action,
};
