/** A server error in plain words, announced to screen readers. */
export function ErrorNote(props: { error: Error; id?: string }) {
  return (
    <p className="error-note" role="alert" id={props.id}>
      {props.error.message}
    </p>
  );
}
