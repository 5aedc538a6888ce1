/**
 * Cheap checks of a posted SAML Response made before any signature work (docs/decisions/0028-sso-saml.md "Before the
 * signature"). xml-crypto canonicalises the signed element recursively, so a made-up Signature over a Response holding
 * thousands of nested elements cost seconds of CPU per request, without any credential. Real Responses are shallow and
 * small: these bounds refuse nothing an identity provider sends.
 */

/**
 * Deepest element nesting accepted. The deepest real path is about ten: Response, EncryptedAssertion, EncryptedData,
 * KeyInfo, EncryptedKey, KeyInfo, X509Data, X509Certificate; or Assertion, Signature, SignedInfo, Reference,
 * Transforms, Transform, InclusiveNamespaces.
 */
export const SAML_MAX_DEPTH = 24;
/** Most elements accepted: a Response with two signatures and a few dozen attribute values has about a hundred. */
export const SAML_MAX_ELEMENTS = 2000;

/** The SAML status that alone may carry a sign-in (SAML core §3.2.2.2). */
export const SAML_SUCCESS = 'urn:oasis:names:tc:SAML:2.0:status:Success';

/**
 * Why the XML cannot be a Response worth reading, or null. One pass over the text, no parser: a DOCTYPE (SAML
 * bindings §3.5.5.1 forbids DTDs, and they are the entity-expansion vector), nesting deeper than `SAML_MAX_DEPTH`,
 * more than `SAML_MAX_ELEMENTS` elements. Text that is not well-formed is left to the parser.
 */
export function samlShapeProblem(xml: string): string | null {
  let depth = 0;
  let elements = 0;
  let at = xml.indexOf('<');
  while (at !== -1) {
    const next = xml[at + 1];
    if (next === '/') {
      depth -= 1;
      at = xml.indexOf('>', at);
    } else if (next === '?') {
      at = xml.indexOf('?>', at);
    } else if (xml.startsWith('<!--', at)) {
      at = xml.indexOf('-->', at);
    } else if (xml.startsWith('<![CDATA[', at)) {
      at = xml.indexOf(']]>', at);
    } else if (next === '!') {
      return 'it holds a DOCTYPE or another declaration';
    } else {
      elements += 1;
      if (elements > SAML_MAX_ELEMENTS) return `it holds more than ${SAML_MAX_ELEMENTS} elements`;
      const end = tagEnd(xml, at);
      if (end === -1) return null;
      if (xml[end - 1] !== '/') {
        depth += 1;
        if (depth > SAML_MAX_DEPTH) return `its elements nest deeper than ${SAML_MAX_DEPTH}`;
      }
      at = end;
    }
    if (at === -1) return null;
    at = xml.indexOf('<', at + 1);
  }
  return null;
}

/** The `>` closing the start tag at `start`; a `>` inside a quoted attribute value does not close it. */
function tagEnd(xml: string, start: number): number {
  let quote: string | null = null;
  for (let index = start + 1; index < xml.length; index += 1) {
    const character = xml[index];
    if (quote !== null) {
      if (character === quote) quote = null;
    } else if (character === '"' || character === "'") {
      quote = character;
    } else if (character === '>') {
      return index;
    }
  }
  return -1;
}

/** The top-level StatusCode of a Response document, or null when it has none. */
export function topStatusCode(doc: Document): string | null {
  for (const status of childElements(doc.documentElement, 'Status')) {
    for (const code of childElements(status, 'StatusCode')) return code.getAttribute('Value');
  }
  return null;
}

function childElements(parent: Element, localName: string): Element[] {
  const found: Element[] = [];
  for (let node = parent.firstChild; node !== null; node = node.nextSibling) {
    if (node.nodeType === 1 && (node as Element).localName === localName) found.push(node as Element);
  }
  return found;
}
