/** Stops `npm run test:e2e` early, with the fix, when the browser is missing. */
import fs from "node:fs";

const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
if (!fs.existsSync(chromium)) {
  console.error(
    `Chromium is missing at ${chromium}. Install Debian's: sudo apt-get install chromium (or set CHROMIUM_PATH).`,
  );
  process.exit(1);
}
