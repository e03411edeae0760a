/** The frame of every signed-in page: who is signed in (user, groups), theme, sign out. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { Link, useLocation } from 'wouter';
import { consoleApi, type Me } from '../api/console-api.js';
import { authKeys } from '../auth/auth-queries.js';
import { ErrorNote } from '../ui/error-note.js';
import { NavLinks } from './nav-links.js';
import { applyTheme, nextTheme, storedTheme, type Theme } from './theme.js';

const THEME_LABEL: Record<Theme, string> = {
  system: 'Theme: system',
  light: 'Theme: light',
  dark: 'Theme: dark',
};

export function AppShell(props: { me: Me; children: ReactNode }) {
  const client = useQueryClient();
  const [, navigate] = useLocation();
  const [theme, setTheme] = useState<Theme>(storedTheme);
  const signOut = useMutation({
    mutationFn: () => consoleApi.signOut(props.me.csrfToken),
    onSuccess: () => {
      // Forget what the user could read; the session query (observed by the app) becomes null.
      const me = authKeys.me();
      client.removeQueries({ predicate: (query) => query.queryKey[0] !== me[0] });
      client.setQueryData(me, null);
      navigate('/');
    },
  });
  return (
    <div className="shell">
      <header className="topbar">
        <Link href="/" className="brand">
          Tollgate
        </Link>
        <NavLinks />
        <div className="who" aria-label="Signed in as">
          <span className="username">{props.me.username}</span>
          <span className="groups">
            {props.me.groups.length === 0 ? 'no groups' : props.me.groups.join(', ')}
          </span>
        </div>
        <button
          type="button"
          className="quiet"
          onClick={() => {
            const next = nextTheme(theme);
            applyTheme(next);
            setTheme(next);
          }}
        >
          {THEME_LABEL[theme]}
        </button>
        <button
          type="button"
          onClick={() => {
            signOut.mutate();
          }}
          disabled={signOut.isPending}
        >
          Sign out
        </button>
      </header>
      {signOut.error !== null && <ErrorNote error={signOut.error} />}
      <main>{props.children}</main>
    </div>
  );
}
