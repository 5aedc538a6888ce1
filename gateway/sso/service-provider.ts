import { generateServiceProviderMetadata, SAML, SamlStatusError, ValidateInResponseTo, type CacheProvider, type Profile } from '@node-saml/node-saml';
import { parseDomFromString, xpath } from '@node-saml/node-saml/lib/xml.js';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../db/database';
import { HttpError } from '../http/errors';
import { REMOTE_TIMEOUT_MS } from './issuer-transport';
import { SAML_SUCCESS, samlShapeProblem, topStatusCode } from './saml-response-guard';
import type { SsoSubject } from './relying-party';
import { EMAIL_NAME_ID_FORMAT, TEST_SAML_IDP_METADATA_URL, type SamlSite } from './saml-sites';
import { areStorableTexts, assertedEmail } from './asserted-values';
import { isPathOfSite } from './site-path';
import { sha256Hex } from './sso-sites';

/** How long a sent AuthnRequest may wait for its Response (as ADR 0015's OIDC state). */
export const SAML_REQUEST_TTL_SECONDS = 10 * 60;
/** Leeway for the identity provider's clock on NotBefore and NotOnOrAfter. */
export const SAML_CLOCK_SKEW_MS = 60 * 1000;
/** An identity provider's metadata is read again after this long. */
const METADATA_TTL_MS = 60 * 60 * 1000;

const REDIRECT_BINDING = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';

/** What the service provider reads from the identity provider's metadata (docs/decisions/0028-sso-saml.md). */
export interface IdpMetadata {
  entityId: string;
  /** SingleSignOnService, HTTP-Redirect binding. */
  ssoUrl: string;
  /** SingleLogoutService, HTTP-Redirect binding, when the provider offers single logout. */
  sloUrl: string | null;
  /** The signing certificates (base64 DER): a Response or Assertion must verify with one of them. */
  certificates: string[];
  wantAuthnRequestsSigned: boolean;
}

/** A site's own key pair (PEM), for signed AuthnRequests and encrypted assertions. */
export interface SamlKeyPair {
  privateKey: string;
  certificate: string;
}
/** By site id; a site without a key pair has no entry. */
export type SamlKeys = ReadonlyMap<string, SamlKeyPair>;

/** Everything the service provider needs beside the site (ADR 0028). */
export interface ServiceProviderContext {
  db: Database;
  /** The gateway itself, which serves the test identity provider's metadata in-process. */
  gateway: FastifyInstance;
  development: boolean;
  keys: SamlKeys;
}

/** One of the checks a Response failed: named in the log line and in the error's message, never the assertion. */
export type SamlCheck =
  | 'malformed'
  | 'signature'
  | 'destination'
  | 'recipient'
  | 'issuer'
  | 'audience'
  | 'in-response-to'
  | 'browser'
  | 'time'
  | 'replay'
  | 'encryption'
  | 'status'
  | 'email'
  | 'attribute';

export class SamlRefusal extends HttpError {
  constructor(
    readonly check: SamlCheck,
    message: string,
  ) {
    super(check === 'malformed' ? 400 : 401, 'SAML_RESPONSE_INVALID', `The SAML response failed the ${check} check: ${message}`, {
      SAMLResponse: 'invalid',
    });
  }
}

const metadataUnavailable = (why: string) =>
  new HttpError(502, 'SAML_IDP_METADATA_INVALID', `The site's SAML identity provider metadata cannot be used (${why}); try again later.`);

