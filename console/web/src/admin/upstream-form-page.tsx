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
import { SelectField } from '../ui/select-field.js';
import { useAdminForm } from './use-admin-form.js';
import { UpstreamCredentialFieldset } from './upstream-credential-fieldset.js';
import { PATHS, type UpstreamPath } from './upstream-form-paths.js';
import { UpstreamModelOverrides } from './upstream-model-overrides.js';
import {
  credentialIsSet,
  upstreamFormFrom,
  upstreamWriteFrom,
  type UpstreamForm,
} from './upstream-form-state.js';

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
  const error = (...paths: UpstreamPath[]) =>
    paths.map((path) => shown.byPath[path]).find((message) => message !== undefined);
  const sections = { form, update, error };
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
      <UpstreamCredentialFieldset {...sections} credentialSet={credentialSet} />
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
      <UpstreamModelOverrides {...sections} />
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
