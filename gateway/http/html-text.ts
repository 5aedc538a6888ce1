/**
 * Text the gateway writes into HTML it makes itself (a server page, the development API page): what a value may
 * hold can never open a tag, end an attribute or end a script block.
 */

/** Text or an attribute value in HTML: every character that could end or start markup, as a numeric reference. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${String(character.charCodeAt(0))};`);
}

/**
 * JSON inside `<script type="application/json">`: `<` escaped, so no `</script>` or `<!--` can end or bend the block;
 * U+2028 and U+2029 escaped, so the text is also a valid JavaScript string for whoever reads it as one.
 */
export function scriptJson(data: unknown): string {
  return JSON.stringify(data)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
