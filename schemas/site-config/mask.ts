/**
 * The mask engine's pure core (SPEC §5: phone, national id and postal code are auto-formatted
 * by a mask; a value is complete when it fills every slot of the mask).
 *
 * Grammar (docs/decisions/0001-site-fixture-format.md): `0` is a digit slot, `A` a letter slot,
 * `*` a letter-or-digit slot; the literals space ( ) - . / + : are copied as they are.
 * Caret handling is built on top of this module; nothing here touches the DOM.
 */

export type MaskSlotKind = 'digit' | 'letter' | 'alphanumeric';
export type MaskToken = { kind: MaskSlotKind } | { kind: 'literal'; char: string };

export type ParsedMask =
  | { ok: true; tokens: MaskToken[] }
  /** `position` is the 0-based index of the first character the grammar does not know. */
  | { ok: false; position: number; character: string };

const SLOT_KIND_BY_CHAR: Readonly<Record<string, MaskSlotKind>> = { '0': 'digit', A: 'letter', '*': 'alphanumeric' };
const MASK_LITERALS = ' ()-./+:';

const DIGIT = /^[0-9]$/;
const LETTER = /^[A-Za-z]$/;

/** Reads a mask strictly: any character outside the grammar is reported with its position. */
export function parseMask(mask: string): ParsedMask {
  const tokens: MaskToken[] = [];
  for (const [position, character] of [...mask].entries()) {
    const slot = SLOT_KIND_BY_CHAR[character];
    if (slot !== undefined) tokens.push({ kind: slot });
    else if (MASK_LITERALS.includes(character)) tokens.push({ kind: 'literal', char: character });
    else return { ok: false, position, character };
  }
  return { ok: true, tokens };
}

/**
 * Reads a mask leniently, treating an unknown character as a literal, so that formatting never
 * fails at run time (fixtures are checked with `parseMask` before they are served).
 */
function tokenize(mask: string): MaskToken[] {
  return [...mask].map((character) => {
    const slot = SLOT_KIND_BY_CHAR[character];
    return slot === undefined ? { kind: 'literal', char: character } : { kind: slot };
  });
}

function fitsSlot(kind: MaskSlotKind, character: string): boolean {
  if (kind === 'digit') return DIGIT.test(character);
  if (kind === 'letter') return LETTER.test(character);
  return DIGIT.test(character) || LETTER.test(character);
}

/**
 * Walks the typed characters through the mask. Literals are written only once a later slot is
 * filled (or when the user types that literal), so "11" in "(00) 00000-0000" gives "(11" and
 * deleting back over a literal is possible. Characters that fit no slot are skipped.
 */
function fill(mask: string, typed: string): { formatted: string; raw: string } {
  const tokens = tokenize(mask);
  let formatted = '';
  let raw = '';
  let next = 0;
  for (const character of typed) {
    let slotIndex = next;
    let literals = '';
    for (let token = tokens[slotIndex]; token?.kind === 'literal'; token = tokens[++slotIndex]) literals += token.char;

    const typedLiteral = literals.indexOf(character);
    if (typedLiteral >= 0) {
      formatted += literals.slice(0, typedLiteral + 1);
      next += typedLiteral + 1;
      continue;
    }
    const slot = tokens[slotIndex];
    if (slot === undefined) break; // every slot is filled
    if (slot.kind !== 'literal' && fitsSlot(slot.kind, character)) {
      formatted += literals + character;
      raw += character;
      next = slotIndex + 1;
    }
  }
  return { formatted, raw };
}

/** Formats the typed characters into the mask as far as they go; never throws. */
export function applyMask(mask: string, typed: string): string {
  return fill(mask, typed).formatted;
}

/** The characters that fill the mask's slots, without its literals: "(11) 98765-4321" gives "11987654321". */
export function unmask(mask: string, formatted: string): string {
  return fill(mask, formatted).raw;
}

/** How many digit/letter slots the mask has: the length a complete raw value must have (SPEC §5). */
export function maskSlotCount(mask: string): number {
  return tokenize(mask).filter((token) => token.kind !== 'literal').length;
}
