import { AppError, AVAILABILITY_CODES, ERROR_CATALOGUE, isAppError } from '../src';

describe('AppError', () => {
  it('takes its status, message and action from the catalogue unless given', () => {
    const code = Object.keys(ERROR_CATALOGUE)[0] as keyof typeof ERROR_CATALOGUE;
    const error = new AppError(code);
    expect(error.code).toBe(code);
    expect(error.status).toBe(ERROR_CATALOGUE[code].status);
    expect(error.message).toBe(ERROR_CATALOGUE[code].message);
    expect(error.details).toEqual([]);
    expect(isAppError(error)).toBe(true);
    expect(isAppError(new Error('x'))).toBe(false);
  });

  it('a field error names the field in its details', () => {
    const error = AppError.field('VALIDATION_FAILED', 'amount', 'amount must be an integer');
    expect(error.status).toBeGreaterThanOrEqual(400);
    expect(error.status).toBeLessThan(500);
    expect(error.details).toEqual([{ field: 'amount', message: 'amount must be an integer' }]);
  });

  it('every catalogue entry has a message; every code that is not an availability answer is a 4xx or 5xx', () => {
    for (const [code, definition] of Object.entries(ERROR_CATALOGUE)) {
      expect(code).toMatch(/^[A-Z][A-Z0-9_]+$/);
      if ((AVAILABILITY_CODES as readonly string[]).includes(code)) {
        expect(definition.status).toBeGreaterThanOrEqual(200);
        continue;
      }
      expect(definition.status).toBeGreaterThanOrEqual(400);
      expect(definition.status).toBeLessThan(600);
      expect(definition.message.length).toBeGreaterThan(0);
    }
  });
});
