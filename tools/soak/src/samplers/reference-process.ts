import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';

export interface DelaySample {
  p50: number;
  p99: number;
  max: number;
}

/**
 * An idle Node.js process beside the stack: its event-loop delay is what the machine alone
 * causes (waiting for a core while neighbours run). The verdict takes it off each process's
 * delay, so a busier shared machine is not read as the service slowing down.
 */
export class ReferenceProcess {
  private constructor(private readonly child: ChildProcess) {}

  static start(): ReferenceProcess {
    return new ReferenceProcess(
      fork(path.join(__dirname, 'idle-node.js'), [], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] }),
    );
  }

  get pid(): number {
    return this.child.pid!;
  }

  /** The delay since the previous sample (ms, the 10 ms timer interval taken off). */
  sample(): Promise<DelaySample> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the reference process did not answer')), 10_000);
      this.child.once('message', (message) => {
        clearTimeout(timer);
        resolve(message as DelaySample);
      });
      this.child.send('sample');
    });
  }

  stop(): void {
    this.child.kill('SIGTERM');
  }
}
