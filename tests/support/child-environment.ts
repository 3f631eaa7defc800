/**
 * The environment of a process a test starts (the store's server, its CLIs, PostgreSQL's programs):
 * what the system needs of the caller's shell, and nothing else. The store reads its settings from
 * the environment (server/settings/config.ts), so a setting exported in the shell that runs `npm test`
 * (SMTP_URL, DATABASE_URL, ADMIN_EMAIL, HOST…) would otherwise reach every server a test starts,
 * and the test would check a store it did not configure. Each test names the settings it needs.
 */
const SYSTEM_VARIABLES = ["PATH", "HOME", "TMPDIR", "LANG", "LC_ALL", "LC_CTYPE", "TZ"];

export function childEnvironment(settings: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const name of SYSTEM_VARIABLES) if (process.env[name] !== undefined) env[name] = process.env[name];
  return { ...env, ...settings };
}

/**
 * For a launcher that lays the caller's environment under the one it is given (Playwright's
 * webServer): every other variable of the caller set empty, which the store reads as unset
 * (server/settings/config.ts), then the settings.
 */
export function childEnvironmentOverCallers(settings: Record<string, string>): Record<string, string> {
  const kept = childEnvironment();
  const blanked = Object.fromEntries(
    Object.keys(process.env)
      .filter((name) => !(name in kept))
      .map((name) => [name, ""]),
  );
  return { ...blanked, ...(kept as Record<string, string>), ...settings };
}
