import type { Database } from "../../db/database";
import { isUuid } from "../../db/ids";
import { NotFoundError } from "../shared/errors.shared";
import { PhotoLane, PHOTO_QUEUE_MAX_DEFAULT } from "./photo-lane";
import { acceptedPhotoFormats, type PhotoUpload } from "./photo-processing";
import { readPhotoFile } from "./photo-store";
import { Product, type PublicProduct } from "./product.model";
import type { MailContext } from "../mail/mail-layout";
import type { SearchCache } from "./search-cache";
import { orderBySort } from "./catalog-sql";
import { CatalogListing, type ProductList } from "./catalog-listing";
import { ProductEditing, type ProductForEditing } from "./product-editing";
import { Brands, type Brand, type DeskBrand } from "./brands";

export type { PhotoUpload, ProductForEditing, ProductList };

export type { Brand, DeskBrand };

/**
 * The catalogue module's one entry for the pages and the API: the listing (catalog-listing.ts)
 * and the product editing (product-editing.ts) are split by job, and reached through here.
 */
export class CatalogService {
  private readonly listing: CatalogListing;
  private readonly editing: ProductEditing;
  private readonly brands: Brands;

  /**
   * `searchCache: null` searches every time (the bench's cost of a term never seen before);
   * `photoLane` is the process's one lane for photos (services.ts), a lane of its own otherwise.
   */
  constructor(
    private readonly db: Database,
    mail: MailContext,
    options: { searchCache?: SearchCache | null; photoLane?: PhotoLane } = {},
  ) {
    this.listing = new CatalogListing(db, options);
    this.editing = new ProductEditing(
      db,
      mail,
      options.photoLane ?? new PhotoLane({ maxWaiting: PHOTO_QUEUE_MAX_DEFAULT }),
    );
    this.brands = new Brands(db);
  }

  /** One page of the catalogue and its exact total, by sort, search and filters (catalog-listing.ts). */
  listProducts(input: unknown): Promise<ProductList> {
    return this.listing.listProducts(input);
  }

  /** Reads the filters' counting index now (catalog-listing.ts, facet-index.ts): at start, or in a test. */
  refreshFacetIndex(): Promise<void> {
    return this.listing.refreshFacetIndex();
  }

  /** A brand's record, by the slug of its page (docs/product.md, "Brands"; brands.ts). */
  getBrand(slug: string): Promise<Brand> {
    return this.brands.getBrand(slug);
  }

  /** Every brand, with its number of watches, for the admins. */
  listBrands(): Promise<DeskBrand[]> {
    return this.brands.listBrands();
  }

  /** An admin replaces a brand's short text (400 on invalid input, 404 for an unknown brand). */
  updateBrandText(slug: string, input: unknown): Promise<Brand> {
    return this.brands.updateBrandText(slug, input);
  }

  async getProduct(id: string): Promise<PublicProduct> {
    const product = isUuid(id) ? await Product.query(this.db).findById(id) : undefined;
    if (!product) throw new NotFoundError("Product not found");
    return product.toPublic();
  }

  createProduct(input: unknown, photo: PhotoUpload | null = null): Promise<PublicProduct> {
    return this.editing.createProduct(input, photo);
  }

  updateProduct(id: string, input: unknown): Promise<PublicProduct> {
    return this.editing.updateProduct(id, input);
  }

  editProduct(
    id: string,
    input: unknown,
    options: { photo: PhotoUpload | null; removePhoto: boolean },
  ): Promise<PublicProduct> {
    return this.editing.editProduct(id, input, options);
  }

  setProductPhoto(id: string, photo: PhotoUpload | null): Promise<PublicProduct> {
    return this.editing.setProductPhoto(id, photo);
  }

  removeProductPhoto(id: string): Promise<PublicProduct> {
    return this.editing.removeProductPhoto(id);
  }

  getProductForEditing(id: string): Promise<ProductForEditing> {
    return this.editing.getProductForEditing(id);
  }

  /** The formats a photo may have here (HEIC only where the installed sharp reads it). */
  async photoFormats(): Promise<string[]> {
    return acceptedPhotoFormats();
  }

  /** A photo variant's file, for /photos/<file>; null when there is none by that name, or it is not shown (photo-store.ts). */
  async photoFile(file: string): Promise<{ bytes: Buffer; type: string; ofReview: boolean } | null> {
    return readPhotoFile(this.db, file);
  }

  /** The newest watches that can be bought now, for the home page. */
  async newestInStock(limit: number): Promise<PublicProduct[]> {
    const products = await orderBySort(Product.query(this.db).where("stock", ">", 0), "-createdAt").limit(limit);
    return products.map((product) => product.toPublic());
  }

  countProducts(): Promise<number> {
    return this.listing.catalogueSize();
  }

  /** Ids and change times for the sitemap, in a stable order, one slice at a time. */
  async sitemapEntries(offset: number, limit: number): Promise<{ id: string; updatedAt: string }[]> {
    const rows = await Product.query(this.db).select("id", "updatedAt").orderBy("id").offset(offset).limit(limit);
    return rows.map((row) => ({ id: row.id, updatedAt: new Date(row.updatedAt).toISOString() }));
  }
}
