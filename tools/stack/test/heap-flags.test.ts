import { SERVICE_HEAP_FLAGS, withHeapFlags } from '../src/heap-flags';

describe('the heap sizes built services start with', () => {
  it("puts the service's flags first, so that a caller's own (a profiler, another size) come after and win", () => {
    expect(withHeapFlags('worker', undefined)).toBe(SERVICE_HEAP_FLAGS.worker.join(' '));
    expect(withHeapFlags('gateway', '--cpu-prof --max-old-space-size=512')).toBe(
      [...SERVICE_HEAP_FLAGS.gateway, '--cpu-prof --max-old-space-size=512'].join(' '),
    );
  });

  it('leaves the sandbox, which stands for Fragment and the chain, to V8', () => {
    expect(withHeapFlags('sandbox', undefined)).toBeUndefined();
    expect(withHeapFlags('sandbox', '--cpu-prof')).toBe('--cpu-prof');
  });
});
