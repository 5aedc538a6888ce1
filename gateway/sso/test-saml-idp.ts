import { constants, createCipheriv, generateKeyPairSync, publicEncrypt, randomBytes, sign, X509Certificate } from 'node:crypto';
import { promisify } from 'node:util';
import { deflateRawSync, inflateRaw } from 'node:zlib';
import { signSamlPost } from '@node-saml/node-saml/lib/saml-post-signing.js';
import { parseDomFromString, signXml, xpath } from '@node-saml/node-saml/lib/xml.js';
import { HttpError } from '../http/errors';
import { escapeHtml } from '../http/html-text';
import { EMAIL_NAME_ID_FORMAT, TEST_SAML_IDP_ENTITY_ID, type SamlSite } from './saml-sites';
import { deriveRsaKey } from './derived-rsa-key';
import { certificateBody, selfSignedCertificate } from './self-signed-certificate';

const inflateRawAsync = promisify(inflateRaw);
const xmlText = (value: string) => escapeHtml(value);
const newId = () => `_${randomBytes(20).toString('hex')}`;

/**
 * The gateway's own SAML identity provider for development and tests (docs/decisions/0028-sso-saml.md), at
 * `/test-saml-idp/…` on the page root, like the OpenID one (ADR 0015): its own RSA signing key and certificate,
 * the demo users of each site it serves as its people, and Responses signed on the Response, the Assertion or
 * both. On a test's request (`fault`) a Response is wrong in one way, so each check of the service provider can
 * be shown to refuse it.
 */
export interface TestSamlIdpKey {
  privateKey: string;
  certificate: string;
}

/**
 * The provider's key, derived from the gateway's token signing key, with a certificate of fixed dates: every
 * instance sharing that key signs alike and publishes the same metadata, so the provider's page served by one
 * instance signs what the other's service provider checks (the scale path, README "Scale").
 */
export function deriveTestSamlIdpKey(tokenSigningKey: Buffer): TestSamlIdpKey {
  const privateKey = deriveRsaKey(tokenSigningKey, 'test SAML identity provider signing key');
  return {
    privateKey: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
    certificate: selfSignedCertificate(privateKey, 'gateway test SAML identity provider', new Date('2026-01-01T00:00:00Z'), new Date('2046-01-01T00:00:00Z')),
  };
}

/** A fresh RSA 2048 key and its self-signed certificate: a key no metadata names (tests, the `foreign-key` fault). */
export function generateTestSamlIdpKey(now: Date): TestSamlIdpKey {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const year = 365 * 24 * 60 * 60 * 1000;
  return {
    privateKey: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
    certificate: selfSignedCertificate(privateKey, 'gateway test SAML identity provider', new Date(now.getTime() - year), new Date(now.getTime() + 10 * year)),
  };
}

/** Where the provider's single sign-on service is, as its metadata says (the gateway's own origin: a path for the browser). */
export const TEST_SAML_IDP_SSO_URL = `${TEST_SAML_IDP_ENTITY_ID}/sso`;
/** Its single logout service (HTTP-Redirect), likewise. */
export const TEST_SAML_IDP_SLO_URL = `${TEST_SAML_IDP_ENTITY_ID}/slo`;

/** Its metadata; a test can have it ask for signed AuthnRequests, as many banks' providers do. */
export function testSamlIdpMetadata(key: TestSamlIdpKey, options: { wantAuthnRequestsSigned?: boolean } = {}): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:ds="http://www.w3.org/2000/09/xmldsig#" entityID="${TEST_SAML_IDP_ENTITY_ID}">
  <md:IDPSSODescriptor WantAuthnRequestsSigned="${options.wantAuthnRequestsSigned === true ? 'true' : 'false'}" protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">
    <md:KeyDescriptor use="signing"><ds:KeyInfo><ds:X509Data><ds:X509Certificate>${certificateBody(key.certificate)}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>
    <md:NameIDFormat>${EMAIL_NAME_ID_FORMAT}</md:NameIDFormat>
    <md:SingleLogoutService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${TEST_SAML_IDP_SLO_URL}"/>
    <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${TEST_SAML_IDP_SSO_URL}"/>
  </md:IDPSSODescriptor>
