import { createPrivateKey, createPublicKey, webcrypto, type KeyObject } from 'node:crypto';
import { calculateJwkThumbprint, type JWK } from 'jose';
import type { SsoSite } from './sso-sites';

/**
 * A confidential client's credentials (ADR 0015 "Client authentication"). They come from the
 * environment, one variable per site, never from the site fixture: fixtures are public data.
 */
export type ClientCredential = { method: 'client_secret_basic'; clientSecret: string } | { method: 'private_key_jwt'; privateKey: ClientPrivateKey };

export interface ClientPrivateKey {
  alg: 'RS256' | 'PS256' | 'ES256';
  /** The `kid` of the client assertion: the JWK's own, else its RFC 7638 thumbprint. */
  kid: string;
  keyObject: KeyObject;
  /** What the identity provider verifies the assertion with (the test provider reads it here). */
  publicKey: KeyObject;
}

/** By site id; a site with `client_auth` none has no entry. */
export type SsoCredentials = ReadonlyMap<string, ClientCredential>;

/** `SSO_CLIENT_SECRET_<SITE>`: the site id in capitals, every sign other than a letter or digit as `_`. */
export const clientSecretVariable = (siteId: string) => `SSO_CLIENT_SECRET_${envSuffix(siteId)}`;
/** `SSO_PRIVATE_KEY_<SITE>`: a PKCS#8 PEM or a private JWK (JSON). */
export const privateKeyVariable = (siteId: string) => `SSO_PRIVATE_KEY_${envSuffix(siteId)}`;
const envSuffix = (siteId: string) => siteId.toUpperCase().replace(/[^A-Z0-9]/g, '_');

/**
 * The variables `readSettings` keeps from the environment for SSO (names only matter; values are secrets): OIDC
 * client credentials, and SAML sites' key pairs (gateway/sso/saml-keys.ts).
 */
export const SSO_CREDENTIAL_VARIABLE = /^(SSO_(CLIENT_SECRET|PRIVATE_KEY)|SAML_SP_(PRIVATE_KEY|CERTIFICATE))_[A-Z0-9_]+$/;

/**
 * Each SSO site's credential from `env`, and every problem (a missing or unreadable variable), one
 * line each, naming the variable and never its value.
 */
export async function readSsoCredentials(
  sites: readonly SsoSite[],
  env: Readonly<Record<string, string | undefined>>,
): Promise<{ credentials: SsoCredentials; problems: string[] }> {
  const credentials = new Map<string, ClientCredential>();
  const problems: string[] = [];
  for (const sso of sites) {
    if (sso.clientAuth === 'client_secret_basic') {
      const name = clientSecretVariable(sso.siteId);
      const clientSecret = env[name]?.trim();
      if (!clientSecret)
        problems.push(
          `site ${sso.siteId}: site_auth_profile.client_auth is client_secret_basic but ${name} is not set; set the client secret the identity provider issued`,
        );
      else credentials.set(sso.siteId, { method: 'client_secret_basic', clientSecret });
    } else if (sso.clientAuth === 'private_key_jwt') {
      const name = privateKeyVariable(sso.siteId);
      const text = env[name]?.trim();
      if (!text) {
        problems.push(
          `site ${sso.siteId}: site_auth_profile.client_auth is private_key_jwt but ${name} is not set; set the client's private key (PKCS#8 PEM or a private JWK)`,
        );
        continue;
      }
      const privateKey = await parsePrivateKey(text);
      if (privateKey === null) problems.push(`${name} must be an RSA (2048 bits or more) or EC P-256 private key as PKCS#8 PEM or a private JWK with "d"`);
      else credentials.set(sso.siteId, { method: 'private_key_jwt', privateKey });
    }
  }
  return { credentials, problems };
}

async function parsePrivateKey(text: string): Promise<ClientPrivateKey | null> {
  let keyObject: KeyObject;
  let declaredAlg: unknown;
  let declaredKid: unknown;
  try {
    if (text.startsWith('{')) {
      const jwk = JSON.parse(text) as JWK;
      declaredAlg = jwk.alg;
      declaredKid = jwk.kid;
      keyObject = createPrivateKey({ key: jwk, format: 'jwk' });
    } else {
      keyObject = createPrivateKey(text);
    }
  } catch {
    return null;
  }
  const type = keyObject.asymmetricKeyType;
  const details = keyObject.asymmetricKeyDetails;
  let alg: ClientPrivateKey['alg'];
  if (type === 'rsa' && (details?.modulusLength ?? 0) >= 2048) alg = declaredAlg === 'PS256' ? 'PS256' : 'RS256';
  else if (type === 'ec' && details?.namedCurve === 'prime256v1') alg = 'ES256';
  else return null;
  if (declaredAlg !== undefined && declaredAlg !== alg) return null;
  const publicKey = createPublicKey(keyObject);
  const kid = typeof declaredKid === 'string' && declaredKid !== '' ? declaredKid : await calculateJwkThumbprint(publicKey.export({ format: 'jwk' }));
  return { alg, kid, keyObject, publicKey };
}

/** The WebCrypto key openid-client signs the client assertion with (its algorithm names the JWS alg). */
export function cryptoKeyOf(privateKey: ClientPrivateKey): Promise<CryptoKey> {
  const algorithm =
    privateKey.alg === 'ES256'
      ? { name: 'ECDSA', namedCurve: 'P-256' }
      : { name: privateKey.alg === 'PS256' ? 'RSA-PSS' : 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' };
  const der = privateKey.keyObject.export({ format: 'der', type: 'pkcs8' });
  return webcrypto.subtle.importKey('pkcs8', der, algorithm, false, ['sign']) as Promise<CryptoKey>;
}
