import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

const root = join(import.meta.dirname, '..', '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return /\.(ts|mts|cts|js|mjs)$/.test(name) ? [full] : [];
  });
}

const importsVscode = /(?:from\s+|require\(\s*|import\(\s*)['"]vscode['"]/;

test('only src/extension/ imports vscode', () => {
  const offenders = sourceFiles(join(root, 'src'))
    .filter((file) => !relative(root, file).startsWith(`src${sep}extension${sep}`))
    .filter((file) => importsVscode.test(readFileSync(file, 'utf8')))
    .map((file) => relative(root, file));
  assert.deepEqual(offenders, []);
});

test('media/ scripts do not import vscode', () => {
  const offenders = sourceFiles(join(root, 'media'))
    .filter((file) => importsVscode.test(readFileSync(file, 'utf8')))
    .map((file) => relative(root, file));
  assert.deepEqual(offenders, []);
});

test('the import scan recognises every import form', () => {
  assert.ok(importsVscode.test(`import * as vscode from 'vscode';`));
  assert.ok(importsVscode.test(`const v = require("vscode");`));
  assert.ok(importsVscode.test(`await import('vscode')`));
  assert.ok(!importsVscode.test(`import { z } from 'zod';`));
});
