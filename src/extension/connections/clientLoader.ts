// The service client (and undici under it) is loaded from its own bundle, dist/client-host.js, the first
// time a connection is used: activation stays cheap when VS Code starts us for a trigger file.
import * as path from 'node:path';
import type { ServiceClient, ClientOptions } from '../../api/client';

export interface ClientModule {
  ServiceClient: new (options: ClientOptions) => ServiceClient;
}

let loaded: ClientModule | undefined;

export function loadClientModule(extensionPath: string): ClientModule {
  // A runtime require of the separate bundle: esbuild leaves a non-literal require alone.
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a separate bundle, loaded at run time on purpose
  loaded ??= require(path.join(extensionPath, 'dist', 'client-host.js')) as ClientModule;
  return loaded;
}
