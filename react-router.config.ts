import type { Config } from "@react-router/dev/config";

export default {
  appDirectory: "app",
  buildDirectory: "build",
  // Every page is rendered on the server: shoppers without JavaScript get the whole store.
  ssr: true,
  // The v8 behaviour is switched on now so that the move to React Router 8 is mechanical.
  future: {
    v8_middleware: true,
    v8_passThroughRequests: true,
    v8_splitRouteModules: true,
    v8_trailingSlashAwareDataRequests: true,
    v8_viteEnvironmentApi: true,
  },
} satisfies Config;
