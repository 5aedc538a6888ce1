import { createPublicKey, sign, type KeyObject } from 'node:crypto';

/**
 * A self-signed X.509 certificate (DER, written by hand: Node can read certificates but not make them) for an
 * RSA key. SAML metadata carries keys only as certificates (docs/decisions/0028-sso-saml.md): the test identity
 * provider's signing key and a site's own key pair for encrypted assertions are published this way. Nobody
 * trusts the certificate for its issuer or dates; the metadata that carries it is what is trusted.
 */
export function selfSignedCertificate(privateKey: KeyObject, commonName: string, notBefore: Date, notAfter: Date): string {
  const spki = createPublicKey(privateKey).export({ format: 'der', type: 'spki' });
  const sha256WithRsa = sequence(oid([1, 2, 840, 113549, 1, 1, 11]), Buffer.from([0x05, 0x00]));
  const name = sequence(set(sequence(oid([2, 5, 4, 3]), tlv(0x0c, Buffer.from(commonName, 'utf8')))));
  const tbs = sequence(
    tlv(0xa0, integer(Buffer.from([2]))),
    integer(Buffer.from([1])),
    sha256WithRsa,
    name,
    sequence(time(notBefore), time(notAfter)),
    name,
    spki,
  );
  const signature = sign('sha256', tbs, privateKey);
  const der = sequence(tbs, sha256WithRsa, tlv(0x03, Buffer.concat([Buffer.from([0]), signature])));
  return `-----BEGIN CERTIFICATE-----\n${der.toString('base64').replace(/.{64}/g, '$&\n').replace(/\n$/, '')}\n-----END CERTIFICATE-----\n`;
}

/** The base64 body of a PEM certificate, as `ds:X509Certificate` holds it. */
export const certificateBody = (pem: string) => pem.replace(/-----[A-Z ]+-----/g, '').replace(/\s+/g, '');

function tlv(tag: number, content: Buffer): Buffer {
  const length = content.length;
  const header =
    length < 0x80 ? Buffer.from([tag, length]) : length < 0x100 ? Buffer.from([tag, 0x81, length]) : Buffer.from([tag, 0x82, length >> 8, length & 0xff]);
  return Buffer.concat([header, content]);
}
const sequence = (...items: Buffer[]) => tlv(0x30, Buffer.concat(items));
const set = (...items: Buffer[]) => tlv(0x31, Buffer.concat(items));
const integer = (bytes: Buffer) => tlv(0x02, (bytes[0] ?? 0) & 0x80 ? Buffer.concat([Buffer.from([0]), bytes]) : bytes);
function oid(parts: readonly number[]): Buffer {
  const [first = 0, second = 0, ...rest] = parts;
  const bytes = [first * 40 + second];
  for (const part of rest) {
    const groups = [part & 0x7f];
    for (let value = part >> 7; value > 0; value >>= 7) groups.unshift((value & 0x7f) | 0x80);
    bytes.push(...groups);
  }
  return tlv(0x06, Buffer.from(bytes));
}
/** GeneralizedTime, which every date can be written in. */
const time = (at: Date) => tlv(0x18, Buffer.from(`${at.toISOString().slice(0, 19).replace(/[-:T]/g, '')}Z`, 'ascii'));
