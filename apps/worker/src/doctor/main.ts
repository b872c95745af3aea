import { doctorExitCode, formatReport, runDoctor } from './doctor';

runDoctor(process.env).then(
  (results) => {
    process.stdout.write(`${formatReport(results)}\n`);
    process.exit(doctorExitCode(results));
  },
  (error: unknown) => {
    process.stderr.write(`doctor: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(2);
  },
);
