/** The image weight of each page type as bench/images.ts writes it, and its table in the report. */

export type ImageWeight = {
  page: string;
  path: string;
  viewport: string;
  /** Bytes of every image loaded before any scrolling, and after scrolling to the end. */
  firstScreenBytes: number;
  wholePageBytes: number;
  images: number;
  photoFiles: string[];
  /** What the same photos would have cost served as uploaded (one original per photo shown). */
  originalsBytes: number;
};

export type ImageResults = {
  date: string;
  chromium: string;
  machine: string;
  photos: { count: number; originalBytes: number[]; uploadSeconds: number[]; storedBytesPerPhoto: number };
  viewports: { id: string; title: string }[];
  pages: ImageWeight[];
};

/** Bytes as kilobytes (megabytes from 1 MB), one decimal. */
export const kbText = (bytes: number) =>
  bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${(bytes / 1024).toFixed(1)} kB`;

/** The table of bench/results/images.md (also in bench.md). */
export function imagesMarkdown(results: ImageResults): string[] {
  const cell = (page: string, viewport: string) => {
    const found = results.pages.find((entry) => entry.page === page && entry.viewport === viewport);
    if (!found) return "—";
    return found.wholePageBytes === found.firstScreenBytes
      ? kbText(found.firstScreenBytes)
      : `${kbText(found.firstScreenBytes)} / ${kbText(found.wholePageBytes)}`;
  };
  const pageNames = [...new Set(results.pages.map((entry) => entry.page))];
  const originals = (page: string) =>
    Math.max(...results.pages.filter((entry) => entry.page === page).map((entry) => entry.originalsBytes));
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);
  return [
    `**Image bytes per page** (${results.date.slice(0, 10)}, ${results.chromium}, ${results.machine}; \`npm run bench:images\`): ` +
      `${results.photos.count} watches with 12-megapixel phone photos (${results.photos.originalBytes.map((bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MB`).join(", ")} as uploaded; ` +
      `each took ${mean(results.photos.uploadSeconds).toFixed(1)} s to upload and process on average, and keeps ${kbText(results.photos.storedBytesPerPhoto)} of files), ` +
      "the rest the drawn SVG watches. Every image the page loaded, first screen / after scrolling to the end (one figure when both are the same):",
    "",
    `| Page | ${results.viewports.map((viewport) => viewport.title).join(" | ")} | The photos shown, as uploaded |`,
    `|---|${results.viewports.map(() => "--:").join("|")}|--:|`,
    ...pageNames.map(
      (page) =>
        `| ${page} | ${results.viewports.map((viewport) => cell(page, viewport.id)).join(" | ")} | ${kbText(originals(page))} |`,
    ),
  ];
}
