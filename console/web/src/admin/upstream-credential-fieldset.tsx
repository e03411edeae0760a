/**
 * The Upstream form's credential: whether one is set (values are write-only: never shown, a value
 * typed replaces it), its type, and an API key (or an existing Secret) or Google OAuth's client,
 * token URL, project and secret values.
 */
import { SelectField } from '../ui/select-field.js';
import { TextField } from '../ui/text-field.js';
import type { UpstreamSectionProps } from './upstream-form-paths.js';
import type { CredentialType } from './upstream-form-state.js';

type CredentialProps = UpstreamSectionProps & { credentialSet: boolean };

export function UpstreamCredentialFieldset(props: CredentialProps) {
  const { form, update, error, credentialSet } = props;
  const credentialState = credentialSet
    ? `A credential is set (Secret ${form.secretName}). It is never shown; type a new value to replace it.`
    : 'No credential is set yet.';
  return (
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
        <ApiKeyFields {...props} />
      ) : (
        <GoogleOAuthFields {...props} />
      )}
    </fieldset>
  );
}

function ApiKeyFields(props: CredentialProps) {
  const { form, update, error, credentialSet } = props;
  return (
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
  );
}

function GoogleOAuthFields(props: CredentialProps) {
  const { form, update, error, credentialSet } = props;
  return (
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
  );
}
