/** A TOTP secret for typing by hand: base32 in groups of four (`JBSW Y3DP EHPK 3PXP`). */
export function groupedKey(secret: string): string {
  return (secret.replace(/\s+/g, '').match(/.{1,4}/g) ?? []).join(' ');
}

/** The gateway's QR code SVG as a data: URL for an `<img>` (the CSP allows data: images, not inline SVG script). */
export function svgDataUrl(svg: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(svg)) binary += String.fromCharCode(byte);
  return `data:image/svg+xml;base64,${btoa(binary)}`;
}
