import { appEnvironment } from './app-environment';
import { documentedVariables, envExample } from './env-example';

describe('.env.example', () => {
  it('documents every variable any process reads', () => {
    const documented = documentedVariables();
    for (const [process, names] of Object.entries(appEnvironment()))
      expect({ process, missing: [...names].filter((name) => !documented.has(name)) }).toEqual({
        process,
        missing: [],
      });
  });

  it('sets each variable at most once, so a copied .env means one thing', () => {
    const names = [...envExample().matchAll(/^([A-Z][A-Z0-9_]+)=/gm)].map((match) => match[1]!);
    expect(names.filter((name, index) => names.indexOf(name) !== index)).toEqual([]);
  });
});
