// In-host tests of the tools AI agents get: each language model tool listed in vscode.lm.tools and invoked with
// vscode.lm.invokeTool against the local sandbox (bounded JSON, no key or recipient credential, an error with
// its message for a bad input); the apply tool's question names the connection and every change, an apply the
// user did not confirm writes nothing, and a confirmed one writes exactly the plan; no MCP server is listed
// beside these tools, and a server definition kept for the connection gets its key only when it starts, and
// starts a server that answers.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
// The answer's caps and the tool names only: the tools themselves (and the linter) are not bundled here.
import { LIMITS } from '../../../src/agentTools/answer';
import { APPLY_TOOL_NAME, TOOL_NAMES } from '../../../src/agentTools/names';
import { DEMO, RECIPIENT_SECRETS, SANDBOX_CREDENTIALS } from '../../../src/sandbox/demoData';
import { triggerFileText } from '../../../src/triggerFiles/normalize';
import { suite, test } from './harness';
import { obsExtension, obsSeam, waitFor } from './helpers';

/** What the in-host run (test/e2e/inHost.ts) records of each dialog it answered with Cancel. */
const DIALOGS_FILE = '.obs-e2e-dialogs.jsonl';
/** Where a test asks the run to answer the next dialog with a button (test/e2e/inHost.ts reads it). */
const ANSWER_FILE = '.obs-e2e-answer';

/** The dialogs the run answered so far. */
async function dialogs(): Promise<{ message: string; detail: string }[]> {
  const text = new TextDecoder().decode(
    await vscode.workspace.fs.readFile(vscode.Uri.joinPath(workspaceUri(), DIALOGS_FILE)).then(
      (b) => b,
      () => new Uint8Array(),
    ),
  );
  return text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as { message: string; detail: string });
}

interface ManifestTool {
  name: string;
  modelDescription: string;
  inputSchema: unknown;
}

const textOf = (result: vscode.LanguageModelToolResult): string =>
  result.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');

async function invoke(name: string, input: object, token?: vscode.CancellationToken): Promise<string> {
  return textOf(await vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined }, token));
}

async function startSandbox() {
  const seam = await obsSeam();
  await vscode.commands.executeCommand('obs.sandbox.start');
  const handle = seam.sandbox.running;
  assert.ok(handle, 'the sandbox runs');
  return { seam, handle };
}

/** The secrets no answer may hold: the sandbox's keys and its recipients' credentials. */
function secretsOf(info: { configKey: string; managementKey: string }): string[] {
  return [
    info.configKey,
    info.managementKey,
    SANDBOX_CREDENTIALS.readOnlyConfigKey,
    SANDBOX_CREDENTIALS.managementKeySecret,
    ...Object.values(RECIPIENT_SECRETS),
  ];
}

const workspaceUri = (): vscode.Uri => {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'a workspace is open');
  return folder.uri;
};

