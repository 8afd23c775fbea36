// The test's stand-in for `obs review --changed-since REF --comment PATH...` in action.test.ts, until obs has
// its review command: the report is the text of `obs plan --match-by-name --prune PATH...` (the obs the action
// installed, from PATH), posted by the comment module review uses (src/cli/github/comment.ts) with the job's
// environment, as review would. Exit 0 posted (or nothing to post), 2 trouble, as obs's commands exit.
import { spawnSync } from 'node:child_process';
import { postReviewComment } from '../../src/cli/github/comment';

/** The obs the action installed, found on the PATH its install step extended. */
const OBS = 'obs';

async function main(args: string[]): Promise<number> {
  const at = args.indexOf('--changed-since');
  if (at < 0 || args[at + 1] === undefined || !args.includes('--comment')) {
    process.stderr.write('obs review stand-in: expected --changed-since REF --comment PATH...\n');
    return 2;
  }
  const paths = args.filter((a, i) => !a.startsWith('--') && i !== at + 1);
  const plan = spawnSync(OBS, ['plan', '--match-by-name', '--prune', ...paths], { encoding: 'utf8' });
  if (plan.status !== 0 && plan.status !== 1) {
    process.stderr.write(plan.stderr);
    return 2;
  }
  const markdown = `## Trigger changes\n\n\`\`\`\n${plan.stdout}\`\`\`\n`;
  const nothingChanged = plan.status === 0;
  const posted = await postReviewComment({ markdown, nothingChanged, env: process.env, cwd: process.cwd() });
  if (!posted.ok) {
    process.stderr.write(`obs: ${posted.reason.message}\n`);
    return 2;
  }
  process.stdout.write(`comment ${posted.action}${posted.url === undefined ? '' : `: ${posted.url}`}\n`);
  return 0;
}

void main(process.argv.slice(2)).then((code) => process.exit(code));
