/** A label's words and, for a required field, the visual marker (the input itself says "required" to assistive tech). */
export function FieldLabelText({ label, required }: { label: string; required?: boolean }) {
  return (
    <>
      {label}
      {required && (
        <span className="field__required" aria-hidden="true">
          {' *'}
        </span>
      )}
    </>
  );
}
