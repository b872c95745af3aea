import type { PageContext } from './pages';
import { formatUsd, splitTon } from './pricing';

/** `<div class="tm-value icon-before icon-ton">44<span class="mini-frac">.6172</span></div>` */
export function tonValueHtml(tonText: string): string {
  const { whole, frac } = splitTon(tonText);
  return `<div class="tm-value icon-before icon-ton">${whole}${frac ? `<span class="mini-frac">${frac}</span>` : ''}</div>`;
}

/** `cur_price` of a product's `update…Prices` (docs/fragment-protocol.md §5.2). */
export function curPriceHtml(tonText: string, usdMicro: bigint): string {
  return `${tonValueHtml(tonText)}<div class="tm-radio-desc">&#036;${formatUsd(usdMicro)}</div>`;
}

/**
 * The `payment_method` radios of the forms that have them (pyfragment's weekly contract test
 * reads their values, docs/fragment-protocol.md §19.5); a form paid in GRAM only has none.
 */
export function paymentMethodRadios(ctx: PageContext): string {
  const values = ctx.drift.has('paymentMethods') ? ['ton', 'usdt'] : ['ton', 'usdt_ton'];
  const labels: Record<string, string> = { ton: 'TON', usdt_ton: 'USDT', usdt: 'USDT' };
  return `<div class="tm-form-radio-items js-payment-methods">${values
    .map(
      (value, index) =>
        `<label class="tm-form-radio-item tm-payment-method"><input type="radio" class="tm-form-radio" name="payment_method" value="${value}"${index === 0 ? ' checked' : ''}><div class="tm-form-radio-label">${labels[value]}</div></label>`,
    )
    .join('')}</div>`;
}
