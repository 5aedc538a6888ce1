/** ADR 0008 get-preference-details: `a***@example.com` — enough to recognise, not to harvest. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 1) return '***';
  return `${email[0]}***${email.slice(at)}`;
}

/** ADR 0008: `*** *** 4321`, the last four digits only. */
export function maskPhone(phone: string): string {
  const digits = phone.replace(/\D/g, '');
  return `*** *** ${digits.slice(-4)}`;
}
