import type { FacetCounts } from "../../server/modules/catalog/catalog-filters";
import { WATER_RESISTANCE_MINIMUMS } from "../../server/modules/catalog/watch-specs.shared";
import type { CatalogView, ListFilter } from "./catalog-query";

const LEGENDS: Record<ListFilter, string> = {
  brand: "Brand",
  movement: "Movement",
  caseSize: "Case size",
  strap: "Strap",
  dial: "Dial colour",
  feature: "Features",
};

/**
 * The catalogue's filters inside its GET form (docs/product.md, "Filters"): a checkbox for each
 * option with how many watches it would give with the other filters applied, the price range, the
 * least water resistance and an Apply button. Inputs are uncontrolled, so what a shopper ticks
 * before the scripts run stays ticked when they do.
 */
export function CatalogFilterFields({ view, facets }: { view: CatalogView; facets: FacetCounts }) {
  const { filters } = view;
  return (
    <div className="catalog-facets">
      {(["brand", "movement", "caseSize", "strap", "dial", "feature"] as const).map((name) => {
        // A chosen option stays listed (to be unticked) even when the other filters leave none of it.
        const options = [...facets[name]];
        for (const value of filters[name]) {
          if (!options.some((option) => option.value === value)) options.push({ value, label: value, count: 0 });
        }
        if (options.length === 0) return null;
        return (
          <fieldset key={name} className="catalog-facets__group">
            <legend>{LEGENDS[name]}</legend>
            {options.map((option) => (
              <label key={option.value} className="catalog-facets__option">
                <input
                  type="checkbox"
                  name={name}
                  value={option.value}
                  defaultChecked={filters[name].includes(option.value)}
                />
                <span>{option.label}</span>
                <span className="catalog-facets__count">{`(${option.count})`}</span>
              </label>
            ))}
          </fieldset>
        );
      })}
      <fieldset className="catalog-facets__group">
        <legend>Water resistance</legend>
        <label className="catalog-facets__option">
          <input type="radio" name="waterResistance" value="" defaultChecked={filters.waterResistance === null} />
          <span>Any</span>
        </label>
        {WATER_RESISTANCE_MINIMUMS.map((least) => {
          const option = facets.waterResistance.find((found) => found.value === String(least));
          return (
            <label key={least} className="catalog-facets__option">
              <input
                type="radio"
                name="waterResistance"
                value={least}
                defaultChecked={filters.waterResistance === least}
              />
              <span>{`At least ${least} m`}</span>
              <span className="catalog-facets__count">{`(${option?.count ?? 0})`}</span>
            </label>
          );
        })}
      </fieldset>
      <fieldset className="catalog-facets__group catalog-facets__price">
        <legend>Price (Rs.)</legend>
        <div className="field">
          <label htmlFor="catalog-min-price">From</label>
          <input
            id="catalog-min-price"
            name="minPrice"
            type="number"
            inputMode="numeric"
            min={0}
            step="any"
            defaultValue={filters.minPrice ?? ""}
          />
        </div>
        <div className="field">
          <label htmlFor="catalog-max-price">To</label>
          <input
            id="catalog-max-price"
            name="maxPrice"
            type="number"
            inputMode="numeric"
            min={0}
            step="any"
            defaultValue={filters.maxPrice ?? ""}
          />
        </div>
      </fieldset>
      <button type="submit" className="button catalog-facets__apply">
        Apply
      </button>
    </div>
  );
}
