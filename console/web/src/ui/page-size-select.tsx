/** A pager's "… per page" choice: a labelled select of the page sizes it offers. */
export function PageSizeSelect(props: {
  label: string;
  sizes: readonly number[];
  value: number;
  onChange: (size: number) => void;
}) {
  return (
    <label className="inline-size">
      {props.label}
      <select
        value={props.value}
        onChange={(event) => {
          props.onChange(Number(event.target.value));
        }}
      >
        {props.sizes.map((size) => (
          <option key={size} value={size}>
            {size}
          </option>
        ))}
      </select>
    </label>
  );
}
