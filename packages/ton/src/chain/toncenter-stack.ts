import { Cell, TupleReader, type TupleItem } from '@ton/core';
import { ChainResponseError } from './chain-errors';

/** Request stack in toncenter v2 format: ["num","0x…"], ["tvm.Cell", b64], ["tvm.Slice", b64]. */
export function toToncenterStack(items: TupleItem[]): Array<[string, string]> {
  return items.map((item) => {
    switch (item.type) {
      case 'int':
        return ['num', item.value < 0n ? `-0x${(-item.value).toString(16)}` : `0x${item.value.toString(16)}`];
      case 'cell':
        return ['tvm.Cell', item.cell.toBoc().toString('base64')];
      case 'slice':
        return ['tvm.Slice', item.cell.toBoc().toString('base64')];
      case 'builder':
        return ['tvm.Builder', item.cell.toBoc().toString('base64')];
      default:
        throw new TypeError(`stack item ${item.type} is not supported in toncenter v2 requests`);
    }
  });
}

function parseNum(text: unknown): bigint {
  if (typeof text !== 'string' && typeof text !== 'number')
    throw new ChainResponseError('bad stack number', 'toncenter');
  const s = String(text);
  return s.startsWith('-') ? -BigInt(s.slice(1)) : BigInt(s);
}

function cellOf(value: unknown): Cell {
  const bytes = value && typeof value === 'object' ? (value as { bytes?: unknown }).bytes : value;
  if (typeof bytes !== 'string') throw new ChainResponseError('bad stack cell', 'toncenter');
  return Cell.fromBase64(bytes);
}

/** Entries inside list/tuple use the tonlib object form ({"@type":"tvm.stackEntryNumber",…}). */
function parseTonlibEntry(entry: Record<string, unknown>): TupleItem {
  switch (entry['@type']) {
    case 'tvm.stackEntryNumber':
      return { type: 'int', value: parseNum((entry['number'] as { number?: unknown })?.number) };
    case 'tvm.stackEntryCell':
      return { type: 'cell', cell: cellOf(entry['cell']) };
    case 'tvm.stackEntrySlice':
      return { type: 'slice', cell: cellOf(entry['slice']) };
    case 'tvm.stackEntryTuple':
      return {
        type: 'tuple',
        items: ((entry['tuple'] as { elements?: unknown[] })?.elements ?? []).map((e) =>
          parseTonlibEntry(e as Record<string, unknown>),
        ),
      };
    case 'tvm.stackEntryList':
      return {
        type: 'tuple',
        items: ((entry['list'] as { elements?: unknown[] })?.elements ?? []).map((e) =>
          parseTonlibEntry(e as Record<string, unknown>),
        ),
      };
    default:
      throw new ChainResponseError(`unsupported stack entry ${String(entry['@type'])}`, 'toncenter');
  }
}

/** Response stack of v2 runGetMethod: ["num","0x…"], ["cell",{bytes}], ["slice",{bytes}], ["list"|"tuple",{elements}], ["null"]. */
export function fromToncenterStack(stack: unknown): TupleReader {
  if (!Array.isArray(stack)) throw new ChainResponseError('runGetMethod stack is not an array', 'toncenter');
  const items = stack.map((entry): TupleItem => {
    if (!Array.isArray(entry) || typeof entry[0] !== 'string')
      throw new ChainResponseError('bad stack entry', 'toncenter');
    const [kind, value] = entry as [string, unknown];
    switch (kind) {
      case 'num':
        return { type: 'int', value: parseNum(value) };
      case 'null':
        return { type: 'null' };
      case 'cell':
      case 'tvm.Cell':
        return { type: 'cell', cell: cellOf(value) };
      case 'slice':
      case 'tvm.Slice':
        return { type: 'slice', cell: cellOf(value) };
      case 'list':
      case 'tuple':
        return {
          type: 'tuple',
          items: ((value as { elements?: unknown[] })?.elements ?? []).map((e) =>
            parseTonlibEntry(e as Record<string, unknown>),
          ),
        };
      default:
        throw new ChainResponseError(`unsupported stack entry ${kind}`, 'toncenter');
    }
  });
  return new TupleReader(items);
}
