import { Cell, type TupleItem } from '@ton/core';
import { badRequest } from './toncenter-errors';

const hexNum = (v: bigint): string => (v < 0n ? `-0x${(-v).toString(16)}` : `0x${v.toString(16)}`);

function parseNum(value: unknown): bigint {
  const s = String(value).trim();
  try {
    if (/^-?0x[0-9a-f]+$/i.test(s)) return s.startsWith('-') ? -BigInt(s.slice(1)) : BigInt(s);
    if (/^-?\d+$/.test(s)) return BigInt(s);
  } catch {
    // fall through
  }
  throw badRequest(`invalid number in stack: ${s.slice(0, 40)}`);
}

function parseCellB64(value: unknown): Cell {
  const text =
    typeof value === 'string'
      ? value
      : typeof value === 'object' && value && 'bytes' in value
        ? String(value.bytes)
        : '';
  try {
    const [cell] = Cell.fromBoc(Buffer.from(text, 'base64'));
    if (cell) return cell;
  } catch {
    // fall through
  }
  throw badRequest('invalid cell BOC in stack');
}

// ---------------------------------------------------------------- v2

/** v2 input stack: `[["num","123"|"0x7b"], ["tvm.Slice", b64], ["tvm.Cell", b64], ...]`. */
export function parseV2Stack(stack: unknown): TupleItem[] {
  if (stack === undefined || stack === null || stack === '') return [];
  const list = typeof stack === 'string' ? (JSON.parse(stack) as unknown) : stack;
  if (!Array.isArray(list)) throw badRequest('stack must be an array');
  return list.map((entry): TupleItem => {
    if (!Array.isArray(entry) || typeof entry[0] !== 'string')
      throw badRequest('stack entries must be [type, value] pairs');
    const [type, value] = entry as [string, unknown];
    switch (type) {
      case 'num':
      case 'number':
      case 'int':
        return { type: 'int', value: parseNum(value) };
      case 'tvm.Cell':
      case 'cell':
        return { type: 'cell', cell: parseCellB64(value) };
      case 'tvm.Slice':
      case 'slice':
        return { type: 'slice', cell: parseCellB64(value) };
      case 'tvm.Builder':
      case 'builder':
        return { type: 'builder', cell: parseCellB64(value) };
      case 'null':
        return { type: 'null' };
      default:
        throw badRequest(`unsupported stack entry type ${type}`);
    }
  });
}

function v2TlEntry(item: TupleItem): Record<string, unknown> {
  switch (item.type) {
    case 'int':
      return {
        '@type': 'tvm.stackEntryNumber',
        number: { '@type': 'tvm.numberDecimal', number: item.value.toString() },
      };
    case 'cell':
      return {
        '@type': 'tvm.stackEntryCell',
        cell: { '@type': 'tvm.cell', bytes: item.cell.toBoc().toString('base64') },
      };
    case 'slice':
    case 'builder':
      return {
        '@type': 'tvm.stackEntrySlice',
        slice: { '@type': 'tvm.slice', bytes: item.cell.toBoc().toString('base64') },
      };
    case 'tuple':
      return { '@type': 'tvm.stackEntryTuple', tuple: { '@type': 'tvm.tuple', elements: item.items.map(v2TlEntry) } };
    case 'null':
    case 'nan':
      return { '@type': 'tvm.stackEntryUnsupported' };
  }
}

/** v2 output stack, as toncenter renders it (slices come back as `cell` entries). */
export function formatV2Stack(stack: TupleItem[]): unknown[] {
  return stack.map((item) => {
    switch (item.type) {
      case 'int':
        return ['num', hexNum(item.value)];
      case 'cell':
      case 'slice':
      case 'builder':
        return [
          'cell',
          {
            bytes: item.cell.toBoc().toString('base64'),
            object: { data: { b64: '', len: item.cell.bits.length }, refs: [] },
          },
        ];
      case 'tuple':
        return ['tuple', { '@type': 'tvm.tuple', elements: item.items.map(v2TlEntry) }];
      case 'null':
        return ['null'];
      case 'nan':
        return ['num', 'NaN'];
    }
  });
}

// ---------------------------------------------------------------- v3

/** v3 input stack: `[{ type: "num"|"cell"|"slice", value }]`. */
export function parseV3Stack(stack: unknown): TupleItem[] {
  if (stack === undefined || stack === null) return [];
  if (!Array.isArray(stack)) throw badRequest('stack must be an array');
  return stack.map((entry): TupleItem => {
    if (!entry || typeof entry !== 'object') throw badRequest('stack entries must be objects');
    const { type, value } = entry as { type?: unknown; value?: unknown };
    switch (type) {
      case 'num':
        return { type: 'int', value: parseNum(value) };
      case 'cell':
        return { type: 'cell', cell: parseCellB64(value) };
      case 'slice':
        return { type: 'slice', cell: parseCellB64(value) };
      case 'null':
        return { type: 'null' };
      default:
        throw badRequest(`unsupported stack entry type ${String(type)}`);
    }
  });
}

export function formatV3Stack(stack: TupleItem[]): unknown[] {
  return stack.map(function fmt(item: TupleItem): unknown {
    switch (item.type) {
      case 'int':
        return { type: 'num', value: hexNum(item.value) };
      case 'cell':
        return { type: 'cell', value: item.cell.toBoc().toString('base64') };
      case 'slice':
      case 'builder':
        return { type: 'slice', value: item.cell.toBoc().toString('base64') };
      case 'tuple':
        return { type: 'tuple', value: item.items.map(fmt) };
      case 'null':
        return { type: 'null', value: null };
      case 'nan':
        return { type: 'num', value: 'NaN' };
    }
  });
}
