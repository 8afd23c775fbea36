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
    replace: 'if (earlier !== undefined) {\n          out.push(earlier, i);\n          for (let k = 0; k < i; k++) if (text.charCodeAt(k) === 0) break;\n        }',
    testFile: 'test/unit/lint-linear.test.ts',
    mustFail: ['duplicate members: the scan of twice the triggers does at most twice the work'],
  },
  {
    name: 'messages worded for triggers whose problems cannot be shown',
    file: 'src/lint/schema/wording.ts',
    find: "  if (!wording) return '';\n",
    replace: '',
    testFile: 'test/unit/lint-linear.test.ts',
    mustFail: ['triggers after the shown problems are checked without wording their messages: the wording work is that of the shown ones'],
  },
  {
    name: "zod's parse run for every trigger (the fast acceptance dropped)",
    file: 'src/lint/findings.ts',
    find: 'const valid = membersValid(trigger);',
    replace: 'const valid = membersValid(trigger) && false;',
    testFile: 'test/unit/lint-accepts.test.ts',
    mustFail: ['1,000 valid triggers, and 1,000 as the service lists them (3,000 infos), are checked without a zod parse'],
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
    file: 'src/triggerFiles/plan.ts',
    find: 'return given.length === expected.length && timingSafeEqual(given, expected);',
    replace: 'return given.length === expected.length || true;',
    testFile: 'test/unit/cli-apply-tampering.test.ts',
    mustFail: ['a plan edited in any member after it was saved writes nothing: its seal no longer holds'],
  },
];
