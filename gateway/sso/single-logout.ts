import { createPublicKey, verify } from 'node:crypto';
import { promisify } from 'node:util';
import { inflateRaw } from 'node:zlib';
import { SAML } from '@node-saml/node-saml';
import { parseDomFromString, xpath } from '@node-saml/node-saml/lib/xml.js';
import type { Queryable } from '../db/database';
import type { SamlSite } from './saml-sites';
import { idpMetadataOf, RequestStore, SamlRefusal, type ServiceProviderContext } from './service-provider';

const inflateRawAsync = promisify(inflateRaw);

/** A deflated LogoutResponse is a few hundred bytes; nothing this size is one. */
const MAX_INFLATED_BYTES = 64 * 1024;
const SUCCESS = 'urn:oasis:names:tc:SAML:2.0:status:Success';
const PROTOCOL_NS = 'urn:oasis:names:tc:SAML:2.0:protocol';
/** The query-string signature algorithms accepted (SAML bindings §3.4.4.1); RSA-SHA1 is not. */
const SIGNATURE_ALGORITHMS: Readonly<Record<string, string>> = {
  'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256': 'sha256',
  'http://www.w3.org/2001/04/xmldsig-more#rsa-sha512': 'sha512',
};

/** Who the identity provider named in the assertion that opened a session: what a LogoutRequest names again. */
export interface SamlSessionFacts {
  nameId: string;
  nameIdFormat: string | null;
  sessionIndex: string | null;
}

/** Kept with the session the assertion opened (migration 025), gone with it. */
export async function rememberSamlSession(db: Queryable, sessionId: string, siteId: string, facts: SamlSessionFacts): Promise<void> {
  await db.query('insert into saml_sessions (session_id, site_id, name_id, name_id_format, session_index) values ($1, $2, $3, $4, $5)', [
    sessionId,
    siteId,
    facts.nameId,
    facts.nameIdFormat,
    facts.sessionIndex,
  ]);
}

export async function samlSessionOf(db: Queryable, sessionId: string, siteId: string): Promise<SamlSessionFacts | null> {
  const found = await db.query<{ name_id: string; name_id_format: string | null; session_index: string | null }>(
    'select name_id, name_id_format, session_index from saml_sessions where session_id = $1 and site_id = $2',
    [sessionId, siteId],
  );
  const row = found.rows[0];
  return row ? { nameId: row.name_id, nameIdFormat: row.name_id_format, sessionIndex: row.session_index } : null;
}

/**
 * SP-initiated single logout (docs/decisions/0028-sso-saml.md "Sign-out"): where the identity provider's metadata
 * offers a SingleLogoutService with the HTTP-Redirect binding, a LogoutRequest naming the session's NameID and
 * SessionIndex, its id kept hashed (spent once, ten minutes), signed with the site's key when it has a key pair.
 * Null, a local sign-out only, when the provider offers none, asks for signed requests of a site without a key
 * pair, or its metadata cannot be read: sign-out never waits on the provider.
 */
export async function startSamlLogout(site: SamlSite, facts: SamlSessionFacts, context: ServiceProviderContext, now: Date): Promise<string | null> {
  let idp;
  try {
    idp = await idpMetadataOf(site, context);
  } catch {
    return null;
  }
  const key = context.keys.get(site.siteId);
  if (idp.sloUrl === null || (idp.wantAuthnRequestsSigned && !key)) return null;
  const saml = new SAML({
    callbackUrl: site.acsUrl,
    entryPoint: idp.ssoUrl,
    logoutUrl: idp.sloUrl,
    issuer: site.spEntityId,
    idpCert: idp.certificates,
    cacheProvider: new RequestStore(context.db, site.siteId, now, 'logout'),
    signatureAlgorithm: 'sha256',
    ...(key ? { privateKey: key.privateKey } : {}),
  });
  return saml.getLogoutUrlAsync(
    {
      issuer: idp.entityId,
      nameID: facts.nameId,
      nameIDFormat: facts.nameIdFormat ?? 'urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified',
      ...(facts.sessionIndex === null ? {} : { sessionIndex: facts.sessionIndex }),
    },
    '',
    {},
  );
}

/**
 * The query's fields as they came, still URL-encoded: the HTTP-Redirect signature covers these very octets
 * (SAML bindings §3.4.4.1), not a re-encoding of them. A field named twice makes the message unreadable.
 */
