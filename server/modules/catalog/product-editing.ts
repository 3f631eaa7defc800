import type { Knex } from "knex";
import type { Database } from "../../db/database";
import { isUuid } from "../../db/ids";
import { InvalidInputError, NotFoundError, TooLargeError, type FieldError } from "../shared/errors.shared";
import { validateInput } from "../shared/validation";
import { productSchema, type ProductInput } from "./catalog.schemas";
import type { PhotoLane } from "./photo-lane";
import { inspectPhoto, preparePhoto, type PhotoUpload } from "./photo-processing";
import { releasePhoto, storePhoto, withoutPhoto } from "./photo-store";
import { PHOTO_FIELD } from "./photo-values.shared";
import { Product, type PublicProduct } from "./product.model";
import type { MailContext } from "../mail/mail-layout";
import { queueDueStockAlerts } from "./stock-alerts.service";

/** What the product form's edit page shows: the product, and the Image URL field as the admin gave it. */
export type ProductForEditing = { product: PublicProduct; imageUrl: string };

/**
 * The catalogue's writing side: products made, changed and deleted, with their photos. Each
 * change locks the product's row, so a checkout copying the photo sees it before or after.
 */
export class ProductEditing {
  constructor(
    private readonly db: Database,
    private readonly mail: MailContext,
    /** The process's one photo lane (photo-lane.ts). */
    private readonly lane: PhotoLane,
  ) {}

  /**
   * A new product (docs/product.md, "Products"): a photo or an Image URL, one of them at least.
   * With both, the photo is shown and the URL kept for when the photo is removed.
   */
  async createProduct(input: unknown, photo: PhotoUpload | null = null): Promise<PublicProduct> {
    const values = await validateWithPhoto(input, photo);
    if (!photo && !values.imageUrl) throw photoOrUrlMissing();
    if (!photo) return (await Product.query(this.db).insertAndFetch(productRow(values))).toPublic();
    const prepared = await preparePhoto(photo, this.lane);
    return this.db.transaction(async (trx) => {
      const shown = await storePhoto(trx, prepared, values.imageUrl);
      const product = await Product.query(trx).insertAndFetch({ ...productRow(values), ...shown });
      return product.toPublic();
    });
  }

  /**
   * Replaces every field (PUT): the API sends the whole product. Its `imageUrl` is the image
   * shown, so a client that sends back the photo's address it was given keeps the photo; any
   * other address replaces the photo (docs/api.md, "Values"). Stock raised from zero sends the
   * waiting stock alerts in the same transaction (docs/product.md, "Back in stock").
   */
  async updateProduct(id: string, input: unknown): Promise<PublicProduct> {
    const values = validateInput(productSchema, input);
    if (!isUuid(id)) throw new NotFoundError("Product not found");
    return this.db.transaction(async (trx) => {
      const current = await lockProduct(trx, id);
      const keepsPhoto = current.photoId !== null && pointsToPhotoOf(values.imageUrl, current);
      if (!keepsPhoto && !values.imageUrl) throw photoOrUrlMissing();
      const product = await Product.query(trx).patchAndFetchById(
        id,
        keepsPhoto
          ? { ...productRow(values), imageUrl: current.imageUrl }
          : { ...productRow(values), ...withoutPhoto(values.imageUrl) },
      );
      if (!keepsPhoto && current.photoId) await releasePhoto(trx, current.photoId);
      if (product.stock > 0) await queueDueStockAlerts(trx, this.mail, [id]);
      return product.toPublic();
    });
  }

  /**
   * Edits a product as the product form does: the fields, and the photo kept, replaced (a new one
   * chosen) or removed. Here the Image URL is the URL shown without a photo (where PUT's is the
   * image shown: updateProduct); a product needs a photo or an Image URL, except right after its
   * photo is removed (then the placeholder shows).
   */
  async editProduct(
    id: string,
    input: unknown,
    options: { photo: PhotoUpload | null; removePhoto: boolean },
  ): Promise<PublicProduct> {
    const { photo, removePhoto } = options;
    const values = await validateWithPhoto(input, photo);
    if (!isUuid(id)) throw new NotFoundError("Product not found");
    const current = await Product.query(this.db).findById(id).select("photoId");
    if (!current) throw new NotFoundError("Product not found");
    if (!photo && !values.imageUrl && !removePhoto && !current.photoId) throw photoOrUrlMissing();
    // Decoded and encoded before the transaction: seconds of work that hold no lock.
    const prepared = photo ? await preparePhoto(photo, this.lane) : null;
    return this.db.transaction(async (trx) => {
      const locked = await lockProduct(trx, id);
      let patch;
      if (prepared) patch = await storePhoto(trx, prepared, values.imageUrl);
      else if (locked.photoId && !removePhoto) patch = { imageUrl: locked.imageUrl, fallbackImageUrl: values.imageUrl };
      else patch = withoutPhoto(values.imageUrl);
      const product = await Product.query(trx).patchAndFetchById(id, { ...productRow(values), ...patch });
      if (locked.photoId && patch.imageUrl !== locked.imageUrl) await releasePhoto(trx, locked.photoId);
      if (product.stock > 0) await queueDueStockAlerts(trx, this.mail, [id]);
      return product.toPublic();
    });
  }

