import { decodeCommentPayload, type FragmentClient } from '../../src';
import type { SimulatorServer } from './simulator-server';
import type { TestWallet } from './test-wallet';

/**
 * One whole Stars purchase through the client against the simulator (search, init, transaction,
 * a real signed payment, confirm); resolves once the simulator delivered it.
 */
export async function buyStars(
  server: SimulatorServer,
  client: FragmentClient,
  payer: TestWallet,
  username: string,
  quantity: number,
): Promise<{ confirm: string; ref: string }> {
  const found = await client.searchRecipient('stars', username, quantity);
  const order = await client.initRequest({
    product: 'stars',
    recipient: found.recipient,
    amount: quantity,
    paymentMethod: 'ton',
  });
  const account = payer.account();
  const tx = await client.getTransaction({ product: 'stars', reqId: order.reqId, account });
  const { ref } = decodeCommentPayload(tx.messages[0]!.payload!);
  const boc = await payer.sign(server.chain, tx);
  await server.chain.submitExternal(boc);
  const confirm = await client.confirm({
    confirmMethod: tx.confirmMethod,
    confirmParams: tx.confirmParams,
    boc,
    account,
    product: 'stars',
  });
  const deadline = Date.now() + 15_000;
  while (!server.sim.stats().deliveredOrders.some((d) => d.ref === ref)) {
    if (Date.now() > deadline) throw new Error(`order ${ref} not delivered`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return { confirm, ref };
}
