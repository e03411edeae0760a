/** Sign in with a local user (username, password) or with OIDC when the console offers it. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type SyntheticEvent } from 'react';
import { consoleApi } from '../api/console-api.js';
import { ErrorNote } from '../ui/error-note.js';
import { authKeys, authQueries } from './auth-queries.js';
import './sign-in.css';

export function SignInPage() {
  const client = useQueryClient();
  const methods = useQuery(authQueries.methods());
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const signIn = useMutation({
    mutationFn: consoleApi.signIn,
    onSuccess: (me) => {
      client.setQueryData(authKeys.me(), me);
    },
  });
  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    signIn.mutate({ username, password });
  };
  const returnTo = `${location.pathname}${location.search}`;
  return (
    <main className="sign-in">
      <h1>Tollgate console</h1>
      {methods.data?.local !== false && (
        <form onSubmit={submit} className="card" aria-label="Sign in with a local user">
          <label>
            Username
            <input
              name="username"
              autoComplete="username"
              required
              value={username}
              onChange={(event) => {
                setUsername(event.target.value);
              }}
            />
          </label>
          <label>
            Password
            <input
              name="password"
              type="password"
              autoComplete="current-password"
              required
              value={password}
              onChange={(event) => {
                setPassword(event.target.value);
              }}
            />
          </label>
          {signIn.error !== null && <ErrorNote error={signIn.error} />}
          <button type="submit" className="primary" disabled={signIn.isPending}>
            Sign in
          </button>
        </form>
      )}
      {methods.data?.oidc === true && (
        <a
          className={methods.data.local ? 'button oidc' : 'button oidc primary'}
          href={`/api/v1/auth/oidc/login?returnTo=${encodeURIComponent(returnTo)}`}
        >
          Sign in with {methods.data.oidcName ?? 'single sign-on'}
        </a>
      )}
      {methods.error !== null && <ErrorNote error={methods.error} />}
    </main>
  );
}
