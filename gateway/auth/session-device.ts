import { isIPv4, isIPv6 } from 'node:net';
import type { FastifyRequest } from 'fastify';
import type { BrowserName, OperatingSystemName } from '../../schemas/entities/signed-in-device';

/**
 * What a person recognises a sign-in by (docs/decisions/0025-fresh-proof.md "Sessions the holder can see"): the
 * browser and the operating system read from the User-Agent at sign-in, and the address it came from. Only names
 * from the lists below are kept, never the header itself: a User-Agent is whatever the client sends, so storing it
 * would put any text of an attacker's choosing on the holder's screen, and it is a fingerprint we do not need.
 * The names are schemas/entities/signed-in-device.ts's.
 */

export interface DeviceDescription {
  /** null: not one we know (a script, an unusual browser). */
  browser: BrowserName | null;
  os: OperatingSystemName | null;
}

/** A sign-in's device and the address it first came from (`request.ip`, which honours TRUST_PROXY). */
export interface SessionDevice extends DeviceDescription {
  address: string | null;
}

/** Real User-Agents are a few hundred characters; the rest of a longer header is never read. */
const READ_AT_MOST = 512;

/**
 * Browsers in the order they must be tested: each one's token is unique to it, but most also send the tokens
 * of the browsers they derive from (Edge and Opera and Samsung Internet say "Chrome", Chrome says "Safari").
 * The iOS tokens name the browser on iOS, where every browser is Safari's engine.
 */
const BROWSER_TOKENS: readonly (readonly [RegExp, BrowserName])[] = [
  [/\b(?:Edg|EdgA|EdgiOS|Edge)\//, 'Edge'],
  [/\b(?:OPR|OPiOS|Opera)\//, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\b(?:Firefox|FxiOS)\//, 'Firefox'],
  [/\b(?:HeadlessChrome|Chrome|CriOS|Chromium)\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
];

/** iPad before iPhone (neither says the other); Android before Linux (Android says Linux); CrOS before Linux. */
const OS_TOKENS: readonly (readonly [RegExp, OperatingSystemName])[] = [
  [/\bWindows (?:NT|Phone)\b/, 'Windows'],
  [/\biPad\b/, 'iPadOS'],
  [/\b(?:iPhone|iPod)\b/, 'iOS'],
  [/\bAndroid\b/, 'Android'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bLinux\b|\bX11\b/, 'Linux'],
];

/** "Chrome on Android": the browser and system a User-Agent names, each null when it names none we know. */
export function describeDevice(userAgent: string | undefined): DeviceDescription {
  const text = (userAgent ?? '').slice(0, READ_AT_MOST);
  return {
    browser: BROWSER_TOKENS.find(([token]) => token.test(text))?.[1] ?? null,
    os: OS_TOKENS.find(([token]) => token.test(text))?.[1] ?? null,
  };
}

/** The device and address of the request opening a session or trusting a device. */
export function sessionDeviceOf(request: FastifyRequest): SessionDevice {
  return { ...describeDevice(request.headers['user-agent']), address: normalisedAddress(request.ip) };
}

/** An IPv4 address as itself (also when a dual-stack socket wrote it as `::ffff:a.b.c.d`), an IPv6 one without its zone; null for anything else. */
export function normalisedAddress(ip: string | undefined): string | null {
  if (ip === undefined) return null;
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip)?.[1];
  if (mapped !== undefined && isIPv4(mapped)) return mapped;
  if (isIPv4(ip)) return ip;
  const unzoned = ip.split('%')[0] ?? '';
  return isIPv6(unzoned) ? unzoned.toLowerCase() : null;
}

/**
 * The address as the holder is shown it: the network, not the machine. IPv4 keeps its first two octets
 * ("203.0.*.*"), IPv6 its first three groups, the /48 a site is usually given ("2001:db8:85a3:*"). Whoever holds
 * any session of the account can read this list, a thief included, and a full address places its owner to a
 * street or a household; the network part is what a person or their support agent needs to say "that is not my
 * provider" (Google shows a region for the same reason). The full address is kept in the database only.
 */
export function maskAddress(address: string | null): string | null {
  if (address === null) return null;
  if (isIPv4(address)) return `${address.split('.').slice(0, 2).join('.')}.*.*`;
  if (!isIPv6(address)) return null;
  return `${ipv6Groups(address).slice(0, 3).join(':')}:*`;
}

/** The eight groups of an IPv6 address, "::" expanded, each without leading zeros (an embedded IPv4 tail as two groups). */
function ipv6Groups(address: string): string[] {
  const withoutIpv4Tail = address.replace(/(\d{1,3}(?:\.\d{1,3}){3})$/, (ipv4) => {
    const [a = 0, b = 0, c = 0, d = 0] = ipv4.split('.').map(Number);
    return `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  });
  const [head = '', tail] = withoutIpv4Tail.split('::');
  const headGroups = head === '' ? [] : head.split(':');
  const tailGroups = tail === undefined || tail === '' ? [] : tail.split(':');
  const zeros = tail === undefined ? [] : Array<string>(8 - headGroups.length - tailGroups.length).fill('0');
  return [...headGroups, ...zeros, ...tailGroups].map((group) => Number.parseInt(group, 16).toString(16));
}