/** The identity provider's metadata document as the service provider reads it. */
export async function parseIdpMetadata(xml: string): Promise<IdpMetadata> {
  let doc: Document;
  try {
    doc = await parseDomFromString(xml);
  } catch {
    throw metadataUnavailable('not XML');
  }
  const entity = doc.documentElement;
  if (entity.localName !== 'EntityDescriptor') throw metadataUnavailable('no EntityDescriptor');
  const idp = xpath.selectElements(doc, "/*[local-name()='EntityDescriptor']/*[local-name()='IDPSSODescriptor']")[0];
  if (!idp) throw metadataUnavailable('no IDPSSODescriptor');
  const locationOf = (service: string) =>
    xpath.selectAttributes(idp, `./*[local-name()='${service}'][@Binding='${REDIRECT_BINDING}']/@Location`)[0]?.value ?? null;
  const certificates = xpath
    .selectElements(idp, "./*[local-name()='KeyDescriptor'][not(@use) or @use='signing']//*[local-name()='X509Certificate']")
    .map((element) => element.textContent.replace(/\s+/g, ''))
    .filter((body) => body !== '');
  const entityId = entity.getAttribute('entityID');
  const ssoUrl = locationOf('SingleSignOnService');
  if (!entityId) throw metadataUnavailable('no entityID');
  if (!ssoUrl) throw metadataUnavailable('no SingleSignOnService with the HTTP-Redirect binding');
  if (certificates.length === 0) throw metadataUnavailable('no signing certificate');
  return {
    entityId,
    ssoUrl,
    sloUrl: locationOf('SingleLogoutService'),
    certificates,
    wantAuthnRequestsSigned: idp.getAttribute('WantAuthnRequestsSigned') === 'true',
  };
}

/**
 * A metadata URL that failed is not asked again for this long: each post to the ACS and each start would otherwise
 * wait on (and load) an identity provider that is down, up to the fetch timeout every time. A minute bounds that to
 * one try per minute per gateway and still notices a recovery within a minute.
 */
const METADATA_FAILURE_TTL_MS = 60 * 1000;

const metadataCaches = new WeakMap<FastifyInstance, Map<string, { metadata: IdpMetadata; readAt: number } | { failure: HttpError; failedAt: number }>>();

/**
 * The site's identity provider metadata: inline, or fetched from its URL and kept an hour per gateway. The test
 * identity provider's is read in-process; any other over the network, https only outside development (ADR 0018).
 */
export async function idpMetadataOf(site: SamlSite, context: ServiceProviderContext): Promise<IdpMetadata> {
  if ('xml' in site.idpMetadata) return parseIdpMetadata(site.idpMetadata.xml);
  const { url } = site.idpMetadata;
  let cache = metadataCaches.get(context.gateway);
  if (!cache) {
    cache = new Map();
    metadataCaches.set(context.gateway, cache);
  }
  const cached = cache.get(url);
  if (cached && 'failure' in cached && Date.now() - cached.failedAt < METADATA_FAILURE_TTL_MS) throw cached.failure;
  if (cached && 'metadata' in cached && Date.now() - cached.readAt < METADATA_TTL_MS) return cached.metadata;
  try {
    const metadata = await parseIdpMetadata(await fetchMetadata(url, context));
    cache.set(url, { metadata, readAt: Date.now() });
    return metadata;
  } catch (error) {
    if (error instanceof HttpError) cache.set(url, { failure: error, failedAt: Date.now() });
    throw error;
  }
}

async function fetchMetadata(url: string, context: ServiceProviderContext): Promise<string> {
  if (url === TEST_SAML_IDP_METADATA_URL) {
    const answer = await context.gateway.inject({ method: 'GET', url: new URL(url).pathname });
    if (answer.statusCode !== 200) throw metadataUnavailable(`the test identity provider answered ${answer.statusCode}`);
    return answer.body;
  }
  if (!context.development && !url.startsWith('https://')) throw metadataUnavailable('its URL is not https');
  try {
    const response = await fetch(url, { redirect: 'error', signal: AbortSignal.timeout(REMOTE_TIMEOUT_MS) });
    if (response.status !== 200) throw metadataUnavailable(`its URL answered ${response.status}`);
    return await response.text();
  } catch (error) {
    throw error instanceof HttpError ? error : metadataUnavailable('its URL did not answer');
  }
}

/** What a request this gateway sent was: a sign-in (AuthnRequest) or a single logout (LogoutRequest). */
type RequestKind = 'authn' | 'logout';

/**
 * The sent AuthnRequests and LogoutRequests, as node-saml's cache of request ids, on the database (migrations 022,
 * 025): saved under the hash of the id, found only for this site and kind, unspent and in time; spent (`used_at`)
 * by node-saml's remove, which it calls once it is done with a Response, right or wrong (and by the single logout's
 * check). `spentHere` tells whether this call spent it, so two instances racing with one answer cannot both use it.
 */
