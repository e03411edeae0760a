/**
 * Create or edit an Upstream: name, platform (fixed once created), base URL, the credential (an
 * API key, or Google OAuth with client, token URL and project), concurrency, model overrides and,
 * for OpenAI, Chat Completions. Credential values are write-only: the form says whether one is set
 * and a value typed replaces it; nothing typed keeps it.
 */
import type { SyntheticEvent } from 'react';
import type { AdminObject } from '../api/admin-api.js';
import { TextField } from '../ui/text-field.js';
import {
  AdminFormLoader,
  FormActions,
  NameField,
  namePlatformProblem,
  PlatformField,
} from './admin-form-parts.js';
import { RowList } from '../ui/row-list.js';
import { SelectField } from '../ui/select-field.js';
import { useAdminForm } from './use-admin-form.js';
import {
  credentialIsSet,
  upstreamFormFrom,
  upstreamWriteFrom,
  type CredentialType,
  type UpstreamForm,
} from './upstream-form-state.js';

const PATHS = [
  'name',
  'spec.platform',
  'spec.baseURL',
  'spec.credentials',
  'spec.credentials.type',
  'spec.credentials.apiKey',
  'apiKeyValue',
  'spec.credentials.googleOAuth',
  'spec.credentials.googleOAuth.clientID',
  'spec.credentials.googleOAuth.tokenURL',
  'spec.credentials.googleOAuth.projectID',
  'googleOAuthSecret',
  'spec.maxConcurrentRequests',
  'spec.requestsPerMinute',
  'spec.modelOverrides',
  'spec.chatCompletions',
] as const;

export function UpstreamFormPage(props: { name?: string }) {
  return (
    <AdminFormLoader
      kind="upstreams"
      wanted={props.name !== undefined}
      find={(item) => item.name === props.name}
      missing={`There is no Upstream named ${props.name ?? ''}.`}
      render={(current) => <UpstreamFormBody current={current} />}
    />
  );
}

