import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./config";
import { describeCouriers } from "./courier-settings";

const env = (settings: Record<string, string> = {}) => ({
  SESSION_SECRET: "a session secret that is long enough for the store",
  DATA_DIR: path.join(os.tmpdir(), "waqt-courier-settings-test"),
  ...settings,
});

const postex = { POSTEX_TOKEN: "postex-token", POSTEX_PICKUP_ADDRESS_CODE: "001" };
const leopards = { LEOPARDS_API_KEY: "key", LEOPARDS_API_PASSWORD: "password", LEOPARDS_ORIGIN_CITY: "789" };

describe("the couriers' settings", () => {
  it("are off by default, followed every 30 minutes, and the start-up log says no courier is on", () => {
    const config = loadConfig(env());
    expect(config.couriers).toEqual({
      postex: null,
      leopards: null,
      syncMinutes: 30,
      timeoutSeconds: 15,
      pieceGrams: 500,
      lateDays: 5,
    });
    expect(describeCouriers(config.couriers)).toBe(
      "none through their APIs (no PostEx or Leopards settings): parcels are shipped by hand",
    );
  });

  it("turn a courier on when all its settings are set, with its production base by default", () => {
    const config = loadConfig(env({ ...postex, ...leopards, COURIER_SYNC_MINUTES: "0.05", COURIER_LATE_DAYS: "7" }));
    expect(config.couriers).toEqual({
      postex: {
        apiUrl: "https://api.postex.pk/services/integration/api/order",
        token: "postex-token",
        pickupAddressCode: "001",
      },
      leopards: {
        apiUrl: "https://merchantapi.leopardscourier.com/api/",
        apiKey: "key",
        apiPassword: "password",
        originCity: "789",
      },
      syncMinutes: 0.05,
      timeoutSeconds: 15,
      pieceGrams: 500,
      lateDays: 7,
    });
    expect(describeCouriers(config.couriers)).toBe(
      "PostEx (https://api.postex.pk/services/integration/api/order) and Leopards (https://merchantapi.leopardscourier.com/api/), parcels followed every 0.05 min",
    );
    const onlyLeopards = loadConfig(
      env({ ...leopards, LEOPARDS_ORIGIN_CITY: "self", LEOPARDS_API_URL: "http://127.0.0.1:9/lcs" }),
    );
    expect(onlyLeopards.couriers.postex).toBeNull();
    expect(onlyLeopards.couriers.leopards).toMatchObject({ apiUrl: "http://127.0.0.1:9/lcs/", originCity: "self" });
    expect(describeCouriers(onlyLeopards.couriers)).toBe(
      "Leopards (http://127.0.0.1:9/lcs/), parcels followed every 30 min",
    );
  });

  it("refuse half a courier and values that are not what they name, naming the setting", () => {
    expect(() => loadConfig(env({ POSTEX_TOKEN: "postex-token" }))).toThrow(
      new ConfigError(
        "POSTEX_PICKUP_ADDRESS_CODE",
        "is required with POSTEX_TOKEN and POSTEX_PICKUP_ADDRESS_CODE (all, or none)",
      ),
    );
    expect(() => loadConfig(env({ LEOPARDS_API_KEY: "key", LEOPARDS_ORIGIN_CITY: "self" }))).toThrow(
      new ConfigError(
        "LEOPARDS_API_PASSWORD",
        "is required with LEOPARDS_API_KEY, LEOPARDS_API_PASSWORD and LEOPARDS_ORIGIN_CITY (all, or none)",
      ),
    );
    expect(() => loadConfig(env({ ...leopards, LEOPARDS_ORIGIN_CITY: "Lahore" }))).toThrow(
      "Invalid configuration: LEOPARDS_ORIGIN_CITY must be a Leopards city id or self",
    );
    expect(() => loadConfig(env({ ...postex, POSTEX_API_URL: "ftp://postex" }))).toThrow(
      "Invalid configuration: POSTEX_API_URL must be an absolute http(s) URL",
    );
    for (const minutes of ["0", "soon", "-5", "2000"]) {
      expect(() => loadConfig(env({ COURIER_SYNC_MINUTES: minutes })), minutes).toThrow(
        "Invalid configuration: COURIER_SYNC_MINUTES must be a number of minutes greater than 0 (at most a day)",
      );
    }
    for (const days of ["0", "a week", "91", "2.5"]) {
      expect(() => loadConfig(env({ COURIER_LATE_DAYS: days })), days).toThrow(
        "Invalid configuration: COURIER_LATE_DAYS must be a whole number of days from 1 to 90",
      );
    }
  });
});
