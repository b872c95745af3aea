import { variableCatalog } from './process-variables';
import { renderConfigurationDoc } from './render-configuration-doc';
import { renderEnvExample } from './render-env-example';

/** The files `npm run config:docs` writes, by path from the repository root. */
export function generatedConfigFiles(): Record<string, string> {
  const catalog = variableCatalog();
  return { '.env.example': renderEnvExample(catalog), 'docs/configuration.md': renderConfigurationDoc(catalog) };
}
