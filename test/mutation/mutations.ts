// Known-bad edits the named tests must catch: each mutation changes one file of a copy of the project
// (`find` must occur exactly once), and the run requires every named test to fail on the mutated copy
// after passing on the unmutated one. A test that still passes with the code wrong measures nothing.

export interface Mutation {
  /** What the edit breaks, in words. */
  readonly name: string;
  readonly file: string;
  readonly find: string;
  readonly replace: string;
  /** The test file run, and the titles (as written) of its tests that must fail. */
  readonly testFile: string;
  readonly mustFail: readonly string[];
}

export const MUTATIONS: readonly Mutation[] = [
  {
    name: 'a quadratic rescan in the duplicate-member scan (the text read again from its start at each duplicate)',
    file: 'src/lint/duplicates.ts',
    find: 'if (earlier !== undefined) out.push(earlier, i);',
    replace:
      'if (earlier !== undefined) {\n          out.push(earlier, i);\n          for (let k = 0; k < i; k++) if (text.charCodeAt(k) === 0) break;\n        }',
    testFile: 'test/unit/lint-linear.test.ts',
    mustFail: ['duplicate members: the scan of twice the triggers does at most twice the work'],
  },
  {
    name: 'messages worded for triggers whose problems cannot be shown',
    file: 'src/lint/schema/wording.ts',
    find: "  if (!wording) return '';\n",
    replace: '',
    testFile: 'test/unit/lint-linear.test.ts',
    mustFail: [
      'triggers after the shown problems are checked without wording their messages: the wording work is that of the shown ones',
    ],
  },
  {
    name: "zod's parse run for every trigger (the fast acceptance dropped)",
    file: 'src/lint/findings.ts',
    find: 'const valid = membersValid(trigger);',
    replace: 'const valid = membersValid(trigger) && false;',
    testFile: 'test/unit/lint-accepts.test.ts',
    mustFail: [
      '1,000 valid triggers, and 1,000 as the service lists them (3,000 infos), are checked without a zod parse',
    ],
  },
  {
    name: 'the stale-lock check dropped (every holder taken for running)',
    file: 'src/cli/applyFiles.ts',
    find: '    process.kill(pid, 0);\n    return true;',
    replace: '    return pid > 0;',
    testFile: 'test/unit/cli-apply-tampering.test.ts',
    mustFail: ['a lock left by an apply that no longer runs is named as such, and not taken over'],
  },
  {
    name: "a saved plan's seal not checked",
    file: 'src/triggerFiles/planSeal.ts',
    find: 'return given.length === expected.length && timingSafeEqual(given, expected);',
    replace: 'return given.length === expected.length || true;',
    testFile: 'test/unit/cli-apply-tampering.test.ts',
    mustFail: ['a plan edited in any member after it was saved writes nothing: its seal no longer holds'],
  },
  {
    name: "a superseded edit's debounce left running (its wait not cleared by the next edit)",
    file: 'src/extension/diagnostics/lintScheduler.ts',
    find: '      if (previous.timer !== undefined) this.clock.clearTimeout(previous.timer);\n',
    replace: '',
    testFile: 'test/unit/ext-lintScheduler.test.ts',
    mustFail: ["a burst of 50 edits lints once, 150 ms after the last one: each edit's wait is cleared by the next"],
  },
  {
    name: "a deleted folder's Problems entries looked up by walking the whole index by path",
    file: 'src/extension/diagnostics/uriTree.ts',
    find: '    let at: Node<T> | undefined = this.root;',
    replace:
      '    const all: Node<T>[] = [this.root];\n    for (let n = all.pop(); n !== undefined; n = all.pop()) for (const c of n.children.values()) all.push(c);\n    let at: Node<T> | undefined = this.root;',
    testFile: 'test/unit/ext-problemsIndex.test.ts',
    mustFail: [
      'a folder of 10 files deleted among 10,000 Problems entries: its entries are found in the work it takes among 200, without scanning Problems',
    ],
  },
  {
    name: 'a saved trigger file read again from disk (the text saved not used alone)',
    file: 'src/extension/sync/driftModel.ts',
    find: "      if (e.kind === 'changed' && e.text === undefined) toRead.push(uri);",
    replace:
      "      if (e.kind === 'changed' && e.text === undefined) toRead.push(uri);\n      else if (e.kind === 'changed') await this.o.workspace.read(uri);",
    testFile: 'test/unit/sync-drift-model.test.ts',
    mustFail: [
      'a saved file is compared alone, with the text saved, against the cached list (no list call, no file read)',
    ],
  },
  {
    name: "the drift snapshot built again at every read (the views' one build per change dropped)",
    file: 'src/extension/sync/driftModel.ts',
    find: '    if (this.cached !== undefined) return this.cached;\n',
    replace: '',
    testFile: 'test/unit/sync-drift-model.test.ts',
    mustFail: [
      '4,000 files changed at once (a branch switch) are applied as one batch: one change event, each file read and compared once, one snapshot',
    ],
  },
  {
    name: "the Drift view's rows made again at every read (the rows of unchanged files not kept)",
    file: 'src/extension/sync/driftViews.ts',
    find: '    const kept = this.fileRows.get(f.file);\n    if (kept?.drift === f) return kept.row;\n',
    replace:
      '    const kept = this.fileRows.get(f.file);\n    if (kept?.drift === f && kept.drift !== f) return kept.row;\n',
    testFile: 'test/unit/sync-drift-scale.test.ts',
    mustFail: ['with the Drift view shown, a file changed after a switch makes its own row and item again, no other'],
  },
  {
    name: 'a batch of file events closed a window after its first event (no trailing debounce)',
    file: 'src/extension/core/batch.ts',
    find: '    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);\n    this.timer = this.clock.setTimeout(',
    replace: '    this.timer ??= this.clock.setTimeout(',
    testFile: 'test/unit/ext-batch.test.ts',
    mustFail: ['with a maximum wait, a batch is handed over once no event came for the window'],
  },
  {
    name: 'a window one evaluation too early (the history asked for starts a frequency before the first evaluation it needs)',
    file: 'src/backtest/history.ts',
    find: '  return t - f;\n}',
    replace: '  return t - 2 * f;\n}',
    testFile: 'test/unit/backtest-windows.test.ts',
    mustFail: [
      'the engine counts what the whole history counts, asks for exactly the oldest data the window needs, and is not testable exactly when that is older than the service keeps (property)',
    ],
  },
  {
    name: "the noise report counting a firing already under way when its window opens as one of the window's notifications",
    file: 'src/backtest/noise.ts',
    find: "if (rules.alertType === 'on_true' ? now : begins) {",
    replace: "if (rules.alertType === 'on_true' ? now : begins || (now && !inWindowBefore)) {",
    testFile: 'test/unit/backtest-windows.test.ts',
    mustFail: [
      "over its window, its notifications and firings are those of an at-most expectation over the same window, and the whole history's (property)",
    ],
  },
];