function rawFieldsOf(rawQuery: string): Map<string, string> {
  const fields = new Map<string, string>();
  for (const token of rawQuery.split('&')) {
    if (token === '') continue;
    const equals = token.indexOf('=');
    const name = equals === -1 ? token : token.slice(0, equals);
    if (fields.has(name)) throw new SamlRefusal('malformed', `${name} is given twice.`);
    fields.set(name, equals === -1 ? '' : token.slice(equals + 1));
  }
  return fields;
}

const decoded = (raw: string) => {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    throw new SamlRefusal('malformed', 'the query is not URL-encoded.');
  }
};

const certificatePem = (body: string) => `-----BEGIN CERTIFICATE-----\n${body.replace(/.{64}/g, '$&\n')}\n-----END CERTIFICATE-----\n`;

/**
 * The identity provider's LogoutResponse at the site's single logout service (HTTP-Redirect binding), checked as
 * the assertion consumer checks a Response (ADR 0028): `signature` (the query signature, required, RSA-SHA256 or
 * -SHA512, with a certificate of the metadata), `issuer`, `destination` (the site's SLO URL), `in-response-to` (a
 * LogoutRequest of ours for this site, unspent and in time; spent here, once) and `status` (Success). The provider's
 * own LogoutRequest (IdP-initiated logout) is not served: `malformed`.
 */
export async function consumeLogoutResponse(site: SamlSite, rawQuery: string, context: ServiceProviderContext, now: Date): Promise<void> {
  const fields = rawFieldsOf(rawQuery);
  if (fields.has('SAMLRequest')) throw new SamlRefusal('malformed', "the identity provider's own LogoutRequest is not served here.");
  const rawResponse = fields.get('SAMLResponse');
  const encoded = rawResponse === undefined ? '' : decoded(rawResponse);
  if (!/^[A-Za-z0-9+/=\s]{1,}$/.test(encoded)) throw new SamlRefusal('malformed', 'SAMLResponse is missing or not base64.');
  let doc: Document;
  try {
    const inflated = await inflateRawAsync(Buffer.from(encoded, 'base64'), { maxOutputLength: MAX_INFLATED_BYTES });
    doc = await parseDomFromString(inflated.toString('utf8'));
  } catch {
    throw new SamlRefusal('malformed', 'SAMLResponse is not a deflated XML message.');
  }
  const root = doc.documentElement;
  if (root.localName !== 'LogoutResponse' || root.namespaceURI !== PROTOCOL_NS) throw new SamlRefusal('malformed', 'it is not a LogoutResponse.');

  const idp = await idpMetadataOf(site, context);
  const rawSigAlg = fields.get('SigAlg');
  const rawSignature = fields.get('Signature');
  const algorithm = rawSigAlg === undefined ? undefined : SIGNATURE_ALGORITHMS[decoded(rawSigAlg)];
  if (rawSigAlg === undefined || rawSignature === undefined || algorithm === undefined) {
    throw new SamlRefusal('signature', 'it carries no query signature of an accepted algorithm.');
  }
  const rawRelayState = fields.get('RelayState');
  const signedOctets = Buffer.from(
    `SAMLResponse=${rawResponse}${rawRelayState === undefined ? '' : `&RelayState=${rawRelayState}`}&SigAlg=${rawSigAlg}`,
    'utf8',
  );
  const signature = Buffer.from(decoded(rawSignature), 'base64');
  const verifies = idp.certificates.some((body) => {
    try {
      return verify(algorithm, signedOctets, createPublicKey(certificatePem(body)), signature);
    } catch {
      return false;
    }
  });
  if (!verifies) throw new SamlRefusal('signature', "its query signature does not verify with the identity provider's certificate.");

  const issuer = xpath.selectElements(doc, "/*[local-name()='LogoutResponse']/*[local-name()='Issuer']")[0]?.textContent.trim() ?? null;
  if (issuer !== idp.entityId) throw new SamlRefusal('issuer', "its Issuer is not the site's identity provider.");
  if (root.getAttribute('Destination') !== site.sloUrl) throw new SamlRefusal('destination', "its Destination is not this site's single logout service.");
  const inResponseTo = root.getAttribute('InResponseTo');
  const store = new RequestStore(context.db, site.siteId, now, 'logout');
  if (!inResponseTo || (await store.removeAsync(inResponseTo)) === null) {
    throw new SamlRefusal('in-response-to', 'it answers no logout request this gateway has pending.');
  }
  const status = xpath.selectAttributes(doc, "/*[local-name()='LogoutResponse']/*[local-name()='Status']/*[local-name()='StatusCode']/@Value")[0]?.value;
  if (status !== SUCCESS) throw new SamlRefusal('status', 'the identity provider did not end its session.');
}
