// Where obs finds the service (the environment only) and the error it gives when it cannot: apart from
// the client (service.ts), so that declaring the commands does not load the client and undici.

export const ENV_BASE_URL = 'OBS_BASE_URL';
export const ENV_CONFIG_KEY = 'OBS_CONFIG_KEY';

/** The service cannot be reached as configured: exit status 2. */
export class ServiceSetupError extends Error {
  readonly kind = 'service-setup';
}

/**
 * Whether an error is a ServiceSetupError, by its shape: a command's run comes from a bundle of its own
 * (dist/cli-service.js), whose copy of the class is not the one dist/cli.js holds.
 */
export function isServiceSetupError(e: unknown): e is ServiceSetupError {
  return e instanceof Error && (e as { kind?: unknown }).kind === 'service-setup';
}