</md:EntityDescriptor>
`;
}

/** What the provider read from an AuthnRequest of a site it serves. */
export interface ReadRequest {
  id: string;
  site: SamlSite;
}

/** An HTTP-Redirect request: deflated, base64, of the kind named; from a registered service provider. */
async function readRedirectRequest(encoded: string, kind: 'AuthnRequest' | 'LogoutRequest', sites: ReadonlyMap<string, SamlSite>) {
  const refused = (why: string) => new HttpError(400, 'SAML_REQUEST_INVALID', `The ${kind} ${why}.`, { SAMLRequest: 'invalid' });
  let doc: Document;
  try {
    doc = await parseDomFromString((await inflateRawAsync(Buffer.from(encoded, 'base64'))).toString('utf8'));
  } catch {
    throw refused(`is not a deflated, base64 ${kind}`);
  }
  const root = doc.documentElement;
  if (root.localName !== kind) throw refused(`is not a ${kind}`);
  const issuer = xpath.selectElements(doc, `/*[local-name()='${kind}']/*[local-name()='Issuer']`)[0]?.textContent.trim() ?? '';
  const site = sites.get(issuer);
  if (!site) throw refused('comes from a service provider this test identity provider does not serve');
  const id = root.getAttribute('ID') ?? '';
  if (!/^[A-Za-z_][\w.-]{0,127}$/.test(id)) throw refused('has no ID');
  return { doc, root, id, site, refused };
}

/** The HTTP-Redirect AuthnRequest: deflated, base64; from a registered service provider, to its registered ACS. */
export async function readAuthnRequest(encoded: string, sites: ReadonlyMap<string, SamlSite>): Promise<ReadRequest> {
  const { root, id, site, refused } = await readRedirectRequest(encoded, 'AuthnRequest', sites);
  const acs = root.getAttribute('AssertionConsumerServiceURL');
  if (acs !== null && acs !== site.acsUrl) throw refused("names an assertion consumer service that is not the site's");
  return { id, site };
}

/** A LogoutRequest the provider read: whom it names, and the session. */
export interface ReadLogoutRequest extends ReadRequest {
  nameId: string;
  sessionIndex: string | null;
}

/** The HTTP-Redirect LogoutRequest of a registered service provider, sent to this provider's single logout service. */
export async function readLogoutRequest(encoded: string, sites: ReadonlyMap<string, SamlSite>): Promise<ReadLogoutRequest> {
  const { doc, root, id, site, refused } = await readRedirectRequest(encoded, 'LogoutRequest', sites);
  if (root.getAttribute('Destination') !== TEST_SAML_IDP_SLO_URL) throw refused("is not addressed to this provider's single logout service");
  const nameId = xpath.selectElements(doc, "/*[local-name()='LogoutRequest']/*[local-name()='NameID']")[0]?.textContent.trim() ?? '';
  if (nameId === '') throw refused('names nobody');
  const sessionIndex = xpath.selectElements(doc, "/*[local-name()='LogoutRequest']/*[local-name()='SessionIndex']")[0]?.textContent.trim() ?? null;
  return { id, site, nameId, sessionIndex };
}

/** The ways a test can ask a LogoutResponse to be wrong (docs/decisions/0028-sso-saml.md "Sign-out"). */
export const SAML_LOGOUT_FAULTS = ['unsigned', 'tampered', 'foreign-key', 'unknown-in-response-to', 'wrong-destination', 'wrong-issuer', 'failed'] as const;
export type SamlLogoutFault = (typeof SAML_LOGOUT_FAULTS)[number];

const RSA_SHA256 = 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256';

