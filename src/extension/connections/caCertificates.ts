// Extra certificate authorities for corporate proxies that re-sign TLS (setting obs.caCertificates).
// No vscode import.
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { errorText } from '../core/errors';

/** A CA certificate file named in `obs.caCertificates` could not be read. */
export class CaCertificateError extends Error {
  readonly kind = 'ca-certificate';
  constructor(readonly file: string, reason: string) {
    super(`Cannot read the CA certificate file "${file}" named in the setting obs.caCertificates: ${reason}`);
    this.name = 'CaCertificateError';
  }
}

/** Reads PEM files for corporate proxies that re-sign TLS; `~` stands for the home folder. */
export function readCaCertificates(files: readonly string[]): string[] {
  return files.map((file) => {
    const full = file.startsWith('~') ? join(homedir(), file.slice(1)) : file;
    try {
      const pem = readFileSync(full, 'utf8');
      if (!pem.includes('-----BEGIN CERTIFICATE-----')) throw new Error('it holds no PEM certificate');
      return pem;
    } catch (err) {
      throw new CaCertificateError(file, errorText(err));
    }
  });
}
