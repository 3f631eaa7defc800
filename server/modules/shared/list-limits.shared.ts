/** The highest page number a list accepts, from the API and from a page's address alike. */
export const PAGE_MAX = 1_000_000;
/** The most items one page of a list holds (admin lists ask for this many). */
export const PAGE_SIZE_MAX = 1000;