function UpstreamFormBody(props: { current: AdminObject | undefined }) {
  const credentialSet = credentialIsSet(props.current?.spec);
  const { editing, form, update, setProblem, shown, save, send } = useAdminForm<UpstreamForm>({
    kind: 'upstreams',
    current: props.current,
    initial: () => upstreamFormFrom(props.current?.name ?? '', props.current?.spec),
    paths: PATHS,
  });
  const error = (...paths: (typeof PATHS)[number][]) =>
    paths.map((path) => shown.byPath[path]).find((message) => message !== undefined);
  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    const missing = namePlatformProblem(form);
    if (missing !== null) {
      setProblem(missing);
      return;
    }
    const built = upstreamWriteFrom(form);
    if ('problem' in built) {
      setProblem(built.problem);
      return;
    }
    send(form.name.trim(), built.write);
  };
  const credentialState = credentialSet
    ? `A credential is set (Secret ${form.secretName}). It is never shown; type a new value to replace it.`
    : 'No credential is set yet.';
  return (
    <form className="admin-form" onSubmit={submit} noValidate aria-labelledby="admin-form-title">
      <h2 id="admin-form-title">{editing ? `Edit upstream ${form.name}` : 'Create upstream'}</h2>
      <div className="grid two">
        <NameField
          editing={editing}
          label="Name"
          value={form.name}
          error={error('name')}
          hint="Lower-case letters, digits, '-' and '.'; groups name it."
          onChange={(name) => {
            update({ name });
          }}
        />
        <PlatformField
          editing={editing}
          noun="upstream"
          value={form.platform}
          error={error('spec.platform')}
          hint="The protocol the provider speaks."
          onChange={(platform) => {
            update({
              platform,
              ...(platform === 'Antigravity' ? { credentialType: 'GoogleOAuth' as const } : {}),
            });
          }}
        />
      </div>
      <TextField
        label="Base URL"
        type="url"
        value={form.baseURL}
        error={error('spec.baseURL')}
        hint="Origin and optional path prefix, e.g. https://api.anthropic.com."
        onChange={(baseURL) => {
          update({ baseURL });
        }}
      />
      <fieldset>
        <legend>Credential</legend>
        <p className="hint credential-state" role="status">
          {credentialState}
        </p>
        <SelectField
          label="Credential type"
          value={form.credentialType}
          error={error('spec.credentials.type', 'spec.credentials')}
          options={[
            { value: 'APIKey', label: 'API key' },
            { value: 'GoogleOAuth', label: 'Google OAuth (Antigravity)' },
          ]}
          onChange={(credentialType) => {
            update({ credentialType: credentialType as CredentialType });
          }}
        />
        {form.credentialType === 'APIKey' ? (
          <>
            <TextField
              label={credentialSet ? 'New API key' : 'API key'}
              type="password"
              autoComplete="new-password"
              value={form.apiKeyValue}
              error={error('apiKeyValue', 'spec.credentials.apiKey')}
              hint={`Stored in the Secret tollgate-upstream-${form.name === '' ? '<name>' : form.name} in the operator namespace; never shown again.${credentialSet ? ' Empty: keep the current key.' : ''}`}
              onChange={(apiKeyValue) => {
                update({ apiKeyValue });
              }}
            />
            <details className="advanced">
              <summary>Use a Secret that already exists</summary>
              <div className="grid two">
                <TextField
                  label="Secret name"
                  value={form.secretName}
                  hint="In the operator namespace; ignored when a new key is typed."
                  onChange={(secretName) => {
                    update({ secretName });
                  }}
                />
                <TextField
                  label="Key in the Secret"
                  value={form.secretKey}
                  placeholder="apiKey"
                  onChange={(secretKey) => {
                    update({ secretKey });
                  }}
                />
              </div>
            </details>
          </>
        ) : (
          <>
            <div className="grid two">
              <TextField
                label="Client ID"
                value={form.clientID}
                error={error('spec.credentials.googleOAuth.clientID')}
                onChange={(clientID) => {
                  update({ clientID });
                }}
              />
              <TextField
                label="Token URL"
                type="url"
                value={form.tokenURL}
                error={error('spec.credentials.googleOAuth.tokenURL')}
                onChange={(tokenURL) => {
                  update({ tokenURL });
                }}
              />
              <TextField
                label="Project ID"
                value={form.projectID}
                error={error('spec.credentials.googleOAuth.projectID')}
                onChange={(projectID) => {
                  update({ projectID });
                }}
              />
              <TextField
                label="Secret name"
                value={form.secretName}
                hint="A Secret with refreshToken and clientSecret; replaced when new values are typed."
                error={error('spec.credentials.googleOAuth')}
                onChange={(secretName) => {
                  update({ secretName });
                }}
              />
              <TextField
                label={credentialSet ? 'New refresh token' : 'Refresh token'}
                type="password"
                autoComplete="new-password"
                value={form.refreshToken}
                error={error('googleOAuthSecret')}
                onChange={(refreshToken) => {
                  update({ refreshToken });
                }}
              />
              <TextField
                label={credentialSet ? 'New client secret' : 'Client secret'}
                type="password"
                autoComplete="new-password"
                value={form.clientSecret}
                onChange={(clientSecret) => {
                  update({ clientSecret });
                }}
              />
            </div>
          </>
        )}
      </fieldset>
      <TextField
        label="Concurrent requests"
        inputMode="numeric"
        value={form.maxConcurrentRequests}
        error={error('spec.maxConcurrentRequests')}
        hint="Requests in flight at once through this upstream; empty or 0: unlimited."
        onChange={(maxConcurrentRequests) => {
          update({ maxConcurrentRequests });
        }}
      />
      <TextField
        label="Requests per minute"
        inputMode="numeric"
        value={form.requestsPerMinute}
        error={error('spec.requestsPerMinute')}
        hint="Calls started per minute through this upstream, across every gateway; at the limit the next upstream of the group is tried. Empty or 0: unlimited."
        onChange={(requestsPerMinute) => {
          update({ requestsPerMinute });
        }}
      />
      <RowList
        legend="Model overrides"
        itemLabel="Model override"
        addLabel="Add model override"
        hint="A model name clients send, rewritten to the upstream's name before forwarding."
        rows={form.modelOverrides}
        error={error('spec.modelOverrides')}
        newRow={() => ({ name: '', upstreamModel: '' })}
        onChange={(modelOverrides) => {
          update({ modelOverrides });
        }}
        render={(row, change) => (
          <>
            <TextField
              label="Model"
              value={row.name}
              onChange={(name) => {
                change({ name });
              }}
            />
            <TextField
              label="Upstream model"
              value={row.upstreamModel}
              onChange={(upstreamModel) => {
                change({ upstreamModel });
              }}
            />
          </>
        )}
      />
      {form.platform === 'OpenAI' && (
        <SelectField
          label="Chat Completions"
          value={form.chatCompletions}
          error={error('spec.chatCompletions')}
          options={[
            { value: '', label: 'Translate to Responses (default)' },
            { value: 'Translate', label: 'Translate to Responses' },
            { value: 'Native', label: 'Pass through (native)' },
          ]}
          onChange={(chatCompletions) => {
            update({ chatCompletions });
          }}
        />
      )}
      <FormActions
        editing={editing}
        pending={save.isPending}
        cancelHref="/upstreams"
        rest={shown.rest}
      />
    </form>
  );
}