export class RequestStore implements CacheProvider {
  spentHere: { lastVisitedPath: string | null; bindingHash: string | null } | null = null;

  constructor(
    private readonly db: Database,
    private readonly siteId: string,
    private readonly now: Date,
    private readonly kind: RequestKind,
    private readonly started: { lastVisitedPath: string | null; binding: string } | null = null,
  ) {}

  async saveAsync(key: string, value: string) {
    await this.db.query('delete from saml_requests where expires_at < $1', [this.now]);
    await this.db.query(
      'insert into saml_requests (id_hash, site_id, kind, last_visited_path, binding_hash, created_at, expires_at) values ($1, $2, $3, $4, $5, $6, $7)',
      [
        sha256Hex(key),
        this.siteId,
        this.kind,
        this.started?.lastVisitedPath ?? null,
        this.started ? sha256Hex(this.started.binding) : null,
        this.now,
        new Date(this.now.getTime() + SAML_REQUEST_TTL_SECONDS * 1000),
      ],
    );
    return { value, createdAt: this.now.getTime() };
  }

  async getAsync(key: string) {
    const found = await this.db.query<{ created_at: Date }>(
      'select created_at from saml_requests where id_hash = $1 and site_id = $2 and kind = $3 and used_at is null and expires_at > $4',
      [sha256Hex(key), this.siteId, this.kind, this.now],
    );
    const row = found.rows[0];
    return row ? new Date(row.created_at).toISOString() : null;
  }

  async removeAsync(key: string | null) {
    if (key === null) return null;
    const spent = await this.db.query<{ last_visited_path: string | null; binding_hash: string | null }>(
      'update saml_requests set used_at = $4 where id_hash = $1 and site_id = $2 and kind = $3 and used_at is null and expires_at > $4 returning last_visited_path, binding_hash',
      [sha256Hex(key), this.siteId, this.kind, this.now],
    );
    const row = spent.rows[0];
    if (!row) return null;
    this.spentHere = { lastVisitedPath: row.last_visited_path, bindingHash: row.binding_hash };
    return key;
  }
}

function samlOf(site: SamlSite, idp: IdpMetadata, store: CacheProvider, keys: SamlKeys): SAML {
  const key = keys.get(site.siteId);
  if (idp.wantAuthnRequestsSigned && !key) {
    throw new HttpError(503, 'SAML_SP_KEY_MISSING', "The site's identity provider wants signed requests, and this gateway has no key pair for the site.");
  }
  return new SAML({
    callbackUrl: site.acsUrl,
    entryPoint: idp.ssoUrl,
    logoutUrl: idp.sloUrl ?? idp.ssoUrl,
    issuer: site.spEntityId,
    audience: site.spEntityId,
    idpCert: idp.certificates,
    // A signature on the Response or on the Assertion (ADR 0028): node-saml then takes the assertion from the verified
    // XML alone, checks the assertion's own signature whenever the Response has none, and refuses a Response with
    // more than one assertion (signature wrapping); one with neither signature is refused.
    wantAuthnResponseSigned: false,
    wantAssertionsSigned: false,
    acceptedClockSkewMs: SAML_CLOCK_SKEW_MS,
    validateInResponseTo: ValidateInResponseTo.always,
    requestIdExpirationPeriodMs: SAML_REQUEST_TTL_SECONDS * 1000,
    cacheProvider: store,
    identifierFormat: site.emailAttribute === null ? EMAIL_NAME_ID_FORMAT : null,
    disableRequestedAuthnContext: true,
    signatureAlgorithm: 'sha256',
    digestAlgorithm: 'sha256',
    ...(key && idp.wantAuthnRequestsSigned ? { privateKey: key.privateKey } : {}),
    ...(key ? { decryptionPvk: key.privateKey } : {}),
  });
}

/**
 * SPEC §7 "SAML SSO session": an AuthnRequest for the site's identity provider, HTTP-Redirect binding (signed when
 * its metadata asks), its id kept hashed for the Response to name. Answers the URL the browser is sent to; a
 * `last_visited_path` that is not a page of the site is refused, as for OIDC (ADR 0015).
 */
