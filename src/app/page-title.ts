/** SPEC §2: the page title is built from route titles joined by hyphens: brand, title, brand. */
export function pageTitle(siteBrand: string, routeTitle: string, programmeBrand: string): string {
  return [siteBrand, routeTitle, programmeBrand].filter((part) => part.trim() !== '').join(' - ');
}
