/** The account's dashboard: usage trend, model mix, top keys, balance and concurrency. */
export function DashboardPage(props: { namespace: string }) {
  return <h1>Dashboard of {props.namespace}</h1>;
}