export async function startSamlSignIn(
  site: SamlSite,
  lastVisitedPath: string | undefined,
  binding: string,
  context: ServiceProviderContext,
  now: Date,
): Promise<string> {
  if (lastVisitedPath !== undefined && !isPathOfSite(lastVisitedPath, site.siteId)) {
    throw new HttpError(400, 'LAST_VISITED_PATH_OFF_SITE', 'last_visited_path must be a path on this site with a locale segment.', {
      last_visited_path: 'invalid',
    });
  }
  const idp = await idpMetadataOf(site, context);
  const store = new RequestStore(context.db, site.siteId, now, 'authn', { lastVisitedPath: lastVisitedPath ?? null, binding });
  return samlOf(site, idp, store, context.keys).getAuthorizeUrlAsync('', undefined, {});
}

/**
 * An EncryptedAssertion's algorithms, before anything is decrypted (ADR 0028 "Keys"): AES in GCM or CBC mode for the
 * assertion, RSA-OAEP for its key. RSA PKCS#1 v1.5 key transport and triple DES (which xml-encryption would still
 * take) are refused: the first is the Bleichenbacher oracle of XML Encryption, the second is broken.
 */
const CONTENT_ENCRYPTION = new Set([
  'http://www.w3.org/2009/xmlenc11#aes256-gcm',
  'http://www.w3.org/2009/xmlenc11#aes128-gcm',
  'http://www.w3.org/2001/04/xmlenc#aes256-cbc',
  'http://www.w3.org/2001/04/xmlenc#aes128-cbc',
]);
const KEY_TRANSPORT = new Set(['http://www.w3.org/2001/04/xmlenc#rsa-oaep-mgf1p']);

/** Whether the Response carries an EncryptedAssertion; refused when its algorithms are not accepted. */
function refuseWeakEncryption(doc: Document): boolean {
  const encrypted = "/*[local-name()='Response']/*[local-name()='EncryptedAssertion']";
  if (xpath.selectElements(doc, encrypted).length === 0) return false;
  const algorithms = (path: string) =>
    xpath.selectAttributes(doc, `${encrypted}${path}/*[local-name()='EncryptionMethod']/@Algorithm`).map(({ value }) => value);
  const content = algorithms("/*[local-name()='EncryptedData']");
  const keys = algorithms("//*[local-name()='EncryptedKey']");
  if (
    content.length !== 1 ||
    !content.every((value) => CONTENT_ENCRYPTION.has(value)) ||
    keys.length === 0 ||
    !keys.every((value) => KEY_TRANSPORT.has(value))
  ) {
    throw new SamlRefusal('encryption', 'the encrypted assertion uses an algorithm this service provider does not accept.');
  }
  return true;
}

/** SubjectConfirmationData's Recipient, the assertion's ID, Issuer and latest NotOnOrAfter, read from the verified assertion. */
async function assertionFacts(assertionXml: string) {
  const doc = await parseDomFromString(assertionXml);
  const assertion = doc.documentElement;
  const confirmations = xpath.selectElements(
    doc,
    "/*[local-name()='Assertion']/*[local-name()='Subject']/*[local-name()='SubjectConfirmation'][@Method='urn:oasis:names:tc:SAML:2.0:cm:bearer']/*[local-name()='SubjectConfirmationData']",
  );
  const issuer = xpath.selectElements(doc, "/*[local-name()='Assertion']/*[local-name()='Issuer']")[0]?.textContent.trim() ?? null;
  const times = xpath
    .selectAttributes(doc, "/*[local-name()='Assertion']//@NotOnOrAfter")
    .map((attribute) => Date.parse(attribute.value))
    .filter((time) => !Number.isNaN(time));
  return {
    id: assertion.getAttribute('ID') ?? '',
    issuer,
    recipients: confirmations.map((data) => data.getAttribute('Recipient')),
    notOnOrAfter: times.length > 0 ? Math.max(...times) : null,
  };
}

