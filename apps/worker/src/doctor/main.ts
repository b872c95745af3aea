import path from 'node:path';
import { doctorExitCode, formatReport, runDoctor } from './doctor';
import { doctorEnvironment } from './doctor-environment';

const { env, source } = doctorEnvironment(process.env);
if (source !== undefined)
  process.stdout.write(
    `Nothing configured: checking the environment \`npm start\` wrote to ${path.relative(process.cwd(), source)}\n\n`,
  );
runDoctor(env).then(
  (results) => {
    process.stdout.write(`${formatReport(results)}\n`);
    process.exit(doctorExitCode(results));
  },
  (error: unknown) => {
    process.stderr.write(`doctor: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(2);
  },
);
