/** What the sandbox's `GET /demo` tells about its demo wallets (the payers of the run). */
export interface DemoWallets {
  wallets: Array<{ id: string; format: string; seed: string; accountIndex: number; address: string }>;
}

export async function readDemoWallets(sandboxUrl: string): Promise<DemoWallets> {
  const response = await fetch(`${sandboxUrl}/demo`);
  if (!response.ok) throw new Error(`${sandboxUrl}/demo: ${response.status}`);
  return (await response.json()) as DemoWallets;
}
