import path from 'node:path';

/** The repository root. */
export const root = path.resolve(__dirname, '../..');
