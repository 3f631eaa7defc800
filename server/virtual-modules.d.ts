// The React Router server build, which the React Router Vite plugin provides to the one server
// bundle (server/start-up/app.ts imports it).
declare module "virtual:react-router/server-build" {
  import type { ServerBuild } from "react-router";
  const build: ServerBuild;
  export = build;
}
