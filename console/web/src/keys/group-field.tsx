/** The group select: each Group with its platform; the chosen one's platform and multiplier. */
import { useQuery } from '@tanstack/react-query';
import { TextField } from '../ui/text-field.js';
import { keyQueries } from './key-queries.js';

export function GroupField(props: {
  value: string;
  onChange: (value: string) => void;
  error: string | undefined;
}) {
  const groups = useQuery({ ...keyQueries.groups(), retry: false });
  const chosen = groups.data?.find((group) => group.name === props.value);
  const error =
    props.error === undefined ? undefined : <span className="field-error">{props.error}</span>;
  if (groups.isPending) {
    return (
      <label className="field">
        Group
        <select disabled value="">
          <option value="">Loading groups…</option>
        </select>
      </label>
    );
  }
  if (groups.data === undefined) {
    // Reading Groups needs the admin role: others type the group's name.
    return (
      <TextField
        label="Group"
        value={props.value}
        onChange={props.onChange}
        error={props.error}
        required
        hint="The group's name, as your administrator gave it."
      />
    );
  }
  return (
    <div className="field">
      <label>
        Group
        <select
          value={props.value}
          required
          aria-invalid={props.error !== undefined}
          onChange={(event) => {
            props.onChange(event.target.value);
          }}
        >
          <option value="">Choose a group…</option>
          {groups.data.map((group) => (
            <option key={group.name} value={group.name}>
              {group.name}
              {group.platform === null ? '' : ` (${group.platform})`}
            </option>
          ))}
        </select>
      </label>
      {chosen !== undefined && (
        <span className="hint">
          Platform {chosen.platform ?? 'unknown'} · price multiplier ×{chosen.rateMultiplier ?? 1}
        </span>
      )}
      {error}
    </div>
  );
}
