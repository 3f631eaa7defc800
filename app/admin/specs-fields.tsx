import {
  SPEC_DEFINITIONS,
  featureFieldName,
  type SpecDefinition,
  type SpecKey,
} from "../../server/modules/catalog/watch-specs.shared";
import { Field, type FieldErrors } from "../lib/forms";

/**
 * The product form's specifications (docs/product.md, "Specifications"), every one optional: the
 * inputs come from the one list of them (watch-specs.shared.ts), so a specification added there
 * shows here with its limits.
 */
export function SpecsFields({ values, errors }: { values: Record<string, string>; errors: FieldErrors }) {
  return (
    <fieldset className="specs-fields">
      <legend>Specifications (optional)</legend>
      {(Object.entries(SPEC_DEFINITIONS) as [SpecKey, SpecDefinition][]).map(([key, definition]) => (
        <SpecField
          key={key}
          name={key}
          definition={definition}
          value={values[key]}
          error={errors[key]}
          values={values}
        />
      ))}
    </fieldset>
  );
}

function SpecField({
  name,
  definition,
  value,
  error,
  values,
}: {
  name: string;
  definition: SpecDefinition;
  value: string | undefined;
  error: string | undefined;
  values: Record<string, string>;
}) {
  const id = `field-${name}`;
  const invalid = error ? true : undefined;
  const describedBy = error ? `${id}-error` : undefined;
  switch (definition.kind) {
    case "text":
      return (
        <Field
          name={name}
          label={definition.label}
          defaultValue={value}
          error={error}
          maxLength={definition.max}
          autoComplete="off"
        />
      );
    case "number":
      return (
        <Field
          name={name}
          label={`${definition.label} (${definition.unit})`}
          type="number"
          inputMode={definition.decimals === 0 ? "numeric" : "decimal"}
          min={definition.min}
          max={definition.max}
          step={definition.decimals === 0 ? "1" : "0.1"}
          defaultValue={value}
          error={error}
        />
      );
    case "choice":
    case "yes-no": {
      const options =
        definition.kind === "choice"
          ? definition.values.map((choice) => ({ value: choice, label: choice }))
          : [
              { value: "true", label: "Yes" },
              { value: "false", label: "No" },
            ];
      return (
        <Field name={name} label={definition.label} error={error}>
          <select id={id} name={name} defaultValue={value ?? ""} aria-invalid={invalid} aria-describedby={describedBy}>
            <option value="">Not stated</option>
            {options.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        </Field>
      );
    }
    case "list":
      return (
        <fieldset className="specs-fields__list" aria-describedby={describedBy}>
          <legend>{definition.label}</legend>
          {definition.values.map((choice) => (
            <label key={choice} className="checkbox">
              <input
                type="checkbox"
                name={featureFieldName(choice)}
                defaultChecked={values[featureFieldName(choice)] === "on"}
              />
              {choice}
            </label>
          ))}
          {error ? (
            <p className="field-error" id={`${id}-error`} role="alert">
              {error}
            </p>
          ) : null}
        </fieldset>
      );
  }
}
