// V8's compile cache for the bundles obs requires once it runs (a command's run, zod, jsonc-parser): Node
// 22.1 and later offer it (module.enableCompileCache, kept in the system's temporary folder unless
// NODE_COMPILE_CACHE names another), and a run then loads their compiled code instead of compiling it
// again. Node 20 has none: obs compiles them each run, as it always did.
import * as nodeModule from 'node:module';

/** `host`: node:module, whose enableCompileCache Node 20's lacks. */
export function enableCompileCache(host: object = nodeModule): void {
  if ('enableCompileCache' in host && typeof host.enableCompileCache === 'function') host.enableCompileCache();
}
