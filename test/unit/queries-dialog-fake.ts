// The dialogue of "Run Saved Query..." in plain Node: the in-memory `vscode` (vscode-fake.ts) with VS Code's
// quick pick and input box as far as the dialogue uses them, spoken for by the test (`user`). The fakes
// only report what VS Code would; what the dialogue does with it is the code's. Import this file before any
// module that imports `vscode`.
import { EventEmitter, vscode } from './vscode-fake';

interface Item {
  label: string;
  value?: string;
}

/** VS Code's quick pick as far as the dialogue uses it; the user acts once its items have loaded. */
export class FakeQuickPick {
  title = '';
  placeholder = '';
  value = '';
  items: Item[] = [];
  selectedItems: Item[] = [];
  private loading = false;
  private readonly accepted = new EventEmitter<void>();
  private readonly hidden = new EventEmitter<void>();
  readonly onDidAccept = this.accepted.event;
  readonly onDidHide = this.hidden.event;

  get busy(): boolean {
    return this.loading;
  }
  set busy(busy: boolean) {
    const loaded = this.loading && !busy;
    this.loading = busy;
    if (loaded) user.picks.shift()?.(this);
  }
  show(): void {
    picks.push(this);
  }
  /** The user chooses the item whose label ends with `label` (Enter). */
  choose(label: string): void {
    const item = this.items.find((i) => i.label.endsWith(label));
    if (item === undefined) throw new Error(`no item "${label}" in ${this.items.map((i) => i.label).join(', ')}`);
    this.selectedItems = [item];
    this.accepted.fire();
  }
  dispose(): void {
    this.hidden.fire();
  }
}

export interface InputBoxOptions {
  value?: string;
  prompt?: string;
  validateInput?: (text: string) => unknown;
}

/** What the user does: at each pick once it has loaded, at each input box (its answer, or undefined: Escape). */
export const user = {
  picks: [] as ((qp: FakeQuickPick) => void)[],
  inputs: [] as ((box: InputBoxOptions) => string | undefined)[],
};
export const picks: FakeQuickPick[] = [];
export const boxes: InputBoxOptions[] = [];

Object.assign(vscode.window, {
  createQuickPick: () => new FakeQuickPick(),
  showInputBox: (options: InputBoxOptions): Promise<string | undefined> => {
    boxes.push(options);
    const answer = user.inputs.shift();
    return Promise.resolve(answer === undefined ? undefined : answer(options));
  },
});
Object.assign(vscode, { InputBoxValidationSeverity: { Info: 1, Warning: 2, Error: 3 } });
