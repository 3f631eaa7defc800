import type { CourierProvider, TrackingNumberRule } from "./courier-provider.shared";
import { manualCourier } from "./manual-courier.shared";

export type { CourierProvider };

/**
 * Every courier provider the store knows, registered here and nowhere else; COURIER_PROVIDERS
 * (a setting) chooses those the admin ships with. Adding one: docs/recipes.md.
 */
export const COURIER_PROVIDERS = [manualCourier] as const;

export type CourierProviderId = (typeof COURIER_PROVIDERS)[number]["id"];
export const COURIER_PROVIDER_IDS: readonly CourierProviderId[] = COURIER_PROVIDERS.map((provider) => provider.id);

/** Every courier name an order may carry (the API's document and the database's CHECK). */
export const COURIER_NAMES = [...new Set(COURIER_PROVIDERS.flatMap((provider) => provider.courierNames))] as const;
export type Courier = (typeof COURIER_PROVIDERS)[number]["courierNames"][number];

export const COURIER_MESSAGE = `Courier must be one of ${COURIER_NAMES.join(", ")}`;

/** The providers a setting chooses, in its order (ids checked when the configuration is loaded). */
export function courierProvidersChosen(ids: readonly string[]): CourierProvider[] {
  return ids.map((id) => {
    const provider = COURIER_PROVIDERS.find((known) => known.id === id);
    if (!provider) throw new Error(`Unknown courier provider ${id}`);
    return provider;
  });
}

/**
 * The tracking number rule for parcels of this courier name: that of the provider whose names
 * hold it (the first, if several do), else the manual courier's.
 */
export function trackingNumberRuleOf(courier: string | undefined): TrackingNumberRule {
  return (
    COURIER_PROVIDERS.find(
      (provider) => courier !== undefined && (provider.courierNames as readonly string[]).includes(courier),
    ) ?? manualCourier
  ).trackingNumber;
}
