/** The Dockerfile read as stages of instructions (line continuations joined, comments dropped). */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { root } from './repo-root';

export interface Instruction {
  keyword: string;
  argument: string;
}

export interface Stage {
  name: string;
  base: string;
  instructions: Instruction[];
}

export function readDockerfile(): { args: Record<string, string>; stages: Stage[] } {
  const logical = readFileSync(path.join(root, 'Dockerfile'), 'utf8')
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
  const args: Record<string, string> = {};
  const stages: Stage[] = [];
  for (const line of logical) {
    const [keyword, ...rest] = line.split(/\s+/);
    const argument = rest.join(' ');
    if (keyword!.toUpperCase() === 'FROM') {
      const match = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(argument)!;
      stages.push({ name: match[2] ?? String(stages.length), base: match[1]!, instructions: [] });
    } else if (stages.length === 0 && keyword!.toUpperCase() === 'ARG') {
      const [name, value = ''] = argument.split('=');
      args[name!] = value;
    } else stages.at(-1)?.instructions.push({ keyword: keyword!.toUpperCase(), argument });
  }
  return { args, stages };
}

/** A stage with its parents' instructions first (FROM <earlier stage>). */
export function effectiveInstructions(stages: Stage[], name: string): Instruction[] {
  const stage = stages.find((candidate) => candidate.name === name);
  if (!stage) throw new Error(`no stage ${name}`);
  const parent = stages.find((candidate) => candidate.name === stage.base);
  return [...(parent ? effectiveInstructions(stages, parent.name) : []), ...stage.instructions];
}

/** The stages an operator builds (`--target`): the ones that say what to run. */
export function dockerfileTargets(): Set<string> {
  return new Set(
    readDockerfile()
      .stages.filter((stage) => stage.instructions.some((instruction) => instruction.keyword === 'CMD'))
      .map((stage) => stage.name),
  );
}
