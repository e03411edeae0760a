/** Administration pages (Groups, Upstreams, Accounts), mounted under /admin. */
export function AdminRoutes() {
  return <h1>Administration</h1>;
}
