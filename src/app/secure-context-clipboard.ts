/** The clipboard, which browsers give only to secure contexts (the DOM types have it always there). */
export function secureContextClipboard(): Clipboard | undefined {
  return (navigator as { clipboard?: Clipboard }).clipboard;
}