suite('agent tools', () => {
  test('every tool is listed in vscode.lm.tools with the description and input schema of the manifest', async () => {
    await obsSeam();
    const manifest = (obsExtension().packageJSON as { contributes: { languageModelTools: ManifestTool[] } }).contributes
      .languageModelTools;
    const listed = await waitFor('the tools listed', () => {
      const ours = vscode.lm.tools.filter((t) => (TOOL_NAMES as readonly string[]).includes(t.name));
      return ours.length === TOOL_NAMES.length ? ours : undefined;
    });
    for (const tool of listed) {
      const declared = manifest.find((m) => m.name === tool.name);
      assert.equal(tool.description, declared?.modelDescription, tool.name);
      assert.deepEqual(tool.inputSchema, declared?.inputSchema, tool.name);
    }
  });

  test(
    'the read tools answer the sandbox through vscode.lm.invokeTool: bounded JSON, no key, no recipient credential',
    async () => {
      const { handle } = await startSandbox();
      const answers: string[] = [];
      const json = async (name: string, input: object): Promise<Record<string, unknown>> => {
        const text = await invoke(name, input);
        answers.push(text);
        assert.ok(text.length <= LIMITS.answer, `${name}: ${text.length} characters`);
        return JSON.parse(text) as Record<string, unknown>;
      };
      assert.equal((await json('obs_list_datasets', {})).total, handle.info.datasets.length);
      const wide = await json('obs_list_columns', { dataset: DEMO.datasets.wide });
      assert.deepEqual([wide.total, wide.returned, wide.truncated], [DEMO.wideColumnCount, LIMITS.listRows, true]);
      const triggers = await json('obs_list_triggers', { dataset: DEMO.datasets.gateway });
      assert.ok((triggers.triggers as { id: string }[]).some((t) => t.id === DEMO.triggers.gwErrors));
      assert.ok(((await json('obs_list_slos', { dataset: DEMO.datasets.gateway })).slos as unknown[]).length > 0);
      assert.ok(
        (
          (await json('obs_list_burn_alerts', { dataset: DEMO.datasets.gateway, slo_id: DEMO.slos.gwAvailability }))
            .burn_alerts as unknown[]
        ).length > 0,
      );
      const lint = await json('obs_lint_trigger', {
        text: JSON.stringify({ name: 'x', dataset_slug: DEMO.datasets.gateway, frequency: 1 }),
      });
      assert.deepEqual(lint.columns_checked, [DEMO.datasets.gateway]);
      assert.ok((lint.errors as number) > 0);
      const preview = await json('obs_preview_trigger', {
        dataset: DEMO.datasets.gateway,
        trigger_id: DEMO.triggers.gwErrors,
        window: '1h',
      });
      assert.deepEqual([preview.trigger, preview.evaluations], ['High error rate', 12]);
      const query = await json('obs_run_query', {
        dataset: DEMO.datasets.gateway,
        query_id: DEMO.savedQueries.gwTopRoutes,
        top: 3,
      });
      assert.equal((query.rows as unknown[]).length, 3);
      const drift = await json('obs_drift', {});
      assert.equal(drift.target, 'Sandbox');
      await json('obs_plan', {});
      const all = answers.join('\n');
      assert.deepEqual(
        secretsOf(handle.info).filter((s) => all.includes(s)),
        [],
      );
    },
    { timeoutMs: 60_000 },
  );

  test(
    'a bad input rejects the invocation with its message, and the next invocation answers',
    async () => {
      await startSandbox();
      await assert.rejects(
        invoke('obs_list_columns', { dataset: 'no-such-dataset' }),
        /dataset "no-such-dataset" was not found on the service \(404\)/,
      );
      await assert.rejects(invoke('obs_drift', { paths: ['../outside'] }), /"\.\.\/outside" leaves the workspace/);
      await assert.rejects(invoke('obs_lint_trigger', { text: 'x'.repeat(LIMITS.triggerText + 1) }), /text/);
      assert.equal((JSON.parse(await invoke('obs_list_datasets', { limit: 1 })) as { returned: number }).returned, 1);
    },
    { timeoutMs: 60_000 },
  );

  test(
    "apply: the chat's question and the extension's own dialog name the connection and every change; without a yes in that dialog nothing is written; with it the plan is written once",
    async () => {
      const { seam, handle } = await startSandbox();
      const active = await seam.connections.getActive();
      assert.ok(active);
      const trigger = (await active.client.getTrigger(DEMO.datasets.gateway, DEMO.triggers.gwErrors)).data;
      const before = trigger.threshold?.value ?? 0;
      const file = JSON.parse(triggerFileText(trigger)) as { threshold: { value: number } };
      file.threshold.value = before + 7;
      const folder = vscode.Uri.joinPath(workspaceUri(), 'agents-apply');
      await vscode.workspace.fs.writeFile(
        vscode.Uri.joinPath(folder, 'high-error-rate.trigger.json'),
        new TextEncoder().encode(`${JSON.stringify(file, null, 2)}\n`),
      );
      const token = new vscode.CancellationTokenSource().token;
      const planned = async () =>
        JSON.parse(await invoke('obs_plan', { paths: ['agents-apply'] })) as {
          counts: { update: number };
          plan_id: string;
        };
      try {
        const plan = await planned();
        assert.equal(plan.counts.update, 1);
        // What VS Code asks in the chat before invoke runs (settings may skip it: it decides nothing).
        const prepared = await seam.agents().prepare(APPLY_TOOL_NAME, { plan_id: plan.plan_id }, token);
        const question = prepared.confirmationMessages;
        assert.ok(question, 'the chat shows the plan first');
        assert.equal(question.title, 'Apply 1 change to Sandbox?');
        const body = typeof question.message === 'string' ? question.message : question.message.value;
        assert.match(body, /~ api-gateway "High error rate" \(trig_gw_errors\)/);
        assert.match(body, new RegExp(`threshold\\.value: ${before} -> ${before + 7}`));
        // invoke asks again in the extension's own dialog; the user answers Cancel (the in-host run's default).
        const writes = () => handle.requests.filter((r) => r.method !== 'GET').length;
        const writesBefore = writes();
        await assert.rejects(
          seam.agents().invoke(APPLY_TOOL_NAME, { plan_id: plan.plan_id }, token),
          /nothing was written: the user did not confirm the apply/,
        );
        assert.equal(writes(), writesBefore, 'nothing was sent to the service');
        assert.equal(
          (await active.client.getTrigger(DEMO.datasets.gateway, DEMO.triggers.gwErrors)).data.threshold?.value,
          before,
        );
        const asked = await waitFor('the dialog recorded', async () =>
          (await dialogs()).find((d) => d.message === 'Apply 1 change to Sandbox?'),
        );
        assert.match(
          asked.detail,
          new RegExp(
            `^An AI agent asked to apply this plan to Sandbox \\(${handle.info.baseUrl.replace(/[.]/g, '\\.')}\\)\\.`,
          ),
        );
        assert.match(asked.detail, /~ api-gateway "High error rate" \(trig_gw_errors\)/);
        // Planned again, and this time the user chooses Apply in the dialog.
        const again = await planned();
        await vscode.workspace.fs.writeFile(
          vscode.Uri.joinPath(workspaceUri(), ANSWER_FILE),
          new TextEncoder().encode('Apply to Sandbox\n'),
        );
        const applied = JSON.parse(
          textOf(await seam.agents().invoke(APPLY_TOOL_NAME, { plan_id: again.plan_id }, token)),
        ) as { counts: { applied: number } };
        assert.equal(applied.counts.applied, 1);
        assert.equal(
          (await active.client.getTrigger(DEMO.datasets.gateway, DEMO.triggers.gwErrors)).data.threshold?.value,
          before + 7,
        );
        // A plan is applied once.
        await assert.rejects(
          seam.agents().invoke(APPLY_TOOL_NAME, { plan_id: again.plan_id }, token),
          /there is no plan/,
        );
      } finally {
        await vscode.workspace.fs.delete(folder, { recursive: true });
      }
    },
    { timeoutMs: 90_000 },
  );

  test(
    'agent mode has one set of the tools: no MCP server is listed beside the language model tools, and a server VS Code kept for the connection gets its key when it starts and answers',
    async () => {
      const { seam, handle } = await startSandbox();
      const servers = seam.mcpServers;
      assert.ok(servers, 'the editor has the MCP API');
      assert.deepEqual(
        servers.provideMcpServerDefinitions(),
        [],
        'the language model tools are registered here: the same tools are not listed again',
      );
      // A definition VS Code kept from an editor without the tools API: the active connection's label, no key.
      const kept = new vscode.McpStdioServerDefinition(
        'Observability (Sandbox)',
        process.execPath,
        [path.join(obsExtension().extensionPath, 'dist', 'cli.js'), 'mcp'],
        { OBS_BASE_URL: handle.info.baseUrl },
      );
      const started = await servers.resolveMcpServerDefinition(kept);
      assert.equal(started.env['OBS_CONFIG_KEY'], handle.info.configKey);
      assert.ok(!started.args.some((a) => a.includes(handle.info.configKey)), 'the key is never an argument');
      const env = Object.fromEntries(
        Object.entries(started.env).filter((e): e is [string, string] => typeof e[1] === 'string'),
      );
      const transport = new StdioClientTransport({
        command: started.command,
        args: started.args,
        env: { ...env, PATH: process.env['PATH'] ?? '' },
      });
      const client = new Client({ name: 'in-host', version: '1.0.0' });
      await client.connect(transport);
      try {
        const r = await client.callTool({ name: 'obs_list_datasets', arguments: { limit: 1 } });
        assert.notEqual(r.isError, true, JSON.stringify(r.content));
      } finally {
        await client.close();
      }
      await vscode.commands.executeCommand('obs.sandbox.stop');
      await assert.rejects(servers.resolveMcpServerDefinition(kept), /no longer the active one/);
    },
    { timeoutMs: 60_000 },
  );
});
