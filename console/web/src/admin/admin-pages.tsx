/**
 * Administration (Groups, Upstreams, Plans, Accounts), mounted under /admin (loaded on demand by
 * admin-routes.tsx): shown to users whom
 * Kubernetes RBAC lets change any of them (GET /me/access); everyone else reads a plain "not
 * allowed". Each kind: a list, a create form and an edit form.
 */
import type { ReactNode } from 'react';
import { Link, Redirect, Route, Switch, useLocation } from 'wouter';
import type { AdminObject } from '../api/admin-api.js';
import { useAccess } from '../auth/use-access.js';
import { UsdAmount } from '../format/usd-amount.js';
import { AccountFormPage } from './account-form-page.js';
import { AdminList, type Column } from './admin-list.js';
import { GroupFormPage } from './group-form-page.js';
import { PLAN_COLUMNS } from './plan-columns.js';
import { PlanFormPage } from './plan-form-page.js';
import { recordOf, textOf, listOf } from './spec-values.js';
import { credentialIsSet } from './upstream-form-state.js';
import { UpstreamFormPage } from './upstream-form-page.js';
import { NotifiersPage } from '../notifiers/notifiers-page.js';
import './admin.css';

function condition(item: AdminObject, type: string): string {
  const found = listOf(item.status?.conditions)
    .map(recordOf)
    .find((entry) => entry.type === type);
  if (found === undefined) return 'pending';
  if (found.status === 'True') return type === 'Ready' ? 'ready' : 'available';
  return textOf(found.reason) === '' ? 'not ready' : textOf(found.reason);
}

const money = (value: unknown, absent: string): ReactNode =>
  textOf(value) === '' ? absent : <UsdAmount value={textOf(value)} />;

const GROUP_COLUMNS: Column[] = [
  { label: 'Name', render: (item) => item.name },
  { label: 'Platform', render: (item) => textOf(item.spec.platform) },
  { label: 'Multiplier', render: (item) => `×${textOf(item.spec.rateMultiplier) || '1'}` },
  {
    label: 'Upstreams',
    render: (item) =>
      listOf(item.spec.upstreamRefs)
        .map((ref) => textOf(recordOf(ref).name))
        .join(', ') || 'none',
  },
  {
    label: 'Namespaces',
    render: (item) =>
      recordOf(item.spec.allowedNamespaces).from === 'Selector' ? 'by labels' : 'every',
  },
  { label: 'Ready', render: (item) => condition(item, 'Ready') },
];

const UPSTREAM_COLUMNS: Column[] = [
  { label: 'Name', render: (item) => item.name },
  { label: 'Platform', render: (item) => textOf(item.spec.platform) },
  { label: 'Base URL', render: (item) => <code>{textOf(item.spec.baseURL)}</code> },
  {
    label: 'Credential',
    render: (item) =>
      `${recordOf(item.spec.credentials).type === 'GoogleOAuth' ? 'Google OAuth' : 'API key'}, ${credentialIsSet(item.spec) ? 'set' : 'not set'}`,
  },
  { label: 'Available', render: (item) => condition(item, 'Available') },
];

const ACCOUNT_COLUMNS: Column[] = [
  { label: 'Namespace', render: (item) => item.namespace ?? '' },
  { label: 'Display name', render: (item) => textOf(item.spec.displayName) || '—' },
  { label: 'Credit', render: (item) => money(item.spec.creditUSD, 'no limit') },
  { label: 'Spent', render: (item) => money(item.status?.spentUSD, '—') },
  { label: 'Balance', render: (item) => money(item.status?.balanceUSD, '—') },
  {
    label: 'Plan',
    render: (item) => {
      const plan = textOf(recordOf(item.spec.subscription).planName);
      const state = textOf(recordOf(item.status?.subscription).state);
      if (plan === '') return 'none';
      return state === '' ? plan : `${plan} (${state.toLowerCase()})`;
    },
  },
  {
    label: 'Concurrency',
    render: (item) =>
      textOf(item.spec.maxConcurrentRequests) === '' ||
      textOf(item.spec.maxConcurrentRequests) === '0'
        ? 'unlimited'
        : textOf(item.spec.maxConcurrentRequests),
  },
];

