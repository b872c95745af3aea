import { decodeCommentPayload, type FragmentClient, type FragmentProduct } from '../../src';
import type { SimulatorServer } from './simulator-server';
import type { TestWallet } from './test-wallet';

/**
 * One whole purchase through the client against the simulator (search, init, transaction, a real
 * signed GRAM payment, confirm); resolves once the simulator delivered it. `amount`: Stars, or
 * Premium months.
 */
export async function buyProduct(
  server: SimulatorServer,
  client: FragmentClient,
  payer: TestWallet,
  product: FragmentProduct,
  username: string,
  amount: number,
): Promise<{ confirm: string; ref: string }> {
  const found = await client.searchRecipient(product, username, amount);
  const order = await client.initRequest({ product, recipient: found.recipient, amount, paymentMethod: 'ton' });
  const account = payer.account();
  const tx = await client.getTransaction({ product, reqId: order.reqId, account });
  const { ref } = decodeCommentPayload(tx.messages[0]!.payload!);
  const boc = await payer.sign(server.chain, tx);
  await server.chain.submitExternal(boc);
  const confirm = await client.confirm({
    confirmMethod: tx.confirmMethod,
    confirmParams: tx.confirmParams,
    boc,
    account,
    product,
  });
  const deadline = Date.now() + 15_000;
  while (!server.sim.stats().deliveredOrders.some((d) => d.ref === ref)) {
    if (Date.now() > deadline) throw new Error(`order ${ref} not delivered`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return { confirm, ref };
}

/** One whole Stars purchase (buyProduct). */
export function buyStars(
  server: SimulatorServer,
  client: FragmentClient,
  payer: TestWallet,
  username: string,
  quantity: number,
): Promise<{ confirm: string; ref: string }> {
  return buyProduct(server, client, payer, 'stars', username, quantity);
}
