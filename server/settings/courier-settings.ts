import * as yup from "yup";
import type { LeopardsConfig } from "../providers/couriers/leopards";
import type { PostexConfig } from "../providers/couriers/postex";
import { WEIGHT_GRAMS_MAX } from "../modules/catalog/catalog-values.shared";
import { ConfigError, httpUrl } from "./setting-rules";

export type { LeopardsConfig, PostexConfig };

/**
 * The couriers booked and followed through their merchant APIs, PostEx and Leopards (docs/product.md,
 * "Couriers through their APIs"; their formats in docs/couriers.md): their part of the
 * environment's schema, their types and the function that assembles them. server/settings/config.ts
 * combines the part into the one schema that reads the environment.
 */
export type CouriersConfig = {
  /** Null: not configured (POSTEX_TOKEN and POSTEX_PICKUP_ADDRESS_CODE unset). */
  postex: PostexConfig | null;
  /** Null: not configured (LEOPARDS_API_KEY, LEOPARDS_API_PASSWORD and LEOPARDS_ORIGIN_CITY unset). */
  leopards: LeopardsConfig | null;
  /** COURIER_SYNC_MINUTES: how often open parcels are asked after. */
  syncMinutes: number;
  /** COURIER_TIMEOUT_SECONDS: how long one call to a courier may take before the store stops waiting. */
  timeoutSeconds: number;
  /** COURIER_PIECE_GRAMS: the weight booked a piece for a product without its own (RULINGS: 500 g). */
  pieceGrams: number;
  /** COURIER_LATE_DAYS: days after pickup past which a parcel not yet delivered or back is late (/admin/couriers). */
  lateDays: number;
};

/** The couriers' production bases, as their guides give them (docs/couriers.md). */
export const POSTEX_API_BASE = "https://api.postex.pk/services/integration/api/order";
export const LEOPARDS_API_BASE = "https://merchantapi.leopardscourier.com/api/";

const MINUTES_MESSAGE = "must be a number of minutes greater than 0 (at most a day)";

export const courierSettingsSchema = yup.object({
  POSTEX_API_URL: httpUrl().default(POSTEX_API_BASE),
  POSTEX_TOKEN: yup.string().trim().max(500, "must be at most 500 characters"),
  POSTEX_PICKUP_ADDRESS_CODE: yup
    .string()
    .trim()
    .matches(/^[A-Za-z0-9-]{1,40}$/, {
      message: "must be the pickup address's code (letters, digits and dashes), such as 001",
      excludeEmptyString: true,
    }),
  LEOPARDS_API_URL: httpUrl().default(LEOPARDS_API_BASE),
  LEOPARDS_API_KEY: yup.string().trim().max(500, "must be at most 500 characters"),
  LEOPARDS_API_PASSWORD: yup.string().max(500, "must be at most 500 characters"),
  LEOPARDS_ORIGIN_CITY: yup
    .string()
    .trim()
    .matches(/^(self|[0-9]{1,10})$/, { message: "must be a Leopards city id or self", excludeEmptyString: true }),
  COURIER_SYNC_MINUTES: yup
    .string()
    .trim()
    .default("30")
    .test(
      "minutes",
      MINUTES_MESSAGE,
      (value) => /^[0-9]+(\.[0-9]+)?$/.test(value) && Number(value) > 0 && Number(value) <= 24 * 60,
    ),
  COURIER_TIMEOUT_SECONDS: yup
    .string()
    .trim()
    .default("15")
    .test(
      "seconds",
      "must be a number of seconds greater than 0 (at most 120)",
      (value) => /^[0-9]+(\.[0-9]+)?$/.test(value) && Number(value) > 0 && Number(value) <= 120,
    ),
  COURIER_PIECE_GRAMS: yup
    .string()
    .trim()
    .default("500")
    .test(
      "grams",
      `must be a whole number of grams from 1 to ${WEIGHT_GRAMS_MAX}`,
      (value) => /^[0-9]{1,6}$/.test(value) && Number(value) >= 1 && Number(value) <= WEIGHT_GRAMS_MAX,
    ),
  COURIER_LATE_DAYS: yup
    .string()
    .trim()
    .default("5")
    .test(
      "days",
      "must be a whole number of days from 1 to 90",
      (value) => /^[0-9]{1,2}$/.test(value) && Number(value) >= 1 && Number(value) <= 90,
    ),
});

/**
 * A courier is on when all its settings are set; some of them only is a mistake said at start
 * (naming the first one missing), as the text channels' are (server/settings/confirmation-settings.ts).
 */
export function couriersConfig(raw: yup.InferType<typeof courierSettingsSchema>): CouriersConfig {
  const postex = complete({
    POSTEX_TOKEN: raw.POSTEX_TOKEN,
    POSTEX_PICKUP_ADDRESS_CODE: raw.POSTEX_PICKUP_ADDRESS_CODE,
  });
  const leopards = complete({
    LEOPARDS_API_KEY: raw.LEOPARDS_API_KEY,
    LEOPARDS_API_PASSWORD: raw.LEOPARDS_API_PASSWORD,
    LEOPARDS_ORIGIN_CITY: raw.LEOPARDS_ORIGIN_CITY,
  });
  return {
    postex: postex
      ? {
          apiUrl: raw.POSTEX_API_URL.replace(/\/+$/, ""),
          token: postex.POSTEX_TOKEN,
          pickupAddressCode: postex.POSTEX_PICKUP_ADDRESS_CODE,
        }
      : null,
    leopards: leopards
      ? {
          apiUrl: raw.LEOPARDS_API_URL.replace(/\/*$/, "/"),
          apiKey: leopards.LEOPARDS_API_KEY,
          apiPassword: leopards.LEOPARDS_API_PASSWORD,
          originCity: leopards.LEOPARDS_ORIGIN_CITY,
        }
      : null,
    syncMinutes: Number(raw.COURIER_SYNC_MINUTES),
    timeoutSeconds: Number(raw.COURIER_TIMEOUT_SECONDS),
    pieceGrams: Number(raw.COURIER_PIECE_GRAMS),
    lateDays: Number(raw.COURIER_LATE_DAYS),
  };
}

/** The settings when every one is set, null when none is; throws when only some are. */
function complete<Names extends string>(settings: Record<Names, string | undefined>): Record<Names, string> | null {
  const names = Object.keys(settings) as Names[];
  const missing = names.filter((name) => !settings[name]);
  if (missing.length === names.length) return null;
  if (missing.length > 0) {
    throw new ConfigError(missing[0]!, `is required with ${listOf(names)} (all, or none)`);
  }
  return settings as Record<Names, string>;
}

function listOf(names: readonly string[]): string {
  return names.length === 2 ? `${names[0]} and ${names[1]}` : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
}

/** Which couriers are on, for the start-up log. */
export function describeCouriers(config: CouriersConfig): string {
  const on = [
    config.postex ? `PostEx (${config.postex.apiUrl})` : null,
    config.leopards ? `Leopards (${config.leopards.apiUrl})` : null,
  ].filter(Boolean);
  if (on.length === 0) return "none through their APIs (no PostEx or Leopards settings): parcels are shipped by hand";
  return `${on.join(" and ")}, parcels followed every ${config.syncMinutes} min`;
}