/**
 * The provider's LogoutResponse to a LogoutRequest, HTTP-Redirect binding: the site's single logout service with
 * `SAMLResponse`, `SigAlg` and `Signature` (RSA-SHA256 over the encoded query, SAML bindings §3.4.4.1). On a test's
 * request it is wrong in one way.
 */
export function issueLogoutResponse(key: TestSamlIdpKey, order: { request: ReadRequest; now: Date; fault?: SamlLogoutFault; relayState?: string }): string {
  const { request, now, fault } = order;
  const slo = request.site.sloUrl;
  const message = (inResponseTo: string) =>
    `<samlp:LogoutResponse xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${newId()}" Version="2.0" IssueInstant="${now.toISOString()}" Destination="${xmlText(fault === 'wrong-destination' ? `${slo}/elsewhere` : slo)}" InResponseTo="${inResponseTo}">` +
    `<saml:Issuer>${xmlText(fault === 'wrong-issuer' ? 'https://idp.example.invalid/elsewhere' : TEST_SAML_IDP_ENTITY_ID)}</saml:Issuer>` +
    `<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:${fault === 'failed' ? 'Responder' : 'Success'}"/></samlp:Status>` +
    '</samlp:LogoutResponse>';
  const encode = (xml: string) => encodeURIComponent(deflateRawSync(Buffer.from(xml, 'utf8')).toString('base64'));
  const samlResponse = encode(message(fault === 'unknown-in-response-to' ? newId() : request.id));
  const relayState = order.relayState === undefined ? '' : `&RelayState=${encodeURIComponent(order.relayState)}`;
  const signed = `SAMLResponse=${samlResponse}${relayState}&SigAlg=${encodeURIComponent(RSA_SHA256)}`;
  if (fault === 'unsigned') return `${slo}?SAMLResponse=${samlResponse}${relayState}`;
  const signingKey = fault === 'foreign-key' ? generateTestSamlIdpKey(now).privateKey : key.privateKey;
  const signature = encodeURIComponent(sign('sha256', Buffer.from(signed, 'utf8'), signingKey).toString('base64'));
  // Tampered: signed for one request, then made to answer another, as someone editing the URL would.
  const query = fault === 'tampered' ? signed.replace(samlResponse, encode(message(newId()))) : signed;
  return `${slo}?${query}&Signature=${signature}`;
}

/** Someone the provider signs in. */
export interface SamlPerson {
  email: string;
  givenName: string;
  familyName: string;
}

export type SignedPart = 'response' | 'assertion' | 'both';
/** The ways a test can ask a Response to be wrong (docs/decisions/0028-sso-saml.md "The test identity provider"). */
export const SAML_FAULTS = [
  'unsigned',
  'wrapped',
  'foreign-key',
  'tampered',
  'wrong-audience',
  'wrong-destination',
  'wrong-recipient',
  'wrong-issuer',
  'expired',
  'not-yet-valid',
  'unknown-in-response-to',
] as const;
export type SamlFault = (typeof SAML_FAULTS)[number];

export interface ResponseOrder {
  request: ReadRequest;
  person: SamlPerson;
  now: Date;
  signed?: SignedPart;
  fault?: SamlFault;
  /** The assertion's ID; a fresh one when unset (a test reuses one to show a replayed assertion refused). */
  assertionId?: string;
  /**
   * The site's certificate (PEM): the signed assertion goes as an EncryptedAssertion to its key (AES-256-GCM,
   * the key by RSA-OAEP), as a provider does for a site whose metadata publishes an encryption certificate.
   */
  encryptTo?: string;
  /** The key transport to use instead of RSA-OAEP: a test shows the insecure RSA PKCS#1 v1.5 refused. */
  keyTransport?: 'rsa-oaep-mgf1p' | 'rsa-1_5';
  /** The content cipher to use instead of AES-256-GCM: a test shows triple DES refused. */
  contentEncryption?: 'aes256-gcm' | 'tripledes-cbc';
}

