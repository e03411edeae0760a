/**
 * The shell's navigation: the account's keys, dashboard, members and notifications, and "Administration" for users whom
 * Kubernetes RBAC lets change Groups, Upstreams or Accounts (GET /me/access). Every link stays on
 * every page: outside an account's pages (administration) they lead to the account last shown,
 * else to the first one with an Account. The link of the current page carries aria-current="page".
 */
import { useEffect, useState, type ReactNode } from 'react';
import { Link, useLocation } from 'wouter';
import { useAccess } from '../auth/use-access.js';
import { useAccounts } from '../ui/account-picker.js';

function currentAccount(location: string): string | undefined {
  const match = /^\/accounts\/([^/]+)/.exec(location);
  return match?.[1];
}

function NavLink(props: { href: string; current: boolean; children: ReactNode }) {
  return (
    <Link href={props.href} aria-current={props.current ? 'page' : undefined}>
      {props.children}
    </Link>
  );
}

export function NavLinks() {
  const [location] = useLocation();
  const shown = currentAccount(location);
  const [last, setLast] = useState(shown);
  useEffect(() => {
    if (shown !== undefined) setLast(shown);
  }, [shown]);
  const items = useAccounts().data?.items ?? [];
  const account = shown ?? last ?? (items.find((item) => item.hasAccount) ?? items[0])?.namespace;
  // The account's answer: the one its pages ask for too (one request, shared).
  const access = useAccess(account);
  const under = (prefix: string) => location === prefix || location.startsWith(`${prefix}/`);
  return (
    <nav aria-label="Main" className="main-nav">
      {account === undefined ? (
        <NavLink href="/" current={location === '/'}>
          Keys
        </NavLink>
      ) : (
        <>
          <NavLink href={`/accounts/${account}/keys`} current={under(`/accounts/${account}/keys`)}>
            Keys
          </NavLink>
          <NavLink
            href={`/accounts/${account}/dashboard`}
            current={under(`/accounts/${account}/dashboard`)}
          >
            Dashboard
          </NavLink>
          <NavLink
            href={`/accounts/${account}/members`}
            current={under(`/accounts/${account}/members`)}
          >
            Members
          </NavLink>
          <NavLink
            href={`/accounts/${account}/notifiers`}
            current={under(`/accounts/${account}/notifiers`)}
          >
            Notifications
          </NavLink>
        </>
      )}
      {access?.administer === true && (
        <NavLink href="/admin" current={under('/admin')}>
          Administration
        </NavLink>
      )}
    </nav>
  );
}