/** node-saml's refusal as the check it failed (ADR 0028 "Checks"). */
function refusalOf(error: unknown): SamlRefusal {
  if (error instanceof SamlRefusal) return error;
  if (error instanceof SamlStatusError) return new SamlRefusal('status', 'the identity provider answered an error status.');
  const message = error instanceof Error ? error.message : '';
  if (/InResponseTo/i.test(message)) return new SamlRefusal('in-response-to', 'it answers no request this gateway has pending.');
  if (/signature/i.test(message)) return new SamlRefusal('signature', "neither the Response nor the Assertion carries a signature of the identity provider's.");
  if (/audience/i.test(message)) return new SamlRefusal('audience', 'the assertion is meant for another service provider.');
  // node-saml finds no bearer SubjectConfirmation only when each is outside its NotBefore/NotOnOrAfter.
  if (/not yet valid|expired|valid subject confirmation/i.test(message))
    return new SamlRefusal('time', 'the assertion is outside its NotBefore and NotOnOrAfter.');
  if (/decrypt|EncryptedAssertion/i.test(message)) return new SamlRefusal('encryption', 'the encrypted assertion cannot be decrypted with the site key.');
  return new SamlRefusal('malformed', 'it is not a SAML Response this gateway can read.');
}

/** Who the assertion names, and where the holder goes next. */
export type SamlSubject = SsoSubject & { nameId: string; nameIdFormat: string | null; sessionIndex: string | null };

/**
 * SPEC §7 "SAML SSO assertion": checks the Response posted to the assertion consumer service (HTTP-POST binding)
 * and answers who it names. node-saml checks the signature (Response or Assertion, against the metadata's
 * certificates), InResponseTo (a request of ours, unspent, this site's), NotBefore/NotOnOrAfter with 60 s of skew and
 * the Audience, and decrypts an EncryptedAssertion with the site's key. This adds Destination, the bearer
 * Recipient, the assertion's Issuer, the assertion id spent once (migration 022) and that the request was started in
 * this browser (`binding`, the nonce of its binding cookie).
 */
