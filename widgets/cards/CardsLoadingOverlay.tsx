/** SPEC §2 "A loading overlay shows during enrolment": covers the card screen until the gateway answers. */
export function CardsLoadingOverlay({ label }: { label: string }) {
  return (
    <div className="loading-overlay" role="progressbar" aria-label={label} aria-busy="true">
      <span className="loading-overlay__spinner" aria-hidden="true" />
    </div>
  );
}
