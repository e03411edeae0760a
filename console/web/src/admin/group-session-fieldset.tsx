/** The Group form's sticky sessions: keep a conversation on its upstream (and for how long), or not. */
import { SelectField } from '../ui/select-field.js';
import { TextField } from '../ui/text-field.js';
import type { GroupSectionProps } from './group-form-paths.js';

export function GroupSessionFieldset(props: GroupSectionProps) {
  const { form, update, error } = props;
  return (
    <fieldset>
      <legend>Sticky sessions</legend>
      <SelectField
        label="Session affinity"
        value={form.sessionMode}
        options={[
          { value: 'ClientSession', label: 'Keep a conversation on its upstream' },
          { value: 'None', label: 'Schedule every call afresh' },
        ]}
        hint="Calls of one conversation go to the upstream that served it while it is available, so its prompt cache is reused."
        error={error('spec.sessionAffinity')}
        onChange={(sessionMode) => {
          update({ sessionMode: sessionMode === 'None' ? 'None' : 'ClientSession' });
        }}
      />
      {form.sessionMode === 'ClientSession' && (
        <TextField
          label="Session lifetime (seconds)"
          inputMode="numeric"
          value={form.sessionTtlSeconds}
          hint="How long a conversation stays bound after its last call, 60 to 604800; empty: 3600."
          error={error('spec.sessionAffinity.ttlSeconds')}
          onChange={(sessionTtlSeconds) => {
            update({ sessionTtlSeconds });
          }}
        />
      )}
    </fieldset>
  );
}
