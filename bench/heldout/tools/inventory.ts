// A warehouse's tools, written by hand (see helpdesk.ts).

export type Sku = `${Uppercase<string>}-${number}`;

export interface Dimensions {
  lengthCm: number;
  widthCm: number;
  heightCm: number;
  weightKg: number;
}

export interface Product {
  sku: string;
  name: string;
  description?: string;
  dimensions: Dimensions;
  unitPrice: { amount: number; currency: "EUR" | "USD" | "GBP" };
  hazardous: boolean;
}

export interface StockLevel {
  sku: string;
  warehouse: string;
  onHand: number;
  reserved: number;
  reorderPoint?: number;
}

/**
 * Stock of products in one or every warehouse.
 * @param skus Products to look up.
 * @param warehouse A warehouse code; every warehouse when left out.
 */
export function getStock(skus: string[], warehouse?: string): StockLevel[] {
  return skus.map((sku) => ({ sku, warehouse: warehouse ?? "MAIN", onHand: 0, reserved: 0 }));
}

/** Records goods received against a purchase order. */
export async function receiveGoods(
  purchaseOrder: string,
  lines: { sku: string; quantity: number; lot?: string; expires?: Date }[],
): Promise<{ received: number; discrepancies: { sku: string; expected: number; received: number }[] }> {
  return { received: lines.length + purchaseOrder.length, discrepancies: [] };
}

export type Adjustment = {
  sku: string;
  warehouse: string;
  delta: number;
  reason: "damaged" | "lost" | "found" | "count" | "returned";
  note?: string;
};

/** Corrects stock levels after a count or an incident. */
export function adjustStock(
  adjustments: Adjustment[],
  dryRun: boolean = false,
): { applied: number; dryRun: boolean } {
  return { applied: adjustments.length, dryRun };
}

/** Moves stock between warehouses. */
export async function transferStock(request: {
  from: string;
  to: string;
  items: ReadonlyArray<{ sku: string; quantity: number }>;
  carrier?: "internal" | "dhl" | "ups";
}): Promise<{ transferId: string; eta: Date | null }> {
  return { transferId: `${request.from}-${request.to}`, eta: null };
}

/** Products whose stock fell under their reorder point. */
export function lowStock(
  warehouse: string,
  includeReserved: boolean = true,
): Array<StockLevel & { shortfall: number }> {
  return [{ sku: "", warehouse, onHand: 0, reserved: includeReserved ? 1 : 0, shortfall: 0 }];
}

/**
 * Adds a product to the catalogue.
 * @param product Everything but the SKU, which the catalogue assigns.
 */
export function createProduct(product: Omit<Product, "sku">): Product {
  return { ...product, sku: "NEW-1" };
}

/** Finds products by name or SKU prefix. */
export function findProducts(
  text: string,
  filters: {
    minPrice?: number;
    maxPrice?: number;
    hazardous?: boolean;
    currency?: Product["unitPrice"]["currency"];
  },
): Product[] {
  return text && filters ? [] : [];
}

/** Value of the stock on hand per warehouse, in one currency. */
export function stockValuation(
  currency: "EUR" | "USD" | "GBP",
  warehouses: string[] = [],
): Record<string, number> {
  return Object.fromEntries(warehouses.map((w) => [w, currency.length]));
}
