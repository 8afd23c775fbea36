// What a pull command run on a Datasets view item pulls: read from the item in the activation bundle
// (which holds the tree's argument parsers and their zod), so that dist/sync-host.js needs no zod. No
// vscode import.
import { DatasetArg, parseArg } from '../tree';

export type PullScope = { kind: 'dataset'; slug: string } | { kind: 'environment' } | { kind: 'everything' };

/** The scope of a pull command run on a Datasets view item (or from the palette: asks nothing, pulls the active connection's). */
export function scopeOf(
  command: 'dataset' | 'environment' | 'everything',
  arg: unknown,
): { scope: PullScope; connectionId?: string } | undefined {
  const node = parseArg(DatasetArg, arg);
  if (command === 'everything')
    return node === undefined
      ? { scope: { kind: 'everything' } }
      : { scope: { kind: 'everything' }, connectionId: node.connectionId };
  if (node === undefined) return undefined;
  if (command === 'environment' || node.slug === '__all__')
    return { scope: { kind: 'environment' }, connectionId: node.connectionId };
  return { scope: { kind: 'dataset', slug: node.slug }, connectionId: node.connectionId };
}
