import { X509Certificate } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { removeStaleTempFiles } from './persistence';
import writeFileAtomic from 'write-file-atomic';
import { generate } from 'selfsigned';

/** The sandbox's TLS identity: a self-signed certificate for 127.0.0.1 and localhost, and its private key (PEM). */
export interface SandboxTls {
  cert: string;
  key: string;
}

// Short-lived: it is trusted only by the Sandbox profile, and a persisted one is renewed when this little is left.
const VALIDITY_DAYS = 30;
const RENEW_BEFORE_MS = 24 * 3600_000;
// Valid from a day before it was made: a clock set back (by hand, or by a time sync after a resume) must not turn
// the certificate into CERT_NOT_YET_VALID for every client.
const BACKDATE_MS = 24 * 3600_000;
const TLS_FILE = 'sandbox-tls.json';

/**
 * A new ECDSA P-256 certificate, CN and SAN 127.0.0.1 and localhost, valid from a day ago until VALIDITY_DAYS from
 * now.
 */
export async function generateSandboxTls(now: Date = new Date()): Promise<SandboxTls> {
  const pems = await generate([{ name: 'commonName', value: '127.0.0.1' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notBeforeDate: new Date(now.getTime() - BACKDATE_MS),
    notAfterDate: new Date(now.getTime() + VALIDITY_DAYS * 24 * 3600_000),
    extensions: [
      { name: 'basicConstraints', cA: false, critical: true },
      { name: 'keyUsage', digitalSignature: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 7, ip: '127.0.0.1' },
          { type: 2, value: 'localhost' },
        ],
      },
    ],
  });
  return { cert: pems.cert, key: pems.private };
}

/**
 * The certificate kept in a data dir (so a restarted sandbox keeps the identity its clients trust), or a new one
 * written there (key file mode 0600) when there is none, it is about to expire, or it is not valid yet (the clock
 * was set back to before its notBefore: clients would refuse it until the clock caught up).
 */
export async function persistedSandboxTls(dataDir: string, now: Date = new Date()): Promise<SandboxTls> {
  const path = join(dataDir, TLS_FILE);
  // A write killed between write-file-atomic's write and rename leaves a temp file (with a private key) for ever.
  await removeStaleTempFiles(path);
  try {
    const saved = JSON.parse(await readFile(path, 'utf8')) as Partial<SandboxTls>;
    if (typeof saved.cert === 'string' && typeof saved.key === 'string') {
      const x509 = new X509Certificate(saved.cert);
      const validFrom = Date.parse(x509.validFrom);
      const validTo = Date.parse(x509.validTo);
      if (validFrom <= now.getTime() && validTo - now.getTime() > RENEW_BEFORE_MS) {
        return { cert: saved.cert, key: saved.key };
      }
    }
  } catch {
    // none yet, or unreadable: make a new one
  }
  const tls = await generateSandboxTls(now);
  await writeFileAtomic(path, JSON.stringify(tls), { mode: 0o600 });
  return tls;
}
