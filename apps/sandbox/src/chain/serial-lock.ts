/** Runs async sections one at a time (the sandbox Blockchain is single-threaded state). */
export class SerialLock {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(section: () => Promise<T>): Promise<T> {
    const result = this.tail.then(section, section);
    this.tail = result.catch(() => undefined);
    return result;
  }
}
