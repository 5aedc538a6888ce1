import { createPrivateKey, createPublicKey, X509Certificate, type KeyObject } from 'node:crypto';
import type { SamlSite } from './saml-sites';
import type { SamlKeyPair, SamlKeys } from './service-provider';

/**
 * A SAML site's own key pair (docs/decisions/0028-sso-saml.md "Keys"): it signs the site's AuthnRequests and
 * LogoutRequests and decrypts encrypted assertions; its certificate is published in the site's SP metadata. Like an
 * OIDC confidential client's credentials (ADR 0015) it comes from the environment, one pair of variables per site,
 * never from the site fixture: fixtures are public data.
 */
const envSuffix = (siteId: string) => siteId.toUpperCase().replace(/[^A-Z0-9]/g, '_');
/** `SAML_SP_PRIVATE_KEY_<SITE>`: an RSA private key (2048 bits or more), PKCS#8 or PKCS#1 PEM. */
export const samlPrivateKeyVariable = (siteId: string) => `SAML_SP_PRIVATE_KEY_${envSuffix(siteId)}`;
/** `SAML_SP_CERTIFICATE_<SITE>`: the X.509 certificate (PEM) of that key, as the bank's identity provider imports it. */
export const samlCertificateVariable = (siteId: string) => `SAML_SP_CERTIFICATE_${envSuffix(siteId)}`;

/**
 * Each SAML site's key pair from `env`, and every problem, one line each, naming the variable and never its value.
 * A site with neither variable has no key pair (no signed requests, no encrypted assertions); one with only one of
 * them, an unreadable one, or a certificate of another key is a problem, so a start never half-configures a site.
 */
export function readSamlKeys(sites: readonly SamlSite[], env: Readonly<Record<string, string | undefined>>): { keys: SamlKeys; problems: string[] } {
  const keys = new Map<string, SamlKeyPair>();
  const problems: string[] = [];
  for (const site of sites) {
    const keyName = samlPrivateKeyVariable(site.siteId);
    const certificateName = samlCertificateVariable(site.siteId);
    const privateKeyText = env[keyName]?.trim();
    const certificateText = env[certificateName]?.trim();
    if (!privateKeyText && !certificateText) continue;
    if (!privateKeyText || !certificateText) {
      problems.push(`site ${site.siteId}: set both ${keyName} and ${certificateName} (the site's SAML key pair), or neither`);
      continue;
    }
    let privateKey: KeyObject;
    try {
      privateKey = createPrivateKey(privateKeyText);
    } catch {
      problems.push(`${keyName} must be an RSA private key in PEM`);
      continue;
    }
    if (privateKey.asymmetricKeyType !== 'rsa' || (privateKey.asymmetricKeyDetails?.modulusLength ?? 0) < 2048) {
      problems.push(`${keyName} must be an RSA key of 2048 bits or more (XML signatures and key transport here are RSA)`);
      continue;
    }
    let certificate: X509Certificate;
    try {
      certificate = new X509Certificate(certificateText);
    } catch {
      problems.push(`${certificateName} must be an X.509 certificate in PEM`);
      continue;
    }
    if (!certificate.publicKey.equals(createPublicKey(privateKey))) {
      problems.push(`${certificateName} is not the certificate of the key in ${keyName}`);
      continue;
    }
    keys.set(site.siteId, { privateKey: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(), certificate: certificate.toString() });
  }
  return { keys, problems };
}
