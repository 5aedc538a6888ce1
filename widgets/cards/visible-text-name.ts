/**
 * An accessible name that contains the control's visible text (WCAG 2.5.3 Label in Name, axe
 * `label-content-name-mismatch`): the descriptive name when it already holds the visible text, else
 * the visible text followed by it. A site's own link text (pan_capture.deleteLinkText, e.g. "Remover")
 * may differ from the page language's descriptive name ("Remove the card ending in 1881"), and speech
 * users say what they see.
 */
export function nameWithVisibleText(visibleText: string, descriptiveName: string): string {
  const visible = visibleText.trim();
  if (visible === '' || descriptiveName.toLocaleLowerCase().includes(visible.toLocaleLowerCase())) return descriptiveName;
  return `${visible} (${descriptiveName})`;
}
