/** Errors are shown next to their fields and focus goes to the first one, so the form has no list at the top. */
export function ErrorListTemplate() {
  return null;
}
