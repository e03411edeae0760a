/** The shell's navigation: the current account's keys and dashboard, and administration. */
import { Link, useLocation } from 'wouter';

function currentAccount(location: string): string | undefined {
  const match = /^\/accounts\/([^/]+)/.exec(location);
  return match?.[1];
}

export function NavLinks() {
  const [location] = useLocation();
  const account = currentAccount(location);
  return (
    <nav aria-label="Main" className="main-nav">
      {account !== undefined && (
        <>
          <Link href={`/accounts/${account}/keys`}>Keys</Link>
          <Link href={`/accounts/${account}/dashboard`}>Dashboard</Link>
        </>
      )}
      <Link href="/admin">Administration</Link>
    </nav>
  );
}
