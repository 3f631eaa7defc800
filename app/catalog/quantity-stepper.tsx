import { useEffect, useRef, useState } from "react";
import { useHydrated } from "../lib/use-hydrated";

/**
 * A quantity between 1 and `max`. Without JavaScript it is a number input with min and max
 * (the browser and the server both hold the limits); with it, − and + buttons frame the input.
 */
export function QuantityStepper({
  name,
  max,
  label,
  defaultValue = 1,
}: {
  name: string;
  max: number;
  label: string;
  defaultValue?: number;
}) {
  const hydrated = useHydrated();
  const input = useRef<HTMLInputElement>(null);
  // Kept as typed (a half-typed number is allowed); the buttons and leaving the field clamp it.
  const [typed, setTyped] = useState(String(defaultValue));
  useEffect(() => {
    // What was typed before the scripts ran is what the form would send: the buttons start from it
    // (docs/decisions/2026-11-23-before-hydration.md).
    if (input.current) setTyped(input.current.value);
  }, []);
  const id = `quantity-${name}`;
  const clamp = (value: number) => Math.min(max, Math.max(1, Number.isFinite(value) ? Math.trunc(value) : 1));
  const quantity = clamp(Number(typed));
  const step = (delta: number) => setTyped(String(clamp(quantity + delta)));
  return (
    <div className="field quantity-stepper">
      <label htmlFor={id}>{label}</label>
      <div className="quantity-stepper__controls">
        {hydrated ? (
          <button
            type="button"
            className="button button--ghost button--small"
            aria-label="Decrease quantity"
            disabled={quantity <= 1}
            onClick={() => step(-1)}
          >
            −
          </button>
        ) : null}
        <input
          ref={input}
          id={id}
          name={name}
          type="number"
          inputMode="numeric"
          min={1}
          max={max}
          step={1}
          required
          value={typed}
          onChange={(event) => setTyped(event.currentTarget.value)}
          onBlur={() => setTyped(String(quantity))}
        />
        {hydrated ? (
          <button
            type="button"
            className="button button--ghost button--small"
            aria-label="Increase quantity"
            disabled={quantity >= max}
            onClick={() => step(1)}
          >
            +
          </button>
        ) : null}
      </div>
    </div>
  );
}
