/**
 * WCAG 2.2 contrast of two opaque colours (success criterion 1.4.3, "contrast ratio" and "relative
 * luminance" in its glossary). Pure, so `sites:check` and the gateway's start-up check share it
 * (docs/decisions/0020-site-themes-and-brands.md).
 */

/** A CSS hex colour without transparency: `#rgb` or `#rrggbb`, either case. */
export const HEX_COLOUR_PATTERN = '^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$';
const HEX_COLOUR = new RegExp(HEX_COLOUR_PATTERN);

/** WCAG 1.4.3 level AA for text below 18pt (24px), or below 14pt (18.66px) bold. */
export const AA_NORMAL_TEXT_RATIO = 4.5;

export function isHexColour(value: string): boolean {
  return HEX_COLOUR.test(value);
}

/** `#abc` and `#AABBCC` as `#aabbcc`; null for anything that is not a hex colour of the pattern. */
export function normaliseHexColour(value: string): string | null {
  if (!isHexColour(value)) return null;
  const digits = value.slice(1).toLowerCase();
  return `#${digits.length === 3 ? [...digits].map((digit) => digit + digit).join('') : digits}`;
}

/** Relative luminance of an sRGB colour, 0 (black) to 1 (white). */
export function relativeLuminance(hexColour: string): number {
  const normalised = normaliseHexColour(hexColour);
  if (normalised === null) throw new RangeError(`not a hex colour: ${JSON.stringify(hexColour)}`);
  const [red, green, blue] = [1, 3, 5].map((start) => {
    const channel = parseInt(normalised.slice(start, start + 2), 16) / 255;
    return channel <= 0.04045 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * red + 0.7152 * green + 0.0722 * blue;
}

/** (L1 + 0.05) / (L2 + 0.05) with L1 the lighter: 1 for the same colour, 21 for black on white. */
export function contrastRatio(foreground: string, background: string): number {
  const [lighter, darker] = [relativeLuminance(foreground), relativeLuminance(background)].sort((a, b) => b - a) as [number, number];
  return (lighter + 0.05) / (darker + 0.05);
}

/**
 * The ratio as a reader compares it with 4.5:1: rounded down to two decimals, so 4.499 shows as
 * 4.49:1 and never as a passing "4.50:1".
 */
export function formatContrastRatio(ratio: number): string {
  return `${(Math.floor(ratio * 100) / 100).toFixed(2)}:1`;
}