const XMLENC = 'http://www.w3.org/2001/04/xmlenc#';

/** An assertion as XML Encryption's EncryptedData, for the holder of `certificate`'s private key alone. */
function encryptedAssertion(
  assertionXml: string,
  certificate: string,
  keyTransport: 'rsa-oaep-mgf1p' | 'rsa-1_5',
  content: 'aes256-gcm' | 'tripledes-cbc',
): string {
  const gcm = content === 'aes256-gcm';
  const contentKey = randomBytes(gcm ? 32 : 24);
  const iv = randomBytes(gcm ? 12 : 8);
  let sealed: Buffer;
  if (gcm) {
    const cipher = createCipheriv('aes-256-gcm', contentKey, iv);
    sealed = Buffer.concat([iv, cipher.update(assertionXml, 'utf8'), cipher.final(), cipher.getAuthTag()]);
  } else {
    const cipher = createCipheriv('des-ede3-cbc', contentKey, iv);
    sealed = Buffer.concat([iv, cipher.update(assertionXml, 'utf8'), cipher.final()]);
  }
  const padding = keyTransport === 'rsa-1_5' ? constants.RSA_PKCS1_PADDING : constants.RSA_PKCS1_OAEP_PADDING;
  const wrappedKey = publicEncrypt({ key: new X509Certificate(certificate).publicKey, padding, oaepHash: 'sha1' }, contentKey);
  return (
    `<saml:EncryptedAssertion><xenc:EncryptedData xmlns:xenc="${XMLENC}" Type="${XMLENC}Element">` +
    `<xenc:EncryptionMethod Algorithm="${gcm ? 'http://www.w3.org/2009/xmlenc11#aes256-gcm' : `${XMLENC}tripledes-cbc`}"/>` +
    `<ds:KeyInfo xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><xenc:EncryptedKey><xenc:EncryptionMethod Algorithm="${XMLENC}${keyTransport}"/>` +
    `<xenc:CipherData><xenc:CipherValue>${wrappedKey.toString('base64')}</xenc:CipherValue></xenc:CipherData></xenc:EncryptedKey></ds:KeyInfo>` +
    `<xenc:CipherData><xenc:CipherValue>${sealed.toString('base64')}</xenc:CipherValue></xenc:CipherData>` +
    '</xenc:EncryptedData></saml:EncryptedAssertion>'
  );
}

const MINUTE = 60 * 1000;
const ASSERTION_XPATH = "/*[local-name()='Response']/*[local-name()='Assertion']";
const SIGNING = { signatureAlgorithm: 'sha256', digestAlgorithm: 'sha256' } as const;

