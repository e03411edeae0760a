/** The Upstream form's model overrides: a model name clients send, and the upstream's name for it. */
import { RowList } from '../ui/row-list.js';
import { TextField } from '../ui/text-field.js';
import type { UpstreamSectionProps } from './upstream-form-paths.js';

export function UpstreamModelOverrides(props: UpstreamSectionProps) {
  const { form, update, error } = props;
  return (
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
  );
}
