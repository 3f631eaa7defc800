import * as yup from "yup";

/**
 * What the settings' files share (server/settings/config.ts and the outside services' settings beside
 * it, docs/decisions/2026-11-26-one-settings-file.md): the error that stops the start naming the
 * setting, and the rules more than one of them uses.
 */
export class ConfigError extends Error {
  constructor(
    readonly setting: string,
    message: string,
  ) {
    super(`Invalid configuration: ${setting} ${message}`);
    this.name = "ConfigError";
  }
}

/** An absolute http(s) address, such as an outside service's API base. */
export function httpUrl() {
  return yup
    .string()
    .trim()
    .test("http-url", "must be an absolute http(s) URL", (value) => {
      if (!value) return true;
      try {
        return ["http:", "https:"].includes(new URL(value).protocol);
      } catch {
        return false;
      }
    });
}
