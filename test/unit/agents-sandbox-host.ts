// A host of the agent tools over a sandbox with the real client, whose files are the texts given (as a host
// reads them, named relative to its folder): it plans them with the one plan pipeline, each file linted by the
// rules of its kind as `obs plan` lints it. The agent tool tests share it.
import { randomBytes } from 'node:crypto';
import type { ServiceClient } from '../../src/api';
import { ToolError, type PlanWithNotes, type SourceFile, type ToolHost } from '../../src/agentTools';
import { CreationPacer, systemClock } from '../../src/backtest/runner';
import { lint, lintNamedText } from '../../src/lint';
import { keyFingerprint, planWithGates } from '../../src/triggerFiles';

export interface SandboxHostOptions {
  /** false: no service is configured (the tools that read it answer so). */
  service?: boolean;
  /** Keeps a plan for an apply and answers its id, as the editor's host does. */
  remember?: (p: PlanWithNotes) => string;
}

const pacer = new CreationPacer(systemClock);

export function sandboxToolHost(
  client: ServiceClient,
  baseUrl: string,
  files: Record<string, string> = {},
  o: SandboxHostOptions = {},
): ToolHost {
  const connected = () => {
    if (o.service === false) throw new ToolError('no service is configured');
  };
  return {
    service: async () => (connected(), client),
    lint: async (text, columns) => lint(text, columns === undefined ? {} : { columns }),
    queries: async () => (connected(), { api: client, pacer, clock: systemClock }),
    target: () => 'Sandbox',
    files: {
      read: async () => ({
        files: Object.entries(files).map(([file, text]): SourceFile => ({ file, text })),
        problems: [],
      }),
      plan: async (sources, prune, signal) => {
        const gated = await planWithGates({
          sources,
          service: client,
          lint: async (text, columns, _signal, file) =>
            lintNamedText(file, text, columns === undefined ? {} : { columns }),
          target: { baseUrl, key: keyFingerprint('k', randomBytes(4).toString('hex')) },
          inputs: { scope: { kind: prune ? 'all' : 'files' }, allowUnknownColumns: false, matchByName: false },
          concurrency: 2,
          now: new Date(),
          signal,
        });
        return { plan: gated.plan, notes: gated.notes };
      },
    },
    ...(o.remember === undefined ? {} : { rememberPlan: o.remember }),
  };
}
