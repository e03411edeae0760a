/** The Group form's namespaces: every one, or those whose labels match (labels and expressions). */
import { TextField } from '../ui/text-field.js';
import type { GroupSectionProps } from './group-form-paths.js';

export function GroupNamespacesFieldset(props: GroupSectionProps) {
  const { form, update, error } = props;
  return (
    <fieldset>
      <legend>Namespaces</legend>
      <div className="choices">
        <label className="choice">
          <input
            type="radio"
            name="namespaces"
            checked={form.namespaces === 'All'}
            onChange={() => {
              update({ namespaces: 'All' });
            }}
          />
          Every namespace
        </label>
        <label className="choice">
          <input
            type="radio"
            name="namespaces"
            checked={form.namespaces === 'Selector'}
            onChange={() => {
              update({ namespaces: 'Selector' });
            }}
          />
          Namespaces with labels
        </label>
      </div>
      {form.namespaces === 'Selector' && (
        <div className="grid two">
          <TextField
            label="Namespace labels"
            multiline
            value={form.matchLabels}
            hint="One key=value per line; all must match."
            error={error('spec.allowedNamespaces.selector.matchLabels')}
            onChange={(matchLabels) => {
              update({ matchLabels });
            }}
          />
          <TextField
            label="Namespace expressions"
            multiline
            value={form.matchExpressions}
            hint='One per line: "key In a, b", "key NotIn a, b", "key Exists", "key DoesNotExist".'
            error={error('spec.allowedNamespaces.selector.matchExpressions')}
            onChange={(matchExpressions) => {
              update({ matchExpressions });
            }}
          />
        </div>
      )}
      {error('spec.allowedNamespaces') !== undefined && (
        <p className="field-error" role="alert">
          {error('spec.allowedNamespaces')}
        </p>
      )}
    </fieldset>
  );
}
