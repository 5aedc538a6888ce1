import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { FIXTURES_DIR, type Fixtures } from '../site-files/load-fixtures';
import { isRecord } from './relying-party';
import { testSamlIdpSites } from './saml-sites';
import { testIdpClients } from './sso-sites';

/** Someone a test identity provider can sign in as (`fixtures/sso-identities.json`, ADR 0015, ADR 0028). */
export interface SsoIdentity {
  subject: string;
  email: string;
  givenName: string;
  familyName: string;
  clientId: string;
}

const FILE = 'sso-identities.json';
const TEXT_FIELDS = ['subject', 'email', 'givenName', 'familyName', 'clientId'] as const;

/**
 * The identities of `fixtures/sso-identities.json` plus the demo users of each SSO site; a wrong
 * entry stops the gateway with the file and the entry, as the other fixtures do.
 */
export async function loadSsoIdentities(fixtures: Fixtures, dir = FIXTURES_DIR): Promise<readonly SsoIdentity[]> {
  const value: unknown = JSON.parse(await readFile(join(dir, FILE), 'utf8'));
  if (!Array.isArray(value)) throw new Error(`${FILE} $: expected a list of identities`);
  const clients = testIdpClients(fixtures);
  // The test SAML identity provider's people are listed here too, under the SP entity id of their site (ADR 0028).
  const samlSites = testSamlIdpSites(fixtures);
  const listed = value.map((entry: unknown, index): SsoIdentity => {
    const wrong = TEXT_FIELDS.find((field) => !isRecord(entry) || typeof entry[field] !== 'string' || entry[field] === '');
    if (wrong !== undefined || !isRecord(entry)) throw new Error(`${FILE} $[${index}].${wrong ?? ''}: expected a non-empty string`);
    if (!clients.has(String(entry.clientId)) && !samlSites.has(String(entry.clientId)))
      throw new Error(`${FILE} $[${index}].clientId: expected the client_id (or SAML SP entity id) of an SSO site on a test identity provider`);
    return {
      subject: String(entry.subject),
      email: String(entry.email).toLowerCase(),
      givenName: String(entry.givenName),
      familyName: String(entry.familyName),
      clientId: String(entry.clientId),
    };
  });
  const demo = [...clients.values()].flatMap((client) =>
    fixtures.demoUsers
      .filter((user) => user.siteId === client.siteId)
      .map((user) => ({
        subject: `demo-${user.email.toLowerCase()}`,
        email: user.email.toLowerCase(),
        givenName: user.firstName,
        familyName: user.lastName,
        clientId: client.clientId,
      })),
  );
  return [...listed, ...demo];
}
