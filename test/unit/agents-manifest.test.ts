// The manifest's language model tools and MCP server provider are the ones the extension registers: each tool
// by its name, with the description and input schema the shared definitions give the model (src/agentTools),
// texts for people localisable, and an activation event for each.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  APPLY_TOOL,
  APPLY_TOOL_NAME,
  inputJsonSchema,
  MCP_PROVIDER_ID,
  TOOL_NAMES,
  TOOLS,
  type ToolName,
} from '../../src/agentTools';

const root = join(import.meta.dirname, '..', '..');
const nls = JSON.parse(readFileSync(join(root, 'package.nls.json'), 'utf8')) as Record<string, string>;

interface ManifestTool {
  name: string;
  toolReferenceName?: string;
  displayName: string;
  userDescription: string;
  modelDescription: string;
  canBeReferencedInPrompt?: boolean;
  tags?: string[];
  inputSchema: unknown;
}

const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  activationEvents: string[];
  contributes: { languageModelTools: ManifestTool[]; mcpServerDefinitionProviders: { id: string; label: string }[] };
};
const tools = manifest.contributes.languageModelTools;
const descriptionOf = (name: string): string | undefined =>
  name === APPLY_TOOL_NAME ? APPLY_TOOL.description : TOOLS.find((t) => t.name === name)?.description;

test('the manifest declares exactly the tools the extension registers, in the same order', () => {
  assert.deepEqual(
    tools.map((t) => t.name),
    [...TOOL_NAMES],
  );
});

test("each tool's model description and input schema are the shared definition's, word for word", () => {
  for (const t of tools) {
    assert.equal(t.modelDescription, descriptionOf(t.name), t.name);
    assert.deepEqual(t.inputSchema, inputJsonSchema(t.name as ToolName), t.name);
  }
});

test("each tool's name and description for people are localisable texts, and each tool can be referenced by its own #name", () => {
  for (const t of tools) {
    for (const text of [t.displayName, t.userDescription]) {
      const key = /^%([^%\s]+)%$/.exec(text)?.[1];
      assert.ok(key !== undefined && (nls[key] ?? '') !== '', `${t.name}: ${text}`);
    }
    assert.equal(t.canBeReferencedInPrompt, true, t.name);
  }
  const references = tools.map((t) => t.toolReferenceName);
  assert.equal(new Set(references).size, tools.length);
});

test('only the apply tool is tagged as one that writes, and its description says the user confirms first', () => {
  assert.deepEqual(
    tools.filter((t) => t.tags?.includes('writes')).map((t) => t.name),
    [APPLY_TOOL_NAME],
  );
  assert.match(
    APPLY_TOOL.description,
    /The user is first shown the connection and every change and must confirm; nothing is written otherwise\./,
  );
});

test("each other tool's tags say what it does to the service, as its definition does: previews, queries and the noise report create query results", () => {
  assert.deepEqual(
    tools.filter((t) => t.name !== APPLY_TOOL_NAME).map((t) => [t.name, t.tags]),
    TOOLS.map((t) => [t.name, ['observability', t.effect]]),
  );
  assert.deepEqual(
    TOOLS.filter((t) => t.effect === 'creates-query-results').map((t) => t.name),
    ['obs_preview_trigger', 'obs_run_query', 'obs_noise'],
  );
});

test('an invoked tool and a listed MCP server wake the extension; the provider is declared under the id it registers', () => {
  for (const name of TOOL_NAMES) assert.ok(manifest.activationEvents.includes(`onLanguageModelTool:${name}`), name);
  assert.deepEqual(
    manifest.contributes.mcpServerDefinitionProviders.map((p) => p.id),
    [MCP_PROVIDER_ID],
  );
  assert.ok(manifest.activationEvents.includes(`onMcpCollection:${MCP_PROVIDER_ID}`));
});