/** A Response to the request, base64 as the HTTP-POST binding carries it. */
export function issueResponse(key: TestSamlIdpKey, order: ResponseOrder): string {
  const { request, person, now, fault } = order;
  const signed = fault === 'unsigned' ? null : (order.signed ?? 'both');
  const acs = request.site.acsUrl;
  const at = (offset: number) => new Date(now.getTime() + offset).toISOString();
  const inResponseTo = fault === 'unknown-in-response-to' ? newId() : request.id;
  const [notBefore, notOnOrAfter] =
    fault === 'expired' ? [at(-20 * MINUTE), at(-10 * MINUTE)] : fault === 'not-yet-valid' ? [at(10 * MINUTE), at(20 * MINUTE)] : [at(-MINUTE), at(5 * MINUTE)];
  const issuer = fault === 'wrong-issuer' ? 'https://idp.example.invalid/elsewhere' : TEST_SAML_IDP_ENTITY_ID;
  const assertion = (
    id: string,
    email: string,
  ) => `<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${id}" Version="2.0" IssueInstant="${at(0)}">
<saml:Issuer>${xmlText(issuer)}</saml:Issuer>
<saml:Subject><saml:NameID Format="${EMAIL_NAME_ID_FORMAT}">${xmlText(email)}</saml:NameID><saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData NotOnOrAfter="${notOnOrAfter}" Recipient="${xmlText(fault === 'wrong-recipient' ? `${acs}/elsewhere` : acs)}" InResponseTo="${inResponseTo}"/></saml:SubjectConfirmation></saml:Subject>
<saml:Conditions NotBefore="${notBefore}" NotOnOrAfter="${notOnOrAfter}"><saml:AudienceRestriction><saml:Audience>${xmlText(fault === 'wrong-audience' ? 'https://another-portal.example/sp' : request.site.spEntityId)}</saml:Audience></saml:AudienceRestriction></saml:Conditions>
<saml:AuthnStatement AuthnInstant="${at(0)}" SessionIndex="${newId()}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>
<saml:AttributeStatement><saml:Attribute Name="email"><saml:AttributeValue>${xmlText(email)}</saml:AttributeValue></saml:Attribute><saml:Attribute Name="givenName"><saml:AttributeValue>${xmlText(person.givenName)}</saml:AttributeValue></saml:Attribute><saml:Attribute Name="sn"><saml:AttributeValue>${xmlText(person.familyName)}</saml:AttributeValue></saml:Attribute></saml:AttributeStatement>
</saml:Assertion>`;
  const assertionId = order.assertionId ?? newId();
  const response = (
    inner: string,
  ) => `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${newId()}" Version="2.0" IssueInstant="${at(0)}" Destination="${xmlText(fault === 'wrong-destination' ? `${acs}/elsewhere` : acs)}" InResponseTo="${inResponseTo}">
<saml:Issuer>${xmlText(issuer)}</saml:Issuer>
<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>
${inner}
</samlp:Response>`;
  const signingKey = fault === 'foreign-key' ? generateTestSamlIdpKey(now).privateKey : key.privateKey;
  let xml = response(assertion(assertionId, person.email));
  if (fault === 'wrapped') {
    // Signature wrapping: the assertion signed for this person moves into Extensions, and an unsigned copy with the
    // same ID names someone else where the service provider reads the assertion.
    const genuine = signXml(
      xml,
      ASSERTION_XPATH,
      { reference: `${ASSERTION_XPATH}/*[local-name()='Issuer']`, action: 'after' },
      { privateKey: signingKey, ...SIGNING },
    );
    const signedAssertion = genuine.slice(genuine.indexOf('<saml:Assertion'), genuine.indexOf('</saml:Assertion>') + '</saml:Assertion>'.length);
    return Buffer.from(
      response(`<samlp:Extensions>${signedAssertion}</samlp:Extensions>\n${assertion(assertionId, `intruder.${person.email}`)}`),
      'utf8',
    ).toString('base64');
  }
  if (signed === 'assertion' || signed === 'both') {
    xml = signXml(xml, ASSERTION_XPATH, { reference: `${ASSERTION_XPATH}/*[local-name()='Issuer']`, action: 'after' }, { privateKey: signingKey, ...SIGNING });
  }
  if (order.encryptTo !== undefined) {
    const start = xml.indexOf('<saml:Assertion');
    const end = xml.indexOf('</saml:Assertion>') + '</saml:Assertion>'.length;
    xml = `${xml.slice(0, start)}${encryptedAssertion(xml.slice(start, end), order.encryptTo, order.keyTransport ?? 'rsa-oaep-mgf1p', order.contentEncryption ?? 'aes256-gcm')}${xml.slice(end)}`;
  }
  if (signed === 'response' || signed === 'both') xml = signSamlPost(xml, "/*[local-name()='Response']", { privateKey: signingKey, ...SIGNING });
  // Tampered: signed, then the e-mail address changed, as someone editing a Response in the browser would.
  if (fault === 'tampered') xml = xml.split(xmlText(person.email)).join(xmlText(`intruder.${person.email}`));
  return Buffer.from(xml, 'utf8').toString('base64');
}
