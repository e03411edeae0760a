/** The Group form's prices: the fallback price and per-model overrides (USD per million tokens). */
import { RowList } from '../ui/row-list.js';
import { TextField } from '../ui/text-field.js';
import type { GroupSectionProps } from './group-form-paths.js';
import { emptyPrices, PRICE_FIELDS, type Prices } from './group-form-state.js';

function PriceFields(props: {
  prices: Prices;
  onChange: (change: Partial<Prices>) => void;
  suffix?: string;
}) {
  return (
    <>
      {PRICE_FIELDS.map((field) => (
        <TextField
          key={field.key}
          label={`${field.label} (USD / M tokens)${props.suffix ?? ''}`}
          inputMode="decimal"
          value={props.prices[field.key]}
          onChange={(value) => {
            props.onChange({ [field.key]: value });
          }}
        />
      ))}
    </>
  );
}

export function GroupPricingFields(props: GroupSectionProps) {
  const { form, update, error } = props;
  return (
    <>
      <fieldset>
        <legend>Fallback price</legend>
        <p className="hint">
          For models missing from the price table; empty: such models are refused. Input and output
          are required when any is set.
        </p>
        <div className="grid">
          <PriceFields
            prices={form.fallback}
            onChange={(change) => {
              update({ fallback: { ...form.fallback, ...change } });
            }}
          />
        </div>
        {error('spec.pricing.fallback') !== undefined && (
          <p className="field-error" role="alert">
            {error('spec.pricing.fallback')}
          </p>
        )}
      </fieldset>
      <RowList
        legend="Price overrides"
        itemLabel="Override"
        addLabel="Add price override"
        hint="A model's own price for this group (input and output required)."
        rows={form.overrides}
        error={error('spec.pricing.overrides')}
        newRow={() => ({ model: '', ...emptyPrices() })}
        onChange={(overrides) => {
          update({ overrides });
        }}
        render={(row, change) => (
          <>
            <TextField
              label="Model"
              value={row.model}
              onChange={(model) => {
                change({ model });
              }}
            />
            <PriceFields prices={row} onChange={change} />
          </>
        )}
      />
    </>
  );
}