export async function consumeSamlResponse(
  site: SamlSite,
  body: { SAMLResponse?: string },
  binding: string | undefined,
  context: ServiceProviderContext,
  now: Date,
): Promise<SamlSubject> {
  const encoded = body.SAMLResponse ?? '';
  if (!/^[A-Za-z0-9+/=\s]{1,}$/.test(encoded)) throw new SamlRefusal('malformed', 'SAMLResponse is missing or not base64.');
  const idp = await idpMetadataOf(site, context);
  const store = new RequestStore(context.db, site.siteId, now, 'authn');
  let profile: Profile | null;
  let destination: string | null;
  let encrypted = false;
  try {
    const xml = Buffer.from(encoded, 'base64').toString('utf8');
    const shapeProblem = samlShapeProblem(xml);
    if (shapeProblem !== null) throw new SamlRefusal('malformed', `${shapeProblem}.`);
    const doc = await parseDomFromString(xml);
    if (doc.documentElement.localName !== 'Response') throw new SamlRefusal('malformed', 'it is not a Response.');
    // ADR 0028: only Success signs anyone in, even when the Response carries an assertion; refused before any signature work.
    if (topStatusCode(doc) !== SAML_SUCCESS) throw new SamlRefusal('status', 'the identity provider answered a status other than Success.');
    destination = doc.documentElement.getAttribute('Destination');
    encrypted = refuseWeakEncryption(doc);
    ({ profile } = await samlOf(site, idp, store, context.keys).validatePostResponseAsync({ SAMLResponse: encoded }));
  } catch (error) {
    const refusal = refusalOf(error);
    // An assertion that cannot be decrypted with the site's key (the RSA-OAEP key or the cipher text wrong) fails
    // inside xml-encryption with a message of its own: that is the encryption check, not an unreadable message.
    throw refusal.check === 'malformed' && encrypted
      ? new SamlRefusal('encryption', 'the encrypted assertion cannot be decrypted with the site key.')
      : refusal;
  }
  if (!profile) throw new SamlRefusal('malformed', 'it carries no assertion.');
  if (store.spentHere === null) throw new SamlRefusal('in-response-to', 'its request was already answered.');
  // Login CSRF (ADR 0028): the request it answers was started in this browser, whose binding cookie hashes to the
  // one kept with the request. Its request is spent either way, so a Response refused here cannot be tried again.
  if (binding === undefined || store.spentHere.bindingHash !== sha256Hex(binding)) {
    throw new SamlRefusal('browser', 'its request was started in another browser.');
  }
  if (destination !== site.acsUrl) throw new SamlRefusal('destination', "its Destination is not this site's assertion consumer service.");
  const facts = await assertionFacts(profile.getAssertionXml?.() ?? '');
  if (facts.recipients.length === 0 || facts.recipients.some((recipient) => recipient !== site.acsUrl)) {
    throw new SamlRefusal('recipient', "its bearer SubjectConfirmationData's Recipient is not this site's assertion consumer service.");
  }
  if (facts.issuer !== idp.entityId) throw new SamlRefusal('issuer', "the assertion's Issuer is not the site's identity provider.");
  if (facts.id === '' || facts.notOnOrAfter === null) throw new SamlRefusal('time', 'the assertion has no ID or no NotOnOrAfter.');
  await context.db.query('delete from saml_spent_assertions where expires_at < $1', [now]);
  const recorded = await context.db.query(
    'insert into saml_spent_assertions (id_hash, site_id, expires_at) values ($1, $2, $3) on conflict (id_hash) do nothing returning id_hash',
    [sha256Hex(`${facts.issuer} ${facts.id}`), site.siteId, new Date(facts.notOnOrAfter + SAML_CLOCK_SKEW_MS)],
  );
  if (recorded.rows.length === 0) throw new SamlRefusal('replay', 'this assertion was already used.');
  const email = emailOf(site, profile);
  if (email === null)
    throw new SamlRefusal(
      'email',
      site.emailAttribute === null ? 'its NameID is no e-mail address.' : `its ${site.emailAttribute} attribute is no e-mail address.`,
    );
  const givenName = textAttribute(profile, 'givenName');
  const familyName = textAttribute(profile, 'sn') ?? textAttribute(profile, 'surname');
  if (!areStorableTexts([givenName, familyName, profile.nameID, profile.sessionIndex]))
    throw new SamlRefusal('attribute', 'a name, the NameID or the SessionIndex holds a control character or hidden formatting.');
  return {
    email,
    givenName,
    familyName,
    lastVisitedPath: store.spentHere.lastVisitedPath,
    nameId: profile.nameID,
    nameIdFormat: profile.nameIDFormat,
    sessionIndex: profile.sessionIndex ?? null,
  };
}

function emailOf(site: SamlSite, profile: Profile): string | null {
  const value =
    site.emailAttribute === null ? (profile.nameIDFormat === EMAIL_NAME_ID_FORMAT ? profile.nameID : null) : textAttribute(profile, site.emailAttribute);
  return assertedEmail(value);
}

function textAttribute(profile: Profile, name: string): string | null {
  const value: unknown = profile[name];
  const first: unknown = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' && first !== '' ? first : null;
}

/** The site's SP metadata for its identity provider's team to import (ADR 0028): entity id, ACS, SLO, and its certificate. */
export function serviceProviderMetadata(site: SamlSite, keys: SamlKeys): string {
  const key = keys.get(site.siteId);
  const metadata = generateServiceProviderMetadata({
    issuer: site.spEntityId,
    callbackUrl: site.acsUrl,
    // The single logout service, for LogoutResponses to our LogoutRequests (ADR 0028 "Sign-out").
    logoutCallbackUrl: site.sloUrl,
    identifierFormat: site.emailAttribute === null ? EMAIL_NAME_ID_FORMAT : null,
    // Published as what this service provider asks for; the check itself accepts a signed Response instead (samlOf).
    wantAssertionsSigned: true,
    ...(key ? { decryptionCert: key.certificate, publicCerts: key.certificate, decryptionPvk: key.privateKey, privateKey: key.privateKey } : {}),
  });
  // node-saml names the HTTP-POST binding for the single logout service; ours takes the HTTP-Redirect one (a GET).
  return metadata.replace(/(<SingleLogoutService Binding=")urn:oasis:names:tc:SAML:2\.0:bindings:HTTP-POST"/, `$1${REDIRECT_BINDING}"`);
}
