/**
 * Refuses third-party base images that are not pinned by digest (`name:tag@sha256:<64 hex>`):
 * the Dockerfile's NODE_IMAGE, compose's and the k8s manifests' `image:` lines. Our own images
 * (starsgate-*) are built by the release itself. The release workflow runs it before building
 * (`npx tsx scripts/release/check-image-pins.ts`); a tag alone can be moved under the same name.
 * Pin with the digest the registry reports (`docker buildx imagetools inspect node:24.21.0-bookworm-slim`),
 * never one typed by hand.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

export interface ImageReference {
  file: string;
  image: string;
}

const PINNED = /@sha256:[0-9a-f]{64}$/;
const OURS = /(^|\/)starsgate[-/]/;

function yamlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.ya?ml$/.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

/** Every third-party image reference in the Dockerfile, docker-compose.yml and k8s/. */
export function thirdPartyImages(root: string): ImageReference[] {
  const references: ImageReference[] = [];
  const dockerfile = readFileSync(path.join(root, 'Dockerfile'), 'utf8');
  for (const match of dockerfile.matchAll(/^ARG (\w+_IMAGE)=(\S+)$/gm))
    references.push({ file: 'Dockerfile', image: match[2]! });
  for (const match of dockerfile.matchAll(/^FROM (\S+)/gm))
    if (!match[1]!.startsWith('$') && /[:/]/.test(match[1]!)) references.push({ file: 'Dockerfile', image: match[1]! });
  for (const file of [path.join(root, 'docker-compose.yml'), ...yamlFiles(path.join(root, 'k8s'))])
    for (const match of readFileSync(file, 'utf8').matchAll(/^\s*(?:- )?image:\s*['"]?([^\s'"#]+)/gm))
      if (!OURS.test(match[1]!) && !match[1]!.includes('${'))
        references.push({ file: path.relative(root, file), image: match[1]! });
  return references;
}

export const unpinned = (references: ImageReference[]): ImageReference[] =>
  references.filter(({ image }) => !PINNED.test(image));

if (require.main === module) {
  const root = path.resolve(__dirname, '../..');
  const refused = unpinned(thirdPartyImages(root));
  for (const { file, image } of refused) process.stderr.write(`${file}: ${image} is not pinned by digest\n`);
  process.exit(refused.length > 0 ? 1 : 0);
}
