import path from 'node:path';
import { runContractCheck } from './contract-checks';
import { doctorExitCode, formatReport, runDoctor } from './doctor';
import { doctorEnvironment } from './doctor-environment';

const { env, source } = doctorEnvironment(process.env);
if (source !== undefined)
  process.stdout.write(
    `Nothing configured: checking the environment \`npm start\` wrote to ${path.relative(process.cwd(), source)}\n\n`,
  );
const args = process.argv.slice(2);
const unknown = args.filter((arg) => arg !== '--contract');
if (unknown.length > 0) {
  process.stderr.write(
    `doctor: unknown argument ${unknown.join(' ')}\nusage: npm run doctor [-- --contract]\n  --contract  read fragment.com's product and history pages and fail on drift (creates no order)\n`,
  );
  process.exit(2);
}
const run = args.includes('--contract') ? runContractCheck : runDoctor;
run(env).then(
  (results) => {
    process.stdout.write(`${formatReport(results)}\n`);
    process.exit(doctorExitCode(results));
  },
  (error: unknown) => {
    process.stderr.write(`doctor: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(2);
  },
);
