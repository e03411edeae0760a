/** Routes: sign-in when signed out; else the shell with the keys pages of an account. */
import { useQuery } from '@tanstack/react-query';
import { Redirect, Route, Switch } from 'wouter';
import { useSession } from './auth/use-session.js';
import { SignInPage } from './auth/sign-in-page.js';
import { AdminRoutes } from './admin/admin-routes.js';
import { DashboardPage } from './dashboard/dashboard-page.js';
import { CreateKeyPage } from './keys/create-key-page.js';
import { EditKeyPage } from './keys/edit-key-page.js';
import { KeyPage } from './keys/key-page.js';
import { KeyRecordsPage } from './keys/key-records-page.js';
import { KeysPage } from './keys/keys-page.js';
import { RecordPage } from './keys/record-page.js';
import { MembersPage } from './members/members-page.js';
import { NotifiersPage } from './notifiers/notifiers-page.js';
import { AppShell } from './shell/app-shell.js';
import { ErrorNote } from './ui/error-note.js';
import { accountQueries } from './shell/account-queries.js';

function FirstAccount() {
  const accounts = useQuery(accountQueries.list());
  if (accounts.error !== null) return <ErrorNote error={accounts.error} />;
  if (accounts.data === undefined) return <p role="status">Loading accounts…</p>;
  // Namespaces without an Account refuse their keys at the gateway: prefer one that has it.
  const items = accounts.data.items;
  const first = items.find((item) => item.hasAccount) ?? items[0];
  if (first === undefined) {
    return <p>You may not read the keys of any account. Ask an administrator for access.</p>;
  }
  return <Redirect to={`/accounts/${first.namespace}/keys`} replace />;
}

export function App() {
  const { me, error } = useSession();
  if (error !== null) return <ErrorNote error={error} />;
  if (me === undefined) return <p role="status">Loading…</p>;
  if (me === null) return <SignInPage />;
  return (
    <AppShell me={me}>
      <Switch>
        <Route path="/accounts/:namespace/keys/new">
          {(params) => <CreateKeyPage namespace={params.namespace} me={me} />}
        </Route>
        <Route path="/accounts/:namespace/keys/:name/edit">
          {(params) => <EditKeyPage namespace={params.namespace} name={params.name} me={me} />}
        </Route>
        <Route path="/accounts/:namespace/keys/:name/records/:requestId">
          {(params) => (
            <RecordPage
              namespace={params.namespace}
              name={params.name}
              requestId={params.requestId}
            />
          )}
        </Route>
        <Route path="/accounts/:namespace/keys/:name/records">
          {(params) => <KeyRecordsPage namespace={params.namespace} name={params.name} />}
        </Route>
        <Route path="/accounts/:namespace/keys/:name">
          {(params) => <KeyPage namespace={params.namespace} name={params.name} me={me} />}
        </Route>
        <Route path="/accounts/:namespace/keys">
          {(params) => <KeysPage namespace={params.namespace} />}
        </Route>
        <Route path="/accounts/:namespace/dashboard">
          {(params) => <DashboardPage namespace={params.namespace} />}
        </Route>
        <Route path="/accounts/:namespace/members">
          {(params) => <MembersPage namespace={params.namespace} />}
        </Route>
        <Route path="/accounts/:namespace/notifiers">
          {(params) => <NotifiersPage scope={{ namespace: params.namespace }} />}
        </Route>
        <Route path="/admin" nest>
          <AdminRoutes />
        </Route>
        <Route>
          <FirstAccount />
        </Route>
      </Switch>
    </AppShell>
  );
}
