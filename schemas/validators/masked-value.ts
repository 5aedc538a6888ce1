/**
 * A masked value is complete when it fills every slot of its mask (SPEC §5). The browser sends it
 * formatted by the mask, an API client may send the bare characters: both are accepted, anything
 * in between (extra characters, other separators) is not.
 */
import { applyMask, maskSlotCount, unmask } from '../site-config/mask';

/** The slot characters of a value that fills `mask`, typed bare or exactly as formatted; else `null`. */
export function completeMaskedValue(mask: string, value: string): string | null {
  const raw = unmask(mask, value);
  if (raw.length !== maskSlotCount(mask)) return null;
  return value === raw || value === applyMask(mask, raw) ? raw : null;
}