function AdminTab(props: { href: string; children: ReactNode }) {
  const [location] = useLocation();
  const current = location === props.href || location.startsWith(`${props.href}/`);
  return (
    <Link href={props.href} aria-current={current ? 'page' : undefined}>
      {props.children}
    </Link>
  );
}

export function AdminPages() {
  const access = useAccess();
  if (access === undefined) return <p role="status">Checking your access…</p>;
  if (!access.administer) {
    return (
      <section aria-labelledby="admin-title">
        <h1 id="admin-title">Administration</h1>
        <p role="alert" className="not-allowed">
          You are not allowed to administer this console: your Kubernetes roles do not let you
          change Groups, Upstreams, Plans or Accounts. Ask an administrator if you need to.
        </p>
      </section>
    );
  }
  const first = access.groups.list
    ? '/groups'
    : access.upstreams.list
      ? '/upstreams'
      : access.plans.list
        ? '/plans'
        : '/accounts';
  return (
    <div className="admin">
      <h1 id="admin-title">Administration</h1>
      <nav aria-label="Administration" className="admin-tabs">
        {access.groups.list && <AdminTab href="/groups">Groups</AdminTab>}
        {access.upstreams.list && <AdminTab href="/upstreams">Upstreams</AdminTab>}
        {access.plans.list && <AdminTab href="/plans">Plans</AdminTab>}
        {access.accounts.list && <AdminTab href="/accounts">Accounts</AdminTab>}
        <AdminTab href="/clusternotifiers">Cluster notifiers</AdminTab>
      </nav>
      <Switch>
        <Route path="/groups/new">
          <GroupFormPage />
        </Route>
        <Route path="/groups/:name">{(params) => <GroupFormPage name={params.name} />}</Route>
        <Route path="/groups">
          <AdminList
            kind="groups"
            title="Groups"
            noun="group"
            verbs={access.groups}
            columns={GROUP_COLUMNS}
            keyOf={(item) => item.name}
            deleteConsequence="Keys of this group are refused until they get another group."
            empty="No groups yet. A key needs a group: create one."
          />
        </Route>
        <Route path="/upstreams/new">
          <UpstreamFormPage />
        </Route>
        <Route path="/upstreams/:name">{(params) => <UpstreamFormPage name={params.name} />}</Route>
        <Route path="/upstreams">
          <AdminList
            kind="upstreams"
            title="Upstreams"
            noun="upstream"
            verbs={access.upstreams}
            columns={UPSTREAM_COLUMNS}
            keyOf={(item) => item.name}
            deleteConsequence="Groups naming it stop sending traffic to it. Its Secret stays."
            empty="No upstreams yet."
          />
        </Route>
        <Route path="/plans/new">
          <PlanFormPage />
        </Route>
        <Route path="/plans/:name">{(params) => <PlanFormPage name={params.name} />}</Route>
        <Route path="/plans">
          <AdminList
            kind="plans"
            title="Plans"
            noun="plan"
            verbs={access.plans}
            columns={PLAN_COLUMNS}
            keyOf={(item) => item.name}
            deleteConsequence="Accounts subscribed to it admit calls on their balance only until they get another plan."
            empty="No plans yet. A plan caps an account's spend per 5 hours, day, week and month."
          />
        </Route>
        <Route path="/accounts/new">
          <AccountFormPage />
        </Route>
        <Route path="/accounts/:namespace">
          {(params) => <AccountFormPage namespace={params.namespace} />}
        </Route>
        <Route path="/accounts">
          <AdminList
            kind="accounts"
            title="Accounts"
            noun="account"
            verbs={access.accounts}
            columns={ACCOUNT_COLUMNS}
            keyOf={(item) => item.namespace ?? item.name}
            deleteConsequence="Keys of its namespace are refused until it has an Account again."
            empty="No accounts yet."
          />
        </Route>
        <Route path="/clusternotifiers">
          <NotifiersPage scope={null} />
        </Route>
        <Route>
          <Redirect to={first} replace />
        </Route>
      </Switch>
    </div>
  );
}
