/**
 * The shell's navigation: the current account's keys and dashboard, and "Administration" for users
 * whom Kubernetes RBAC lets change Groups, Upstreams or Accounts (GET /me/access). The link of the
 * current page carries aria-current="page".
 */
import type { ReactNode } from 'react';
import { Link, useLocation } from 'wouter';
import { useAccess } from '../auth/use-access.js';

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
  const account = currentAccount(location);
  // The current account's answer: the one its pages ask for too (one request, shared).
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
