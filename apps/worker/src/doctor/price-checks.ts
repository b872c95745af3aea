import { fragmentPack, type FragmentClient, type PriceQuote } from '@starsgate/fragment';
import {
  GRAM_DECIMALS,
  formatUnits,
  orderLineLabel,
  productDescription,
  PRODUCTS,
  type Product,
  type Quantities,
} from '@starsgate/domain';
import { errorText, fail, ok, type CheckResult } from './check';

const PRICE_ACTION = 'Fragment changed its price markup or refuses this session; purchases will fail at the quote.';

/**
 * Every product's price, read the way its Fragment pack says Fragment names it, at the pack's
 * reference quantities (the ones the reference price list holds). Read only: nothing is ordered.
 */
export async function checkPrices(client: FragmentClient, label: string): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  // One at a time: the session's flow mutex serialises them anyway, and the log reads in registry order.
  for (const product of PRODUCTS) {
    const item = `${label} ${productDescription(product).title} prices`;
    try {
      results.push(ok(item, await readPrices(client, product)));
    } catch (error) {
      results.push(fail(item, errorText(error), PRICE_ACTION));
    }
  }
  return results;
}

/** The prices of one product as the doctor shows them: `<order label> = <GRAM> GRAM ($<USD>)`. */
async function readPrices(client: FragmentClient, product: Product): Promise<string> {
  const read = fragmentPack(product).prices;
  switch (read.kind) {
    case 'update_prices': {
      const quantities = { [productDescription(product).amountQuantity]: read.referenceQuantity };
      return shown(product, quantities, await client.quoteQuantity(product, read.referenceQuantity));
    }
    case 'page_options': {
      const options = await client.optionPrices(product);
      const quantity = productDescription(product).amountQuantity;
      return Object.entries(options)
        .map(([value, quote]) => shown(product, { [quantity]: Number(value) }, quote))
        .join(', ');
    }
    case 'update_options': {
      const options = await client.quantityOptionPrices(product, read.reference);
      return Object.entries(options)
        .map(([value, quote]) => shown(product, { ...read.reference, [read.optionQuantity]: Number(value) }, quote))
        .join(', ');
    }
    case 'face_value': {
      // No price to read: the quantity is the price. Its page is read so a moved or refused page shows here.
      await client.pageHtml(fragmentPack(product).page);
      return 'priced at face value (the quantity is the price in GRAM), no Fragment price to read; its page loads';
    }
  }
}

function shown(product: Product, quantities: Quantities, quote: PriceQuote): string {
  return `${orderLineLabel({ product, quantities })} = ${formatUnits(quote.gramNano, GRAM_DECIMALS)} GRAM ($${quote.usd})`;
}
