import type { Browser, Locator } from "@playwright/test";

export type Likeness = {
  /** Mean difference per colour channel (0-255) from the reference, over the middle of the box. */
  meanDifference: number;
  /** Spread of the shot's brightness: a plain, empty box has next to none. */
  brightnessSpread: number;
  width: number;
  height: number;
};

/**
 * How much what the browser shows in an element looks like an image: the element's screenshot
 * and the image, drawn at the same size, are compared pixel by pixel in a page of their own (with
 * JavaScript, whatever the journey's page has; data: URLs keep the canvas readable). The edges
 * are left out, where rounded corners differ.
 */
export async function likenessTo(
  browser: Browser,
  element: Locator,
  image: { body: Buffer; type: string },
): Promise<Likeness> {
  const shot = await element.screenshot();
  const context = await browser.newContext({ javaScriptEnabled: true });
  try {
    const page = await context.newPage();
    return await page.evaluate(
      async ({ shotUrl, imageUrl }) => {
        const load = (src: string) =>
          new Promise<HTMLImageElement>((resolve, reject) => {
            const img = new Image();
            img.onload = () => resolve(img);
            img.onerror = () => reject(new Error(`could not load ${src.slice(0, 40)}`));
            img.src = src;
          });
        const [shotImage, reference] = await Promise.all([load(shotUrl), load(imageUrl)]);
        const { width, height } = shotImage;
        const pixelsOf = (img: HTMLImageElement) => {
          const canvas = document.createElement("canvas");
          canvas.width = width;
          canvas.height = height;
          const context2d = canvas.getContext("2d")!;
          context2d.drawImage(img, 0, 0, width, height);
          return context2d.getImageData(0, 0, width, height).data;
        };
        const a = pixelsOf(shotImage);
        const b = pixelsOf(reference);
        let difference = 0;
        let channels = 0;
        const brightness: number[] = [];
        for (let y = Math.floor(height * 0.1); y < height * 0.9; y++) {
          for (let x = Math.floor(width * 0.1); x < width * 0.9; x++) {
            const i = (y * width + x) * 4;
            for (let c = 0; c < 3; c++) difference += Math.abs(a[i + c]! - b[i + c]!);
            channels += 3;
            brightness.push((a[i]! + a[i + 1]! + a[i + 2]!) / 3);
          }
        }
        const mean = brightness.reduce((sum, value) => sum + value, 0) / brightness.length;
        const spread = Math.sqrt(brightness.reduce((sum, value) => sum + (value - mean) ** 2, 0) / brightness.length);
        return { meanDifference: difference / channels, brightnessSpread: spread, width, height };
      },
      {
        shotUrl: `data:image/png;base64,${shot.toString("base64")}`,
        imageUrl: `data:${image.type};base64,${image.body.toString("base64")}`,
      },
    );
  } finally {
    await context.close();
  }
}
