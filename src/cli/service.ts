// The service the CLI talks to: its address and configuration key come only from the environment
// (OBS_BASE_URL, OBS_CONFIG_KEY), never from flags or files in the repository, so they stay out of
// shell history and commits. The proxy comes from HTTPS_PROXY / NO_PROXY as for the client anywhere.
import { ServiceClient } from '../api/client';
import { errorText } from '../api/errors';
import { ENV_BASE_URL, ENV_CONFIG_KEY, ServiceSetupError } from './serviceEnv';

export { ENV_BASE_URL, ENV_CONFIG_KEY, ServiceSetupError } from './serviceEnv';

/** A client for the service named by the environment; throws ServiceSetupError naming what is missing. */
export function clientFromEnvironment(env: Readonly<Record<string, string | undefined>>): ServiceClient {
  const baseUrl = env[ENV_BASE_URL]?.trim() ?? '';
  const configKey = env[ENV_CONFIG_KEY]?.trim() ?? '';
  const missing = [baseUrl === '' ? ENV_BASE_URL : undefined, configKey === '' ? ENV_CONFIG_KEY : undefined].filter(
    (m) => m !== undefined,
  );
  if (missing.length > 0) {
    throw new ServiceSetupError(
      `set ${missing.join(' and ')} in the environment: the service's address and a configuration key are read from there only`,
    );
  }
  try {
    return new ServiceClient({ baseUrl, configKey });
  } catch (e) {
    throw new ServiceSetupError(`${ENV_BASE_URL}: ${errorText(e)}`);
  }
}
