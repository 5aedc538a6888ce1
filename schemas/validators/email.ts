/**
 * SPEC §5 "Email: trimmed, standard address pattern (local part, @, domain with suffix of 2+
 * letters or IP literal). Error key error."
 */
import { fieldError, type FieldError } from './field-error';

/** RFC 5321 §4.5.3.1: a path holds at most 256 octets, so an address at most 254 characters. */
export const EMAIL_MAX_LENGTH = 254;
/** RFC 5321 §4.5.3.1.1: the local part is at most 64 characters. */
const LOCAL_PART_MAX_LENGTH = 64;

/** Dot-atom local part (RFC 5322 atext); no quoted local parts. */
const LOCAL_PART = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*";
/** Host labels of up to 63 characters, then a suffix of 2+ letters. */
const HOST_NAME = '(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\\.)+[A-Za-z]{2,}';
const IPV4_OCTET = '(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])';
const IP_LITERAL = `\\[(?:${IPV4_OCTET}\\.){3}${IPV4_OCTET}\\]`;
/** Every repetition is delimited by a `.` the repeated part cannot hold, so matching is linear. */
const EMAIL = new RegExp(`^${LOCAL_PART}@(?:${HOST_NAME}|${IP_LITERAL})$`);

export function validateEmail(value: string): FieldError | null {
  const email = value.trim();
  if (email.length > EMAIL_MAX_LENGTH) return fieldError('error');
  const at = email.lastIndexOf('@');
  if (at > LOCAL_PART_MAX_LENGTH) return fieldError('error');
  return EMAIL.test(email) ? null : fieldError('error');
}
