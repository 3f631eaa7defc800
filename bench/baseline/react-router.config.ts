import type { Config } from "@react-router/dev/config";

/**
 * The bench's baseline page: a React Router app with one route and no data, built by the same
 * @react-router/dev with the same future flags as the store (../../react-router.config.ts).
 */
export default {
  appDirectory: "app",
  buildDirectory: "build",
  ssr: true,
  future: {
    v8_middleware: true,
    v8_passThroughRequests: true,
    v8_splitRouteModules: true,
    v8_trailingSlashAwareDataRequests: true,
    v8_viteEnvironmentApi: true,
  },
} satisfies Config;
