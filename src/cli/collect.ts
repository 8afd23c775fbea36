// A full garbage collection, asked for by obs after it lets go of a large file's bytes: they are garbage
// once decoded, but V8 frees them at its next full collection, which comes after the lint's peak (a 50 MB
// file was held twice while it was parsed). node's --expose-gc is set for this process when first needed
// (obs is started as `node dist/cli.js`, without flags); the editor's lint worker never asks for it.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let gc: (() => void) | undefined;

export function collectGarbage(): void {
  if (gc === undefined) {
    setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc') as () => void;
  }
  gc();
}
