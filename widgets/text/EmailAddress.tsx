import { Fragment } from 'react';
import './email-address.css';

/** An e-mail address, masked or not: a value with an "@" and no space (SPEC §5 e-mail). */
export function isEmailAddress(value: string): boolean {
  return /^[^\s@]+@[^\s@]+$/.test(value);
}

/**
 * The pieces an address may be broken between and still read as one: after the "@", and before each dot, so a
 * line never ends in a dot that reads as the sentence's end (`valentina` `.gomez-hernandez` `.longname@`
 * `subdomain` `.example-bank` `.com`).
 */
export function emailAddressParts(address: string): string[] {
  return address.split(/(?<=@)|(?=\.)/).filter((part) => part !== '');
}

/**
 * An e-mail address shown anywhere (the profile, a "check your e-mail" notice, where a code went): isolated in the
 * direction of its first letter (schemas/locales/bidi-isolates.ts), and on a narrow screen it wraps only between its pieces, never inside
 * "gomez-hernandez" nor in the middle of a word; a piece wider than the whole line (email-address.css) is the
 * only one broken inside, rather than widen the page. The text stays the address (copy, screen readers).
 */
export function EmailAddress({ address }: { address: string }) {
  return (
    <bdi className="email-address">
      {emailAddressParts(address).map((part, index) => (
        <Fragment key={index}>
          {index > 0 && <wbr />}
          <span className="email-address__part">{part}</span>
        </Fragment>
      ))}
    </bdi>
  );
}