  /** A new photo for a product (POST /api/v1/products/{id}/image); its Image URL is kept for later. */
  async setProductPhoto(id: string, photo: PhotoUpload | null): Promise<PublicProduct> {
    if (!photo) throw new InvalidInputError([{ field: PHOTO_FIELD, message: "Choose a photo to upload" }]);
    await inspectPhoto(photo);
    if (!isUuid(id) || !(await Product.query(this.db).findById(id).select("id"))) {
      throw new NotFoundError("Product not found");
    }
    const prepared = await preparePhoto(photo, this.lane);
    return this.db.transaction(async (trx) => {
      const locked = await lockProduct(trx, id);
      const fallback = locked.photoId ? locked.fallbackImageUrl : locked.imageUrl;
      const product = await Product.query(trx).patchAndFetchById(id, await storePhoto(trx, prepared, fallback));
      if (locked.photoId) await releasePhoto(trx, locked.photoId);
      return product.toPublic();
    });
  }

  /** Takes a product's photo away: back to the Image URL it had, or the placeholder without one. */
  async removeProductPhoto(id: string): Promise<PublicProduct> {
    if (!isUuid(id)) throw new NotFoundError("Product not found");
    return this.db.transaction(async (trx) => {
      const locked = await lockProduct(trx, id);
      if (!locked.photoId) return (await Product.query(trx).findById(id))!.toPublic();
      const product = await Product.query(trx).patchAndFetchById(id, withoutPhoto(locked.fallbackImageUrl));
      await releasePhoto(trx, locked.photoId);
      return product.toPublic();
    });
  }

  /** The product for its edit form, whose Image URL field holds the URL given (not the photo's). */
  async getProductForEditing(id: string): Promise<ProductForEditing> {
    const product = isUuid(id) ? await Product.query(this.db).findById(id) : undefined;
    if (!product) throw new NotFoundError("Product not found");
    return {
      product: product.toPublic(),
      imageUrl: product.photoId !== null ? product.fallbackImageUrl : product.imageUrl,
    };
  }
}

/**
 * Deletes a product, in the caller's transaction (server/flows/product-removal.ts): the database
 * takes it out of every cart; orders keep their copy, photo included. A photo that no order sold
 * goes with the product.
 */
export async function deleteProduct(trx: Knex.Transaction, id: string): Promise<void> {
  const product = await Product.query(trx).findById(id).forUpdate().select("photoId");
  if (!product) throw new NotFoundError("Product not found");
  await Product.query(trx).deleteById(id);
  if (product.photoId) await releasePhoto(trx, product.photoId);
}

/** The product's row, locked for the change (a checkout copying its photo waits, or went first). */
async function lockProduct(trx: Knex.Transaction, id: string): Promise<Product> {
  const product = await Product.query(trx).findById(id).forUpdate();
  if (!product) throw new NotFoundError("Product not found");
  return product;
}

/** True when an address is the product's photo, as a site path or absolute under any host name. */
function pointsToPhotoOf(address: string, product: Product): boolean {
  let path: string;
  try {
    path = new URL(address, "http://site.invalid").pathname;
  } catch {
    return false;
  }
  return path === product.imageUrl || (product.images ?? []).some((image) => image.url === path);
}

/**
 * A product's row from its fields: the specifications are columns of their own. Without `specs`
 * (an API client that predates them) the columns are not written, so a PUT keeps them and a new
 * product has none.
 */
function productRow({ specs, ...fields }: ProductInput): Partial<Product> {
  return { ...fields, ...(specs ?? {}) } as Partial<Product>;
}

const photoOrUrlMissing = () =>
  new InvalidInputError([{ field: PHOTO_FIELD, message: "Choose a photo or enter an image URL" }]);

/**
 * The form's fields and its photo checked together, so that every problem is said at once (a
 * photo too large makes the whole answer a 413).
 */
async function validateWithPhoto(input: unknown, photo: PhotoUpload | null) {
  const problems: FieldError[] = [];
  let tooLarge = false;
  let values: ReturnType<typeof productSchema.validateSync> | undefined;
  try {
    values = validateInput(productSchema, input);
  } catch (error) {
    if (!(error instanceof InvalidInputError)) throw error;
    problems.push(...error.errors);
  }
  if (photo) {
    try {
      await inspectPhoto(photo);
    } catch (error) {
      if (!(error instanceof InvalidInputError)) throw error;
      tooLarge = error instanceof TooLargeError;
      problems.push(...error.errors);
    }
  }
  if (problems.length > 0 || !values) throw tooLarge ? new TooLargeError(problems) : new InvalidInputError(problems);
  return values;
}
