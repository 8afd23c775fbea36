// Extra certificate authorities for corporate proxies that re-sign TLS (setting obs.caCertificates).
// No vscode import.
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { errorText } from '../core/errors';
import * as l10n from '@vscode/l10n';

/** A CA certificate file named in `obs.caCertificates` could not be read. */
class CaCertificateError extends Error {
  readonly kind = 'ca-certificate';
  constructor(
    readonly file: string,
    reason: string,
  ) {
    super(
      l10n.t(
        'Cannot read the CA certificate file "{0}" named in the setting {1}: {2}',
        file,
        'obs.caCertificates',
        reason,
      ),
    );
    this.name = 'CaCertificateError';
  }
}

/** Reads PEM files for corporate proxies that re-sign TLS; `~` stands for the home folder. */
export function readCaCertificates(files: readonly string[]): string[] {
  return files.map((file) => {
    const full = file.startsWith('~') ? join(homedir(), file.slice(1)) : file;
    try {
      const pem = readFileSync(full, 'utf8');
      if (!pem.includes('-----BEGIN CERTIFICATE-----')) throw new Error(l10n.t('it holds no PEM certificate'));
      return pem;
    } catch (err) {
      throw new CaCertificateError(file, errorText(err));
    }
  });
}
