/** The Group form's upstreams: name (offered from the Upstreams of its platform), weight, priority. */
import { useId } from 'react';
import { RowList } from '../ui/row-list.js';
import { TextField } from '../ui/text-field.js';
import type { GroupSectionProps } from './group-form-paths.js';

export function GroupUpstreamRefs(props: GroupSectionProps & { upstreamNames: string[] }) {
  const { form, update, error, upstreamNames } = props;
  return (
    <>
      <datalist id="group-upstream-names">
        {upstreamNames.map((name) => (
          <option key={name} value={name} />
        ))}
      </datalist>
      <RowList
        legend="Upstreams"
        itemLabel="Upstream"
        addLabel="Add upstream"
        hint="Lower priority is tried first; among equals, traffic is shared by weight."
        rows={form.upstreamRefs}
        error={error('spec.upstreamRefs')}
        newRow={() => ({ name: upstreamNames[0] ?? '', weight: '1', priority: '0' })}
        onChange={(upstreamRefs) => {
          update({ upstreamRefs });
        }}
        render={(row, change) => (
          <>
            <UpstreamNameField
              value={row.name}
              onChange={(name) => {
                change({ name });
              }}
            />
            <TextField
              label="Weight"
              inputMode="numeric"
              value={row.weight}
              onChange={(weight) => {
                change({ weight });
              }}
            />
            <TextField
              label="Priority"
              inputMode="numeric"
              value={row.priority}
              onChange={(priority) => {
                change({ priority });
              }}
            />
          </>
        )}
      />
    </>
  );
}

function UpstreamNameField(props: { value: string; onChange: (value: string) => void }) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>Upstream name</label>
      <input
        id={id}
        list="group-upstream-names"
        value={props.value}
        autoComplete="off"
        spellCheck={false}
        onChange={(event) => {
          props.onChange(event.target.value);
        }}
      />
    </div>
  );
}
