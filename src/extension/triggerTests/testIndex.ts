// Which test files a saved file affects: the test file itself, and every test file that tests it when it is a
// trigger file (a test file names its trigger by default beside it, or by its `trigger` member, so several
// may test one trigger). Kept up to date file by file, each change costing the same whatever the workspace
// holds. Keys are URIs as text. No vscode import.

export class TestIndex {
  private readonly triggerOf = new Map<string, string | undefined>();
  private readonly testsOf = new Map<string, Set<string>>();

  /** The test file `test` tests `trigger` (undefined: none it can name). */
  set(test: string, trigger: string | undefined): void {
    this.delete(test);
    this.triggerOf.set(test, trigger);
    if (trigger === undefined) return;
    let tests = this.testsOf.get(trigger);
    if (!tests) this.testsOf.set(trigger, (tests = new Set()));
    tests.add(test);
  }

  delete(test: string): void {
    const trigger = this.triggerOf.get(test);
    this.triggerOf.delete(test);
    if (trigger === undefined) return;
    const tests = this.testsOf.get(trigger);
    tests?.delete(test);
    if (tests?.size === 0) this.testsOf.delete(trigger);
  }

  /** The test files to run again when `saved` is saved, in no particular order. */
  affectedBy(saved: string): string[] {
    const out = new Set(this.testsOf.get(saved) ?? []);
    if (this.triggerOf.has(saved)) out.add(saved);
    return [...out];
  }

  trigger(test: string): string | undefined {
    return this.triggerOf.get(test);
  }

  get size(): number {
    return this.triggerOf.size;
  }
}
